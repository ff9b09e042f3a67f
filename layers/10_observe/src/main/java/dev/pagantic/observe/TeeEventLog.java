package dev.pagantic.observe;

import java.util.ArrayList;
import java.util.List;
import java.util.Objects;

/** Records into several logs; {@link EventLog#tee}. */
final class TeeEventLog implements EventLog {

    private final EventLog first;
    private final List<EventLog> all;

    TeeEventLog(EventLog first, List<EventLog> others) {
        this.first = Objects.requireNonNull(first, "first");
        List<EventLog> logs = new ArrayList<>();
        logs.add(first);
        others.forEach(log -> logs.add(Objects.requireNonNull(log, "log")));
        this.all = List.copyOf(logs);
    }

    @Override
    public void record(Event event) {
        Objects.requireNonNull(event, "event");
        for (EventLog log : all) {
            log.record(event);
        }
    }

    /** True when any of the logs is. */
    @Override
    public boolean isEnabled() {
        for (EventLog log : all) {
            if (log.isEnabled()) {
                return true;
            }
        }
        return false;
    }

    @Override
    public List<Event> events() {
        return first.events();
    }
}
