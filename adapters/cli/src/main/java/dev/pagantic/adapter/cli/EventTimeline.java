package dev.pagantic.adapter.cli;

import dev.pagantic.orchestrate.facade.RequestTimelines;
import dev.pagantic.orchestrate.facade.RequestTimelines.TimelineEvent;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * The rendering of a request's event timeline for {@code --verbose}: one line per event with the time since the
 * request's first event, the layer and action, the event's data, its duration and its error. The events come from the
 * facade's {@link RequestTimelines}, which the command gives the orchestrator as its event log.
 */
final class EventTimeline {

    private static final int VALUE_LIMIT = 80;

    private EventTimeline() {
    }

    /** The timeline lines of the events, timed from the first. */
    static List<String> render(List<TimelineEvent> events) {
        List<String> lines = new ArrayList<>();
        Instant origin = events.isEmpty() ? Instant.EPOCH : events.get(0).timestamp();
        for (TimelineEvent event : events) {
            StringBuilder line = new StringBuilder(String.format(Locale.ROOT, "%+7d ms  %s/%s",
                    Duration.between(origin, event.timestamp()).toMillis(), event.layer(), event.action()));
            for (Map.Entry<String, Object> entry : event.data().entrySet()) {
                line.append("  ").append(entry.getKey()).append('=').append(shorten(String.valueOf(entry.getValue())));
            }
            if (!event.duration().isZero()) {
                line.append("  (").append(event.duration().toMillis()).append(" ms)");
            }
            event.errorCode().ifPresent(code -> line.append("  error=").append(code)
                    .append(event.errorMessage().filter(m -> !m.isEmpty()).map(m -> ": " + shorten(m)).orElse("")));
            lines.add(line.toString());
        }
        return lines;
    }

    private static String shorten(String text) {
        String flat = text.replace('\n', ' ').replace('\r', ' ');
        return flat.length() <= VALUE_LIMIT ? flat : flat.substring(0, VALUE_LIMIT - 3) + "...";
    }
}
