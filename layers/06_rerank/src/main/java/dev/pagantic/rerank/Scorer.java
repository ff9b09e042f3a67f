package dev.pagantic.rerank;

import dev.pagantic.core.CallContext;
import dev.pagantic.core.Candidate;
import java.util.List;
import java.util.Objects;

/**
 * Computes the relevance of each candidate to a query; the pluggable part of a {@link Reranker}. A scorer sees the
 * whole candidate list at once, so that it can use statistics of the set ({@link Bm25Scorer}) or batch a model call;
 * a scorer that judges one candidate at a time is written with {@link #perCandidate(CandidateScorer)}.
 *
 * <p>Implementations here: {@link QueryTermOverlapScorer}, {@link Bm25Scorer}, {@link ModelScorer} and
 * {@link #existing()}. They honour the call context's cancellation and deadline between units of work.
 */
@FunctionalInterface
public interface Scorer {

    /**
     * The score of each candidate, in the candidates' order: an array of the same length, no NaN, higher is better.
     */
    double[] score(CallContext ctx, String query, List<Candidate> candidates);

    /** Keeps the scores the candidates already have (from a retriever, say): rerank by filtering and ordering only. */
    static Scorer existing() {
        return (ctx, query, candidates) -> candidates.stream().mapToDouble(Candidate::score).toArray();
    }

    /** A scorer that judges each candidate on its own, checking the call context before each one. */
    static Scorer perCandidate(CandidateScorer scorer) {
        Objects.requireNonNull(scorer, "scorer");
        return (ctx, query, candidates) -> {
            double[] scores = new double[candidates.size()];
            for (int i = 0; i < scores.length; i++) {
                ctx.throwIfDone();
                scores[i] = scorer.score(query, candidates.get(i));
            }
            return scores;
        };
    }

    /**
     * The given scorer's scores divided by their largest absolute value (when it is not zero), so that they lie in
     * [-1, 1] and keep their ratios. Useful before {@link Mmr}, which mixes relevance with similarities in [0, 1].
     */
    static Scorer scaledToMax(Scorer scorer) {
        Objects.requireNonNull(scorer, "scorer");
        return (ctx, query, candidates) -> {
            double[] scores = scorer.score(ctx, query, candidates).clone();
            double max = 0.0;
            for (double score : scores) {
                max = Math.max(max, Math.abs(score));
            }
            if (max > 0.0 && Double.isFinite(max)) {
                for (int i = 0; i < scores.length; i++) {
                    scores[i] /= max;
                }
            }
            return scores;
        };
    }

    /** Judges one candidate for a query, for {@link #perCandidate(CandidateScorer)}. */
    @FunctionalInterface
    interface CandidateScorer {
        /** The candidate's relevance to the query, higher is better; never NaN. */
        double score(String query, Candidate candidate);
    }
}
