package dev.pagantic.orchestrate.facade;

import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.OptionalDouble;

/**
 * Optional tuning knobs of a {@link SystemRequest} (seed 001's {@code ExecutionHints}). Adapters forward them without
 * interpretation; the facade applies them in PREPARE and EXECUTE.
 *
 * <p>Go's zero values become explicit "unset" values here, so that 0.0 can mean what the seed says it means:
 * <ul>
 *   <li>{@code maxTokens} 0 means the engine's (or pattern's) default; otherwise the per-inference token limit.</li>
 *   <li>{@code timeout} {@link Duration#ZERO} means no timeout; otherwise the deadline for the whole request, after
 *       which it ends CANCELLED with {@code CANCELLED_TIMEOUT}.</li>
 *   <li>{@code temperature} empty means the engine default; {@code 0.0} means greedy (deterministic) decoding.</li>
 *   <li>{@code topP} empty means the engine default; otherwise in (0, 1]. As in the seed, a top-p of zero means the
 *       engine default, so {@code 0.0} is stored as empty.</li>
 *   <li>{@code options} vendor-specific JSON values passed to the engine unchanged (an immutable deep copy).</li>
 * </ul>
 * Invalid values (negative tokens or timeout, a temperature below zero or not finite, a top-p outside [0, 1],
 * non-JSON options) are rejected with {@code CONFIG_INVALID}.
 *
 * @param maxTokens   the token limit per inference call; 0 for the default
 * @param timeout     the deadline for the whole request; zero for none
 * @param temperature the sampling temperature; empty for the engine default, 0.0 for greedy
 * @param topP        the nucleus sampling threshold; empty for the engine default
 * @param options     vendor-specific pass-through options (JSON values)
 */
public record ExecutionHints(int maxTokens, Duration timeout, OptionalDouble temperature, OptionalDouble topP,
                             Map<String, Object> options) {

    /** No hints: every knob at its default. */
    public static final ExecutionHints DEFAULTS = new ExecutionHints(0, Duration.ZERO, OptionalDouble.empty(),
            OptionalDouble.empty(), Map.of());

    public ExecutionHints {
        Checks.require(maxTokens >= 0, "maxTokens must not be negative: ", maxTokens);
        Checks.notNull(timeout, "timeout");
        Checks.require(!timeout.isNegative(), "timeout must not be negative: ", timeout);
        Checks.notNull(temperature, "temperature");
        temperature.ifPresent(t -> Checks.require(Double.isFinite(t) && t >= 0.0,
                "temperature must be a finite number >= 0: " + t));
        Checks.notNull(topP, "topP");
        topP.ifPresent(p -> Checks.require(Double.isFinite(p) && p >= 0.0 && p <= 1.0,
                "topP must be in [0, 1]: " + p));
        if (topP.isPresent() && topP.getAsDouble() == 0.0) {
            topP = OptionalDouble.empty();
        }
        options = Checks.jsonObject(options, "options");
    }

    /** A builder starting from {@link #DEFAULTS}. */
    public static Builder builder() {
        return new Builder();
    }

    /** A builder starting from these hints. */
    public Builder toBuilder() {
        Builder builder = new Builder();
        builder.maxTokens = maxTokens;
        builder.timeout = timeout;
        builder.temperature = temperature;
        builder.topP = topP;
        builder.options.putAll(options);
        return builder;
    }

    /** Whether a token limit was given (0 means the default). */
    public boolean hasMaxTokens() {
        return maxTokens > 0;
    }

    /** Whether a request deadline was given (zero means none). */
    public boolean hasTimeout() {
        return !timeout.isZero();
    }

    /** Collects hints; {@link #build()} validates them. */
    public static final class Builder {
        private int maxTokens;
        private Duration timeout = Duration.ZERO;
        private OptionalDouble temperature = OptionalDouble.empty();
        private OptionalDouble topP = OptionalDouble.empty();
        private final Map<String, Object> options = new LinkedHashMap<>();

        private Builder() {
        }

        /** The token limit per inference call; 0 (the default) means the engine default. */
        public Builder maxTokens(int value) {
            this.maxTokens = value;
            return this;
        }

        /** The deadline for the whole request; {@link Duration#ZERO} (the default) means none. */
        public Builder timeout(Duration value) {
            this.timeout = Checks.notNull(value, "timeout");
            return this;
        }

        /** The sampling temperature; 0.0 means greedy decoding. */
        public Builder temperature(double value) {
            this.temperature = OptionalDouble.of(value);
            return this;
        }

        /** Back to the engine's default temperature. */
        public Builder defaultTemperature() {
            this.temperature = OptionalDouble.empty();
            return this;
        }

        /** The nucleus sampling threshold; 0.0 means the engine default. */
        public Builder topP(double value) {
            this.topP = OptionalDouble.of(value);
            return this;
        }

        /** Back to the engine's default top-p. */
        public Builder defaultTopP() {
            this.topP = OptionalDouble.empty();
            return this;
        }

        /** Adds (or replaces) one vendor-specific option; the value must be a JSON value. */
        public Builder option(String key, Object value) {
            Checks.notNull(key, "option key");
            options.put(key, value);
            return this;
        }

        /** Adds (or replaces) vendor-specific options; the values must be JSON values. */
        public Builder options(Map<String, ?> values) {
            Checks.notNull(values, "options").forEach(this::option);
            return this;
        }

        /**
         * The hints.
         *
         * @throws dev.pagantic.core.PaganticException {@code CONFIG_INVALID} when a value is out of range
         */
        public ExecutionHints build() {
            return new ExecutionHints(maxTokens, timeout, temperature, topP, options);
        }
    }
}
