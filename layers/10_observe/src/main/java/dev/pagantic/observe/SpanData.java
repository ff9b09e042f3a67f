package dev.pagantic.observe;

import dev.pagantic.core.Correlation;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;

/**
 * An immutable snapshot of a recorded span: what {@link InMemoryTracer} hands out. Later changes to the live span
 * (an attribute, its end) never show in a snapshot taken before them.
 *
 * @param name        the span's name
 * @param correlation the span's ids: its span id, its parent span id, trace, request and session ids, causal link
 * @param start       when it started
 * @param end         when it ended; empty while it runs
 * @param attributes  its attributes, deep-copied and unmodifiable, in the order first set
 * @param errors      the failures it recorded, in order
 */
public record SpanData(String name, Correlation correlation, Instant start, Optional<Instant> end,
                       Map<String, Object> attributes, List<EventError> errors) {

    public SpanData {
        Checks.requireNonBlank(name, "name");
        Objects.requireNonNull(correlation, "correlation");
        Objects.requireNonNull(start, "start");
        Objects.requireNonNull(end, "end");
        attributes = DataValues.copyMap(attributes);
        errors = List.copyOf(errors);
    }

    /** The span's id. */
    public String spanId() {
        return correlation.spanId();
    }

    /** The parent span's id; empty for a root. */
    public String parentSpanId() {
        return correlation.parentSpanId();
    }

    /** The trace's id. */
    public String traceId() {
        return correlation.traceId();
    }

    /** Whether the span has ended. */
    public boolean ended() {
        return end.isPresent();
    }

    /** How long the span took; empty while it runs. */
    public Optional<Duration> duration() {
        return end.map(instant -> Duration.between(start, instant));
    }

    /** Whether the span recorded a failure. */
    public boolean failed() {
        return !errors.isEmpty();
    }
}
