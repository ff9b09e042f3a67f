package dev.pagantic.orchestrate.multimodel;

import static dev.pagantic.core.Preconditions.require;
import static dev.pagantic.core.Preconditions.requireElements;
import static dev.pagantic.core.Preconditions.requireNonNull;
import static dev.pagantic.core.Preconditions.requireText;

import dev.pagantic.core.Preconditions;
import java.util.HashSet;
import java.util.List;
import java.util.Optional;
import java.util.Set;

/**
 * The knobs of the multi-model modes (seed 003's directive, minus the mode): which engines of the
 * {@link EngineCatalogue} play which part, and how many rounds run. A request carries one as its side channel (the
 * facade's {@code SystemRequest.directive()}, read by the orchestrator to pick engines; it is never forwarded to any
 * model), and {@link MultiModel} takes one per call. How to sample is not here: that is the call's
 * {@link dev.pagantic.inference.InferenceSettings}.
 *
 * <p>Wire form (the facade's JSON): {@code "directive": {"iterations": 2, "primary": "small", "review": "large",
 * "voters": ["a", "b"], "min_weight": 5, "max_voters": 3}}, every field optional.
 *
 * @param iterations the rounds (adversarial's critique/refine, refine's improvements); 0 for the mode's default
 * @param primary    the primary engine's catalogue id; empty to pick by weight
 * @param review     the critic's or judge's catalogue id; empty for the highest weight
 * @param voters     the voters' catalogue ids; empty to pick by weight
 * @param minWeight  the weight floor of selection by weight; 0 for none
 * @param maxVoters  the most voters picked by weight; {@value #DEFAULT_MAX_VOTERS} by default
 */
public record Directive(int iterations, Optional<String> primary, Optional<String> review, List<String> voters,
                        int minWeight, int maxVoters) {

    /** The default most voters picked by weight (the seed's "up to 3"). */
    public static final int DEFAULT_MAX_VOTERS = 3;

    /** No directive: every knob at its default. */
    public static final Directive NONE = new Directive(0, Optional.empty(), Optional.empty(), List.of(), 0,
            DEFAULT_MAX_VOTERS);

    /** @throws dev.pagantic.core.PaganticException {@code CONFIG_INVALID} for negative numbers, blank or repeated ids */
    public Directive {
        require(iterations >= 0, "directive iterations must not be negative: ", iterations);
        requireNonNull(primary, "primary");
        requireNonNull(review, "review");
        primary.ifPresent(id -> requireText(id, "primary engine id"));
        review.ifPresent(id -> requireText(id, "review engine id"));
        voters = requireElements(voters, "voters");
        Set<String> seen = new HashSet<>();
        for (String id : voters) {
            requireText(id, "voter id");
            require(seen.add(id), "voter '" + id + "' is named twice");
        }
        require(minWeight >= 0, "directive min_weight must not be negative: ", minWeight);
        require(maxVoters > 0, "directive max_voters must be positive: ", maxVoters);
    }

    /** The rounds, or the mode's default when none were given. */
    int iterationsOr(int fallback) {
        return iterations == 0 ? fallback : iterations;
    }

    /** A builder starting from {@link #NONE}. */
    public static Builder builder() {
        return new Builder();
    }

    /** Whether every knob is at its default. */
    public boolean isNone() {
        return equals(NONE);
    }

    /** Collects a directive; {@link #build()} validates it. */
    public static final class Builder {
        private int iterations;
        private String primary;
        private String review;
        private List<String> voters = List.of();
        private int minWeight;
        private int maxVoters = DEFAULT_MAX_VOTERS;

        private Builder() {
        }

        /** The rounds; 0 for the mode's default. */
        public Builder iterations(int value) {
            this.iterations = value;
            return this;
        }

        /** The primary engine's id; null for selection by weight. */
        public Builder primary(String id) {
            this.primary = id;
            return this;
        }

        /** The critic's or judge's id; null for the highest weight. */
        public Builder review(String id) {
            this.review = id;
            return this;
        }

        /** The voters' ids. */
        public Builder voters(List<String> ids) {
            this.voters = requireNonNull(ids, "voters");
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

        /** The directive. */
        public Directive build() {
            return new Directive(iterations, Optional.ofNullable(primary).filter(id -> !id.isBlank()),
                    Optional.ofNullable(review).filter(id -> !id.isBlank()), voters, minWeight, maxVoters);
        }
    }
}
