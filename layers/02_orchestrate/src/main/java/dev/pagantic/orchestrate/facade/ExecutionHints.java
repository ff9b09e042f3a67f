package dev.pagantic.orchestrate.facade;

import static dev.pagantic.core.Preconditions.require;
import static dev.pagantic.core.Preconditions.requireNonNull;

import dev.pagantic.inference.InferenceSettings;
import java.time.Duration;
import java.util.List;
import java.util.Map;

/**
 * Optional tuning knobs of a {@link SystemRequest} (seed 001's {@code ExecutionHints}): the request's
 * {@link InferenceSettings} and its timeout. Adapters forward them without interpretation; the facade applies the
 * settings to every inference of the request, laid over the orchestrator's configured settings, and the timeout as the
 * request's deadline.
 *
 * <p>The settings are the one value for inference settings of pagantic, with its one set of rules (validated there):
 * max tokens 0 means the configured default, an empty temperature or top-p means the engine's default (a temperature of
 * 0.0 is greedy; a top-p of 0 means the default, as in the seed), a seed for reproducible sampling, stop strings, and
 * vendor options passed to the engine unchanged. A timeout of {@link Duration#ZERO} means none; otherwise the request
 * ends CANCELLED with {@code CANCELLED_TIMEOUT} when it passes.
 *
 * @param settings how to sample every inference of the request
 * @param timeout  the deadline for the whole request; zero for none
 */
public record ExecutionHints(InferenceSettings settings, Duration timeout) {

    /** No hints: every knob at its default. */
    public static final ExecutionHints DEFAULTS = new ExecutionHints(InferenceSettings.DEFAULTS, Duration.ZERO);

    public ExecutionHints {
        requireNonNull(settings, "settings");
        requireNonNull(timeout, "timeout");
        require(!timeout.isNegative(), "timeout must not be negative: ", timeout);
    }

    /** A builder starting from {@link #DEFAULTS}. */
    public static Builder builder() {
        return new Builder();
    }

    /** A builder starting from these hints. */
    public Builder toBuilder() {
        Builder builder = new Builder();
        builder.settings = settings.toBuilder();
        builder.timeout = timeout;
        return builder;
    }

    /** Whether a request deadline was given (zero means none). */
    public boolean hasTimeout() {
        return !timeout.isZero();
    }

    /**
     * Collects hints; {@link #build()} validates them ({@code CONFIG_INVALID}). The sampling setters set the request's
     * {@link InferenceSettings} one value at a time; {@link #settings} replaces them whole.
     */
    public static final class Builder {
        private InferenceSettings.Builder settings = InferenceSettings.builder();
        private Duration timeout = Duration.ZERO;

        private Builder() {
        }

        /** Replaces the inference settings whole. */
        public Builder settings(InferenceSettings value) {
            this.settings = requireNonNull(value, "settings").toBuilder();
            return this;
        }

        /** The token limit per inference call; 0 (the default) means the configured default. */
        public Builder maxTokens(int value) {
            settings.maxTokens(value);
            return this;
        }

        /** The deadline for the whole request; {@link Duration#ZERO} (the default) means none. */
        public Builder timeout(Duration value) {
            this.timeout = requireNonNull(value, "timeout");
            return this;
        }

        /** The sampling temperature; 0.0 means greedy decoding. */
        public Builder temperature(double value) {
            settings.temperature(value);
            return this;
        }

        /** Back to the engine's default temperature. */
        public Builder defaultTemperature() {
            settings.defaultTemperature();
            return this;
        }

        /** The nucleus sampling threshold; 0.0 means the engine default. */
        public Builder topP(double value) {
            settings.topP(value);
            return this;
        }

        /** Back to the engine's default top-p. */
        public Builder defaultTopP() {
            settings.defaultTopP();
            return this;
        }

        /** The sampling seed, for reproducible sampling. */
        public Builder seed(long value) {
            settings.seed(value);
            return this;
        }

        /** Replaces the strings that end generation. */
        public Builder stop(List<String> values) {
            settings.stop(values);
            return this;
        }

        /** Adds (or replaces) one vendor-specific option; the value must be a JSON value. */
        public Builder option(String key, Object value) {
            settings.option(key, value);
            return this;
        }

        /** Adds (or replaces) vendor-specific options; the values must be JSON values. */
        public Builder options(Map<String, ?> values) {
            settings.options(values);
            return this;
        }

        /**
         * The hints.
         *
         * @throws dev.pagantic.core.PaganticException {@code CONFIG_INVALID} when a value is out of range
         */
        public ExecutionHints build() {
            return new ExecutionHints(settings.build(), timeout);
        }
    }
}
