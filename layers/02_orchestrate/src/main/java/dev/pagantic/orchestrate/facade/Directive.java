package dev.pagantic.orchestrate.facade;

import java.util.HashSet;
import java.util.List;
import java.util.Optional;
import java.util.Set;

/**
 * The directive side channel of a {@link SystemRequest} (seed 003): the knobs of the multi-model modes
 * ({@link Mode#ADVERSARIAL}, {@link Mode#VOTE}, {@link Mode#REFINE}). The orchestrator reads it to pick engines from
 * its catalogue; it is never forwarded to any model. Other modes ignore it.
 *
 * <p>Wire form ({@link FacadeJson}): {@code "directive": {"iterations": 2, "primary": "small", "review": "large",
 * "voters": ["a", "b"], "min_weight": 5}}, every field optional.
 *
 * @param iterations the rounds (adversarial's critique/refine, refine's improvements); 0 for the mode's default
 * @param primary    the primary engine's catalogue id; empty to pick by weight
 * @param review     the critic's or judge's catalogue id; empty for the highest weight
 * @param voters     the voters' catalogue ids; empty to pick by weight
 * @param minWeight  the weight floor of selection by weight; 0 for none
 */
public record Directive(int iterations, Optional<String> primary, Optional<String> review, List<String> voters,
                        int minWeight) {

    /** No directive: every knob at its default. */
    public static final Directive NONE = new Directive(0, Optional.empty(), Optional.empty(), List.of(), 0);

    /** @throws dev.pagantic.core.PaganticException {@code CONFIG_INVALID} for negative numbers, blank or repeated ids */
    public Directive {
        Checks.require(iterations >= 0, "directive iterations must not be negative: ", iterations);
        Checks.notNull(primary, "primary");
        Checks.notNull(review, "review");
        primary.ifPresent(id -> Checks.text(id, "primary engine id"));
        review.ifPresent(id -> Checks.text(id, "review engine id"));
        voters = Checks.list(voters, "voters");
        Set<String> seen = new HashSet<>();
        for (String id : voters) {
            Checks.text(id, "voter id");
            Checks.require(seen.add(id), "voter '" + id + "' is named twice");
        }
        Checks.require(minWeight >= 0, "directive min_weight must not be negative: ", minWeight);
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
            this.voters = Checks.notNull(ids, "voters");
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

        /** The directive. */
        public Directive build() {
            return new Directive(iterations, Optional.ofNullable(primary), Optional.ofNullable(review), voters,
                    minWeight);
        }
    }
}
