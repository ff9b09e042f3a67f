package dev.pagantic.orchestrate;

import dev.pagantic.core.ErrorCode;
import dev.pagantic.core.PaganticException;
import dev.pagantic.orchestrate.lifecycle.ExecutionLifecycle;
import java.util.Collection;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.OptionalDouble;
import java.util.OptionalLong;
import java.util.Set;

/**
 * Per-turn settings of an {@link AgentLoop} turn, for callers (the facade) that apply a request's execution hints and
 * tool whitelist to a loop that outlives the request. Every field is optional; {@link #DEFAULTS} changes nothing.
 *
 * @param maxTokens    the most tokens per inference of this turn; 0 for the loop's configured value
 * @param temperature  the sampling temperature; empty for the engine's default in {@code chat} and 0.3 in
 *                     {@code chatStructured}; 0.0 is greedy
 * @param topP         the nucleus sampling threshold; empty for the engine's default
 * @param seed         the sampling seed; empty for none
 * @param options      engine-specific options passed through unchanged (JSON values); in {@code chatStructured},
 *                     {@code enable_thinking} is always {@code false}
 * @param allowedTools when present, the only registered tools offered to the model and executed in this turn; a call
 *                     of another tool comes back to the model as {@code TOOL_NOT_FOUND} and nothing runs. Every name
 *                     must be a tool of the loop's registry ({@code CONFIG_INVALID} otherwise, so that a typo does
 *                     not silently remove a tool)
 * @param lifecycle    a lifecycle the caller started in INIT or PLAN, which the turn drives to COMPLETE, ERROR or
 *                     CANCELLED; empty for none (or the loop's own, when it has a transition listener)
 */
public record TurnOptions(int maxTokens, OptionalDouble temperature, OptionalDouble topP, OptionalLong seed,
                          Map<String, Object> options, Optional<Set<String>> allowedTools,
                          Optional<ExecutionLifecycle> lifecycle) {

    /** No per-turn settings: the loop's configuration applies. */
    public static final TurnOptions DEFAULTS = builder().build();

    public TurnOptions {
        if (maxTokens < 0) {
            throw PaganticException.of(ErrorCode.CONFIG_INVALID, "maxTokens must not be negative: " + maxTokens);
        }
        Objects.requireNonNull(temperature, "temperature");
        Objects.requireNonNull(topP, "topP");
        Objects.requireNonNull(seed, "seed");
        options = Collections.unmodifiableMap(new LinkedHashMap<>(Objects.requireNonNull(options, "options")));
        allowedTools = Objects.requireNonNull(allowedTools, "allowedTools")
                .map(names -> Collections.unmodifiableSet(new LinkedHashSet<>(names)));
        Objects.requireNonNull(lifecycle, "lifecycle");
    }

    /** Starts building options; nothing is set. */
    public static Builder builder() {
        return new Builder();
    }

    /** Builds {@link TurnOptions}. */
    public static final class Builder {
        private int maxTokens;
        private OptionalDouble temperature = OptionalDouble.empty();
        private OptionalDouble topP = OptionalDouble.empty();
        private OptionalLong seed = OptionalLong.empty();
        private final Map<String, Object> options = new LinkedHashMap<>();
        private Set<String> allowedTools;
        private ExecutionLifecycle lifecycle;

        private Builder() {
        }

        /** The most tokens per inference of the turn; 0 (the default) for the loop's value. */
        public Builder maxTokens(int value) {
            this.maxTokens = value;
            return this;
        }

        /** The sampling temperature; 0.0 is greedy. */
        public Builder temperature(double value) {
            this.temperature = OptionalDouble.of(value);
            return this;
        }

        /** The nucleus sampling threshold. */
        public Builder topP(double value) {
            this.topP = OptionalDouble.of(value);
            return this;
        }

        /** The sampling seed. */
        public Builder seed(long value) {
            this.seed = OptionalLong.of(value);
            return this;
        }

        /** An engine-specific option (a JSON value), passed through unchanged. */
        public Builder option(String key, Object value) {
            options.put(Objects.requireNonNull(key, "key"), value);
            return this;
        }

        /** Engine-specific options, passed through unchanged. */
        public Builder options(Map<String, ?> values) {
            Objects.requireNonNull(values, "values").forEach(this::option);
            return this;
        }

        /** The tool whitelist of the turn. */
        public Builder allowedTools(Collection<String> names) {
            this.allowedTools = new LinkedHashSet<>(Objects.requireNonNull(names, "names"));
            return this;
        }

        /** A lifecycle in INIT or PLAN for the turn to drive. */
        public Builder lifecycle(ExecutionLifecycle value) {
            this.lifecycle = Objects.requireNonNull(value, "lifecycle");
            return this;
        }

        /** The options; {@code CONFIG_INVALID} for a negative token limit. */
        public TurnOptions build() {
            return new TurnOptions(maxTokens, temperature, topP, seed, options, Optional.ofNullable(allowedTools),
                    Optional.ofNullable(lifecycle));
        }
    }
}
