package dev.pagantic.observe;

import java.util.List;
import java.util.Objects;

/** The event log that keeps nothing: for production paths that need no event log. Stateless, so one is shared. */
public final class NoOpEventLog implements EventLog {

    /** The one instance; it holds no state. */
    public static final NoOpEventLog INSTANCE = new NoOpEventLog();

    private NoOpEventLog() {
    }

    /** Ignores the event (a null one is still refused, as by every log). */
    @Override
    public void record(Event event) {
        Objects.requireNonNull(event, "event");
    }

    /** False: there is nothing to build events for. */
    @Override
    public boolean isEnabled() {
        return false;
    }

    /** Always empty. */
    @Override
    public List<Event> events() {
        return List.of();
    }
}
