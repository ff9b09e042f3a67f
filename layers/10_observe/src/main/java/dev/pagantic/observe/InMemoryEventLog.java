package dev.pagantic.observe;

import java.util.ArrayDeque;
import java.util.List;
import java.util.Objects;
import java.util.function.Predicate;

/**
 * An event log that keeps events in memory, in recording order: the specification's {@code InMemoryEventLog}, for
 * tests, development, and inspecting what a call did ({@code log.events()} after {@code agent.chat(...)}).
 *
 * <p>Thread-safe: any number of threads may record and read at once; no event is lost and each thread's events keep
 * their order. Events are immutable ({@link Event}), so reads return an immutable snapshot of the list and never a
 * view that later recordings change.
 *
 * <p>An unbounded log keeps every event, which suits a test or a single request. A long-running process that wants a
 * recent history uses a {@link #bounded bounded} log: it keeps the newest {@code capacity} events, drops the oldest,
 * and counts what it dropped.
 */
public final class InMemoryEventLog implements EventLog {

    private final Object lock = new Object();
    private final int capacity; // Integer.MAX_VALUE: unbounded
    private final ArrayDeque<Event> events = new ArrayDeque<>(); // guarded by lock
    private long dropped; // guarded by lock

    private InMemoryEventLog(int capacity) {
        this.capacity = capacity;
    }

    /** A log that keeps every event. */
    public static InMemoryEventLog unbounded() {
        return new InMemoryEventLog(Integer.MAX_VALUE);
    }

    /** A log that keeps the newest {@code capacity} events; {@code CONFIG_INVALID} unless capacity is positive. */
    public static InMemoryEventLog bounded(int capacity) {
        if (capacity <= 0) {
            throw Checks.invalid("capacity", "capacity must be positive: " + capacity);
        }
        return new InMemoryEventLog(capacity);
    }

    @Override
    public void record(Event event) {
        Objects.requireNonNull(event, "event");
        synchronized (lock) {
            if (events.size() == capacity) {
                events.removeFirst();
                dropped++;
            }
            events.addLast(event);
        }
    }

    @Override
    public List<Event> events() {
        synchronized (lock) {
            return List.copyOf(events);
        }
    }

    /** The recorded events that match the predicate, in recording order. */
    public List<Event> events(Predicate<? super Event> filter) {
        Objects.requireNonNull(filter, "filter");
        return events().stream().filter(filter).toList();
    }

    /** The recorded events of one request, in recording order. */
    public List<Event> eventsOfRequest(String requestId) {
        Objects.requireNonNull(requestId, "requestId");
        return events(event -> event.requestId().equals(requestId));
    }

    /** How many events the log holds now. */
    public int size() {
        synchronized (lock) {
            return events.size();
        }
    }

    /** How many of the oldest events a bounded log has dropped to stay within its capacity; 0 for an unbounded one. */
    public long dropped() {
        synchronized (lock) {
            return dropped;
        }
    }

    /** The most events the log keeps; {@link Integer#MAX_VALUE} when unbounded. */
    public int capacity() {
        return capacity;
    }

    /** Forgets every event (and the dropped count). */
    public void clear() {
        synchronized (lock) {
            events.clear();
            dropped = 0;
        }
    }
}
