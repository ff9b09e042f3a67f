package dev.pagantic.observe;

import java.util.List;

/**
 * Where events go: the specification's {@code EventLog}. Orchestrate records an event for every inference call, tool
 * execution, context retrieval and lifecycle transition; an application may record its own.
 *
 * <p>Implementations: {@link InMemoryEventLog} (keeps events, for tests, development and inspection after a call),
 * {@link NoOpEventLog} (keeps nothing), {@link Slf4jEventLog} (writes each event as a structured log line) and
 * {@link #tee} (several at once). All are safe to share between threads.
 */
public interface EventLog {

    /** Records the event. Must be quick and must not throw for a valid event. */
    void record(Event event);

    /**
     * The recorded events in the order they were recorded, as an immutable snapshot; empty for logs that keep
     * nothing (the no-op and SLF4J logs).
     */
    List<Event> events();

    /**
     * Whether {@link #record} may keep or write an event. Emitters check it before building an event, so that a log
     * that drops everything costs nothing per call (the no-op log, an SLF4J log whose levels are off). A log that
     * says false must ignore what it is given; the default is true.
     */
    default boolean isEnabled() {
        return true;
    }

    /** Records one of the specification's schema events, as its {@link SchemaEvent#toEvent() generic form}. */
    default void record(SchemaEvent event) {
        record(event.toEvent());
    }

    /** The log that keeps nothing. */
    static EventLog noOp() {
        return NoOpEventLog.INSTANCE;
    }

    /** A new, unbounded, in-memory log. */
    static InMemoryEventLog inMemory() {
        return InMemoryEventLog.unbounded();
    }

    /**
     * A log that records every event in each of the given logs, in order; its {@link #events()} are the first log's.
     * For example {@code EventLog.tee(memory, Slf4jEventLog.create())} keeps events for inspection and logs them.
     */
    static EventLog tee(EventLog first, EventLog... others) {
        return new TeeEventLog(first, List.of(others));
    }
}
