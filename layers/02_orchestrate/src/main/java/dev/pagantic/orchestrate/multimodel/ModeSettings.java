package dev.pagantic.orchestrate.multimodel;

import dev.pagantic.core.ErrorCode;
import dev.pagantic.core.PaganticException;
import java.util.List;
import java.util.Objects;
import java.util.Optional;
import java.util.OptionalDouble;

/**
 * The knobs of one multi-model call (the seed's directive, minus the mode).
 *
 * @param iterations  critique/refine rounds (adversarial) or improvement rounds (refine); 0 for the mode's default
 * @param primary     the primary (planning, answering) engine's id; empty to pick by weight
 * @param review      the critic's or judge's id; empty for the highest weight
 * @param voters      the voters' ids; empty for every healthy entry reaching the weight floor (at most
 *                    {@link #maxVoters})
 * @param minWeight   the weight floor of selection by weight
 * @param maxVoters   the most voters picked by weight
 * @param maxTokens   the most tokens per call; 0 for the {@link MultiModel}'s default
 * @param temperature the sampling temperature; empty for the engines' default
 */
public record ModeSettings(int iterations, Optional<String> primary, Optional<String> review, List<String> voters,
                           int minWeight, int maxVoters, int maxTokens, OptionalDouble temperature) {

    /** The default most voters picked by weight (the seed's "up to 3"). */
    public static final int DEFAULT_MAX_VOTERS = 3;
    /** Defaults everywhere. */
    public static final ModeSettings DEFAULTS = new ModeSettings(0, Optional.empty(), Optional.empty(), List.of(), 0,
            DEFAULT_MAX_VOTERS, 0, OptionalDouble.empty());

    public ModeSettings {
        require(iterations >= 0, "iterations must not be negative: " + iterations);
        Objects.requireNonNull(primary, "primary");
        Objects.requireNonNull(review, "review");
        voters = List.copyOf(voters);
        require(minWeight >= 0, "minWeight must not be negative: " + minWeight);
        require(maxVoters > 0, "maxVoters must be positive: " + maxVoters);
        require(maxTokens >= 0, "maxTokens must not be negative: " + maxTokens);
        Objects.requireNonNull(temperature, "temperature");
    }

    /** A builder starting from the defaults. */
    public static Builder builder() {
        return new Builder();
    }

    int iterationsOr(int fallback) {
        return iterations == 0 ? fallback : iterations;
    }

    private static void require(boolean condition, String message) {
        if (!condition) {
            throw PaganticException.of(ErrorCode.CONFIG_INVALID, "invalid mode settings: " + message);
        }
    }

    /** Builds {@link ModeSettings}; validated at {@link #build()} ({@code CONFIG_INVALID}). */
    public static final class Builder {
        private int iterations;
        private String primary;
        private String review;
        private List<String> voters = List.of();
        private int minWeight;
        private int maxVoters = DEFAULT_MAX_VOTERS;
        private int maxTokens;
        private Double temperature;

        private Builder() {
        }

        /** Rounds; 0 for the mode's default. */
        public Builder iterations(int value) {
            this.iterations = value;
            return this;
        }

        /** The primary engine's id; null to pick by weight. */
        public Builder primary(String id) {
            this.primary = id;
            return this;
        }

        /** The critic's or judge's id; null for the highest weight. */
        public Builder review(String id) {
            this.review = id;
            return this;
        }

        /** The voters' ids; empty to pick by weight. */
        public Builder voters(List<String> ids) {
            this.voters = Objects.requireNonNull(ids, "voters");
            return this;
        }

        /** The voters' ids. */
        public Builder voters(String... ids) {
            return voters(List.of(ids));
        }

        /** The weight floor. */
        public Builder minWeight(int value) {
            this.minWeight = value;
            return this;
        }

        /** The most voters picked by weight. */
        public Builder maxVoters(int value) {
            this.maxVoters = value;
            return this;
        }

        /** The most tokens per call; 0 for the default. */
        public Builder maxTokens(int value) {
            this.maxTokens = value;
            return this;
        }

        /** The sampling temperature. */
        public Builder temperature(double value) {
            this.temperature = value;
            return this;
        }

        /** The settings. */
        public ModeSettings build() {
            return new ModeSettings(iterations, Optional.ofNullable(primary).filter(s -> !s.isBlank()),
                    Optional.ofNullable(review).filter(s -> !s.isBlank()), voters, minWeight, maxVoters, maxTokens,
                    temperature == null ? OptionalDouble.empty() : OptionalDouble.of(temperature));
        }
    }
}
