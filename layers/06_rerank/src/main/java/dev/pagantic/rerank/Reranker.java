package dev.pagantic.rerank;

import dev.pagantic.core.CallContext;
import dev.pagantic.core.Candidate;
import dev.pagantic.core.ErrorCode;
import dev.pagantic.core.PaganticException;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import java.util.Optional;
import org.jspecify.annotations.Nullable;

/**
 * Scores, filters, orders and cuts a list of candidates for a query:
 * <ol>
 *   <li>the {@link Scorer} gives each candidate its score (by default the candidates keep the scores they have);</li>
 *   <li>candidates scoring below the minimum score, if one is set, are dropped (a score equal to it stays);</li>
 *   <li>the rest are sorted by score, highest first, with a stable sort: equal scores keep their input order
 *       ({@code -0.0} and {@code 0.0} count as equal);</li>
 *   <li>with {@link Builder#diversity(Mmr)}, maximal marginal relevance picks from that order (see {@link Mmr});</li>
 *   <li>the first {@code topK} are returned (all of them when no top-k is set).</li>
 * </ol>
 * Returned candidates carry their new scores. A scorer that returns the wrong number of scores or a NaN is refused
 * with {@code CONFIG_INVALID}. The call context is checked before scoring and after (and by the scorers between
 * units of work). A reranker is immutable and thread-safe if its scorer is.
 *
 * <p>Orchestrate's {@code CandidateReranker} port takes a query and core's {@link Candidate}s, so a reranker binds to
 * it with a lambda and nothing is converted:
 * <pre>{@code
 * Reranker reranker = Reranker.builder().scorer(Bm25Scorer.standard()).minScore(0.1).topK(5).build();
 * CandidateReranker port = (ctx, input) -> reranker.rerank(ctx, input.query(), input.candidates());
 * }</pre>
 */
public final class Reranker {

    private final Scorer scorer;
    private final @Nullable Double minScore; // null: no filter
    private final int topK; // 0: all
    private final @Nullable Mmr diversity; // null: none

    private Reranker(Builder builder) {
        this.scorer = builder.scorer;
        this.minScore = builder.minScore;
        this.topK = builder.topK == null ? 0 : builder.topK;
        this.diversity = builder.diversity;
    }

    /** Starts building a reranker. */
    public static Builder builder() {
        return new Builder();
    }

    /** The candidates for the query, scored, filtered, ordered and cut as described above. */
    public List<Candidate> rerank(CallContext ctx, String query, List<Candidate> candidates) {
        Objects.requireNonNull(ctx, "ctx");
        Objects.requireNonNull(query, "query");
        List<Candidate> input = List.copyOf(candidates);
        ctx.throwIfDone();
        double[] scores = scorer.score(ctx, query, input);
        ctx.throwIfDone();
        if (scores == null || scores.length != input.size()) {
            throw PaganticException.builder(ErrorCode.CONFIG_INVALID, "the scorer returned "
                            + (scores == null ? "no scores" : scores.length + " scores") + " for " + input.size()
                            + " candidates").detail("candidates", input.size()).build();
        }
        List<Candidate> kept = new ArrayList<>(input.size());
        for (int i = 0; i < scores.length; i++) {
            double score = scores[i];
            if (Double.isNaN(score)) {
                throw PaganticException.builder(ErrorCode.CONFIG_INVALID, "the scorer returned NaN for candidate " + i)
                        .detail("candidate", i).build();
            }
            if (minScore == null || score >= minScore) {
                kept.add(input.get(i).withScore(score));
            }
        }
        kept.sort(Reranker::byScoreDescending); // List.sort is stable
        int limit = topK == 0 ? kept.size() : Math.min(topK, kept.size());
        if (diversity != null) {
            return diversity.select(ctx, kept, limit);
        }
        return List.copyOf(kept.subList(0, limit));
    }

    /** {@link #rerank(CallContext, String, List)} under a background context. */
    public List<Candidate> rerank(String query, List<Candidate> candidates) {
        return rerank(CallContext.background(), query, candidates);
    }

    /** The scorer. */
    public Scorer scorer() {
        return scorer;
    }

    /** The minimum score a candidate needs to stay, if any. */
    public Optional<Double> minScore() {
        return Optional.ofNullable(minScore);
    }

    /** The most candidates returned, if limited. */
    public Optional<Integer> topK() {
        return topK == 0 ? Optional.empty() : Optional.of(topK);
    }

    /** The diversity step, if any. */
    public Optional<Mmr> diversity() {
        return Optional.ofNullable(diversity);
    }

    /** Descending by score, with -0.0 and 0.0 equal (unlike {@link Double#compare}). */
    private static int byScoreDescending(Candidate a, Candidate b) {
        return a.score() > b.score() ? -1 : a.score() < b.score() ? 1 : 0;
    }

    /** Builds a {@link Reranker}; {@link #build()} checks the settings ({@code CONFIG_INVALID}). */
    public static final class Builder {
        private Scorer scorer = Scorer.existing();
        private @Nullable Double minScore;
        private @Nullable Integer topK;
        private @Nullable Mmr diversity;

        private Builder() {
        }

        /** How candidates are scored; by default they keep their scores ({@link Scorer#existing()}). */
        public Builder scorer(Scorer value) {
            this.scorer = Objects.requireNonNull(value, "scorer");
            return this;
        }

        /** Drops candidates scoring below this (a finite number); no filter by default. */
        public Builder minScore(double value) {
            this.minScore = value;
            return this;
        }

        /** Returns at most this many candidates (at least 1); all by default. */
        public Builder topK(int value) {
            this.topK = value;
            return this;
        }

        /** Picks the result with maximal marginal relevance; none by default. */
        public Builder diversity(Mmr value) {
            this.diversity = Objects.requireNonNull(value, "diversity");
            return this;
        }

        /** The reranker; {@code CONFIG_INVALID} for a top-k below 1 or a minimum score that is not finite. */
        public Reranker build() {
            if (topK != null && topK < 1) {
                throw PaganticException.builder(ErrorCode.CONFIG_INVALID, "topK must be at least 1: " + topK)
                        .detail("topK", topK).build();
            }
            if (minScore != null && !Double.isFinite(minScore)) {
                throw PaganticException.of(ErrorCode.CONFIG_INVALID, "minScore must be a finite number: " + minScore);
            }
            return new Reranker(this);
        }
    }
}
