package dev.pagantic.inference;

import static dev.pagantic.core.Preconditions.require;
import static dev.pagantic.core.Preconditions.requireNonNull;

import dev.pagantic.core.Preconditions;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.OptionalDouble;
import java.util.OptionalLong;

/**
 * How to sample one inference call: the one value for inference settings, from an adapter's request down to the
 * engine. Every value is optional, and "unset" always means the engine's default:
 * <ul>
 *   <li>{@code maxTokens}: the most tokens to generate; 0 for unset;</li>
 *   <li>{@code temperature}: empty for unset; {@code 0.0} is greedy decoding;</li>
 *   <li>{@code topP}: the nucleus sampling threshold in (0, 1]; empty for unset. As in the specification, a top-p of
 *       zero means unset, so {@code 0.0} is stored as empty;</li>
 *   <li>{@code seed}: the sampling seed, for reproducible sampling; empty for unset;</li>
 *   <li>{@code stop}: strings that end generation when produced (not part of the output); empty for none;</li>
 *   <li>{@code options}: engine-specific JSON values, passed through unchanged.</li>
 * </ul>
 * The values are validated once, here: a negative token limit, a temperature below zero or not finite, a top-p
 * outside [0, 1], an empty stop string or a non-JSON option is {@code CONFIG_INVALID}.
 *
 * <h2>Layering</h2>
 * Settings come from several places, each more specific than the last: pagantic's defaults, the orchestrator's
 * configuration, the request, and the step that makes the call (a structured turn, a planner). {@link #overrideWith}
 * layers them: a value set in the more specific settings replaces the one below it, an unset one keeps it, and the
 * options of both are merged (the more specific value of a key wins).
 *
 * <pre>{@code
 * InferenceSettings configured = InferenceSettings.builder().maxTokens(2048).build();
 * InferenceSettings request = InferenceSettings.builder().temperature(0.2).seed(42).build();
 * InferenceSettings effective = configured.overrideWith(request); // 2048 tokens, temperature 0.2, seed 42
 * }</pre>
 *
 * @param maxTokens   the most tokens to generate; 0 for the engine's default
 * @param temperature the sampling temperature; empty for the engine's default
 * @param topP        the nucleus sampling threshold in (0, 1]; empty for the engine's default
 * @param seed        the sampling seed; empty for none
 * @param stop        strings that end generation; empty for none
 * @param options     engine-specific options (a JSON object), passed through unchanged
 */
public record InferenceSettings(int maxTokens, OptionalDouble temperature, OptionalDouble topP, OptionalLong seed,
                                List<String> stop, Map<String, Object> options) {

    /** Nothing set: every value is the engine's default. */
    public static final InferenceSettings DEFAULTS = new InferenceSettings(0, OptionalDouble.empty(),
            OptionalDouble.empty(), OptionalLong.empty(), List.of(), Map.of());

    public InferenceSettings {
        require(maxTokens >= 0, "maxTokens must not be negative: ", maxTokens);
        requireNonNull(temperature, "temperature");
        temperature.ifPresent(t -> require(Double.isFinite(t) && t >= 0, "temperature must be a finite number >= 0: ",
                t));
        requireNonNull(topP, "topP");
        topP.ifPresent(p -> require(p >= 0 && p <= 1, "topP must be within [0, 1]: ", p));
        if (topP.isPresent() && topP.getAsDouble() == 0.0) {
            topP = OptionalDouble.empty();
        }
        requireNonNull(seed, "seed");
        stop = Preconditions.requireElements(stop, "stop");
        for (String text : stop) {
            require(!text.isEmpty(), "stop strings must not be empty");
        }
        options = Preconditions.jsonObject(options, "options");
    }

    /** A builder with nothing set. */
    public static Builder builder() {
        return new Builder();
    }

    /** A builder initialised with these settings. */
    public Builder toBuilder() {
        Builder builder = new Builder();
        builder.maxTokens = maxTokens;
        builder.temperature = temperature;
        builder.topP = topP;
        builder.seed = seed;
        builder.stop.addAll(stop);
        builder.options.putAll(options);
        return builder;
    }

    /**
     * These settings with the more specific ones laid over them: every value the other settings set replaces this
     * one's, every value they leave unset keeps this one's; the options are merged, the other's value of a key
     * winning, and a non-empty stop list replaces this one's.
     */
    public InferenceSettings overrideWith(InferenceSettings specific) {
        requireNonNull(specific, "settings");
        if (specific.equals(DEFAULTS) || this == specific) {
            return this;
        }
        if (equals(DEFAULTS)) {
            return specific;
        }
        Map<String, Object> merged = options;
        if (!specific.options.isEmpty()) {
            merged = new LinkedHashMap<>(options);
            merged.putAll(specific.options);
        }
        return new InferenceSettings(specific.maxTokens > 0 ? specific.maxTokens : maxTokens,
                specific.temperature.isPresent() ? specific.temperature : temperature,
                specific.topP.isPresent() ? specific.topP : topP,
                specific.seed.isPresent() ? specific.seed : seed,
                specific.stop.isEmpty() ? stop : specific.stop,
                merged);
    }

    /** Whether a token limit is set. */
    public boolean hasMaxTokens() {
        return maxTokens > 0;
    }

    /** These settings with another token limit (0 for the engine's default). */
    public InferenceSettings withMaxTokens(int value) {
        return value == maxTokens ? this : toBuilder().maxTokens(value).build();
    }

    /** These settings with another seed. */
    public InferenceSettings withSeed(long value) {
        return seed.isPresent() && seed.getAsLong() == value ? this : toBuilder().seed(value).build();
    }

    /** Collects settings; {@link #build()} validates them ({@code CONFIG_INVALID}). */
    public static final class Builder {
        private int maxTokens;
        private OptionalDouble temperature = OptionalDouble.empty();
        private OptionalDouble topP = OptionalDouble.empty();
        private OptionalLong seed = OptionalLong.empty();
        private final List<String> stop = new ArrayList<>();
        private final Map<String, Object> options = new LinkedHashMap<>();

        private Builder() {
        }

        /** The most tokens to generate; 0 (the default) for the engine's default. */
        public Builder maxTokens(int value) {
            this.maxTokens = value;
            return this;
        }

        /** The sampling temperature; 0.0 is greedy decoding. */
        public Builder temperature(double value) {
            this.temperature = OptionalDouble.of(value);
            return this;
        }

        /** Back to the engine's default temperature. */
        public Builder defaultTemperature() {
            this.temperature = OptionalDouble.empty();
            return this;
        }

        /** The nucleus sampling threshold; 0.0 means the engine's default. */
        public Builder topP(double value) {
            this.topP = OptionalDouble.of(value);
            return this;
        }

        /** Back to the engine's default top-p. */
        public Builder defaultTopP() {
            this.topP = OptionalDouble.empty();
            return this;
        }

        /** The sampling seed. */
        public Builder seed(long value) {
            this.seed = OptionalLong.of(value);
            return this;
        }

        /** Adds a string that ends generation. */
        public Builder addStop(String value) {
            stop.add(requireNonNull(value, "stop"));
            return this;
        }

        /** Replaces the strings that end generation. */
        public Builder stop(List<String> values) {
            stop.clear();
            requireNonNull(values, "stop").forEach(this::addStop);
            return this;
        }

        /** Adds (or replaces) one engine-specific option; the value must be a JSON value. */
        public Builder option(String key, Object value) {
            options.put(requireNonNull(key, "option key"), value);
            return this;
        }

        /** Adds (or replaces) engine-specific options; the values must be JSON values. */
        public Builder options(Map<String, ?> values) {
            requireNonNull(values, "options").forEach(this::option);
            return this;
        }

        /** The settings; {@code CONFIG_INVALID} when a value is out of range. */
        public InferenceSettings build() {
            return new InferenceSettings(maxTokens, temperature, topP, seed, stop, options);
        }
    }
}
