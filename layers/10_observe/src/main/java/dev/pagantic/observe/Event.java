package dev.pagantic.observe;

import dev.pagantic.core.CallContext;
import dev.pagantic.core.Correlation;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import org.jspecify.annotations.Nullable;

/**
 * Something that happened, as the specification's {@code observe.Event}: when, in which layer, what, with which
 * structured data, how long it took and how it failed, plus the {@link Correlation} ids of the call it happened in.
 *
 * <p>An event is an immutable value. Its {@link #data()} is a deep, unmodifiable copy of what it was given (maps,
 * lists, sets and arrays are copied recursively; strings, numbers, booleans, enums, records and immutable
 * {@code java.time} values are kept; any other object is kept as its string form at recording), and its error
 * is an {@link EventError} value rather than a live exception. That is how the specification's "events are deep-copied
 * on read and write" holds: nothing an event log stores or hands out can be changed by anyone, so logs copy only
 * their lists, never the events.
 *
 * <p>Every event carries a request id (the specification's first required field): a blank one is refused with
 * {@code CONFIG_INVALID}. The other required fields depend on where the event was emitted; the
 * {@link SchemaEvent} types enforce them through their {@link EventContext}.
 *
 * <pre>{@code
 * Instant started = ctx.now();
 * ... do the work ...
 * log.record(Event.builder(ctx, "orchestrate", "infer")
 *         .timestamp(started)
 *         .data("messages", messages.size())
 *         .duration(Duration.between(started, ctx.now()))
 *         .error(failure)          // when it failed
 *         .build());
 * }</pre>
 *
 * @param timestamp   when it happened (for a timed action: when it started)
 * @param layer       the layer that emitted it ({@code orchestrate}, {@code tool}, ...)
 * @param action      what happened ({@code infer}, {@code tool_start}, ...)
 * @param data        structured details; deep-copied and unmodifiable
 * @param duration    how long it took; zero for an instant
 * @param error       how it failed; empty when it did not
 * @param correlation the ids of the call it happened in
 */
public record Event(Instant timestamp, String layer, String action, Map<String, @Nullable Object> data,
                    Duration duration,
                    Optional<EventError> error, Correlation correlation) {

    public Event {
        Objects.requireNonNull(timestamp, "timestamp");
        Checks.requireNonBlank(layer, "layer");
        Checks.requireNonBlank(action, "action");
        Objects.requireNonNull(data, "data");
        data = DataValues.copyMap(data);
        Checks.requireNonNegative(duration, "duration");
        Objects.requireNonNull(error, "error");
        Objects.requireNonNull(correlation, "correlation");
        if (correlation.requestId().isBlank()) {
            throw Checks.invalid("request_id", "every event must carry a request_id");
        }
    }

    /** Starts an event in the given context: its correlation ids, and a timestamp of now by its clock. */
    public static Builder builder(CallContext context, String layer, String action) {
        Objects.requireNonNull(context, "context");
        return new Builder(context.correlation(), context.now(), layer, action);
    }

    /** Starts an event with the given correlation ids and timestamp. */
    public static Builder builder(Correlation correlation, Instant timestamp, String layer, String action) {
        return new Builder(correlation, timestamp, layer, action);
    }

    /** The request id of the correlation. */
    public String requestId() {
        return correlation.requestId();
    }

    /** Whether the event records a failure. */
    public boolean failed() {
        return error.isPresent();
    }

    /** The data value under the key, if the key is present with a non-null value. */
    public Optional<Object> dataValue(String key) {
        return Optional.ofNullable(data.get(key));
    }

    /**
     * Builds an {@link Event}; validation happens at {@link #build()}, where every problem found is reported in one
     * {@code CONFIG_INVALID} failure.
     */
    public static final class Builder {
        private final Correlation correlation;
        private Instant timestamp;
        private final String layer;
        private final String action;
        private final Map<String, @Nullable Object> data = new LinkedHashMap<>();
        private Duration duration = Duration.ZERO;
        private @Nullable EventError error;

        private Builder(Correlation correlation, Instant timestamp, String layer, String action) {
            this.correlation = correlation;
            this.timestamp = timestamp;
            this.layer = layer;
            this.action = action;
        }

        /** When it happened; defaults to the context's now (or the given timestamp). */
        public Builder timestamp(Instant instant) {
            this.timestamp = instant;
            return this;
        }

        /** One structured detail; a later value for the same key replaces an earlier one. */
        public Builder data(String key, @Nullable Object value) {
            Objects.requireNonNull(key, "key");
            data.put(key, value);
            return this;
        }

        /** All the given details. */
        public Builder data(Map<String, ?> values) {
            Objects.requireNonNull(values, "values");
            values.forEach(this::data);
            return this;
        }

        /** How long it took; defaults to zero. */
        public Builder duration(Duration value) {
            this.duration = value;
            return this;
        }

        /** How it failed. */
        public Builder error(EventError value) {
            this.error = Objects.requireNonNull(value, "error");
            return this;
        }

        /** How it failed, as the throwable describes it ({@link EventError#from}). */
        public Builder error(Throwable throwable) {
            this.error = EventError.from(throwable);
            return this;
        }

        /** The event; {@code CONFIG_INVALID} listing every missing or invalid field. */
        public Event build() {
            List<String> problems = new ArrayList<>();
            if (correlation == null) {
                problems.add("correlation is required");
            } else if (correlation.requestId().isBlank()) {
                problems.add("every event must carry a request_id");
            }
            if (timestamp == null) {
                problems.add("timestamp is required");
            }
            if (layer == null || layer.isBlank()) {
                problems.add("layer must not be blank");
            }
            if (action == null || action.isBlank()) {
                problems.add("action must not be blank");
            }
            if (duration == null || duration.isNegative()) {
                problems.add("duration must be given and not negative: " + duration);
            }
            if (!problems.isEmpty()) {
                throw Checks.invalid("event", "invalid event: " + String.join("; ", problems));
            }
            return new Event(timestamp, layer, action, data, duration, Optional.ofNullable(error), correlation);
        }
    }
}
