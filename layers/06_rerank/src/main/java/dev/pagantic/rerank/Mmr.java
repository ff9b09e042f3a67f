package dev.pagantic.rerank;

import dev.pagantic.core.CallContext;
import dev.pagantic.core.Candidate;
import dev.pagantic.core.ErrorCode;
import dev.pagantic.core.PaganticException;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;

/**
 * Maximal marginal relevance: picks candidates one at a time, each time the one that best balances relevance against
 * similarity to those already picked, so that near-duplicates of a picked candidate give way to something new:
 * <pre>
 *   next = argmax over unpicked c of  lambda * relevance(c) - (1 - lambda) * max over picked p of similarity(c, p)
 * </pre>
 * Relevance is the candidate's {@link Candidate#score()} (the reranker's scorer has set it); the similarity term is 0
 * for the first pick, so the most relevant candidate always comes first. {@code lambda = 1} is pure relevance,
 * {@code lambda = 0} pure diversity; 0.5 to 0.7 is usual. Equal values go to the candidate earlier in the input. Both
 * terms should be on one scale: use a relevance in [0, 1] ({@link QueryTermOverlapScorer}, a cosine, a probability) or
 * {@link Scorer#scaledToMax(Scorer)}.
 *
 * @param lambda     the weight of relevance against diversity, in [0, 1]
 * @param similarity how alike two candidates are
 */
public record Mmr(double lambda, Similarity similarity) {

    /** Default weight of relevance. */
    public static final double DEFAULT_LAMBDA = 0.5;

    /** Checks the lambda ({@code CONFIG_INVALID} outside [0, 1]) and the similarity. */
    public Mmr {
        if (!(lambda >= 0.0 && lambda <= 1.0)) {
            throw PaganticException.builder(ErrorCode.CONFIG_INVALID, "MMR lambda must be between 0 and 1: " + lambda)
                    .detail("lambda", lambda).build();
        }
        Objects.requireNonNull(similarity, "similarity");
    }

    /** MMR with the given lambda and {@link Similarity#jaccard()} similarity. */
    public static Mmr of(double lambda) {
        return new Mmr(lambda, Similarity.jaccard());
    }

    /** MMR with the given lambda and similarity. */
    public static Mmr of(double lambda, Similarity similarity) {
        return new Mmr(lambda, similarity);
    }

    /**
     * Up to {@code k} candidates in the order MMR picks them; each keeps its score (its relevance), so the result is
     * in pick order, not score order. Checks the call context before each pick.
     */
    public List<Candidate> select(CallContext ctx, List<Candidate> candidates, int k) {
        Objects.requireNonNull(ctx, "ctx");
        List<Candidate> remaining = new ArrayList<>(candidates);
        double[] maxSimilarity = new double[remaining.size()];
        boolean[] picked = new boolean[remaining.size()];
        List<Candidate> result = new ArrayList<>();
        int limit = Math.min(k, remaining.size());
        while (result.size() < limit) {
            ctx.throwIfDone();
            int best = -1;
            double bestValue = Double.NEGATIVE_INFINITY;
            for (int i = 0; i < remaining.size(); i++) {
                if (picked[i]) {
                    continue;
                }
                double penalty = result.isEmpty() ? 0.0 : maxSimilarity[i];
                double value = lambda * remaining.get(i).score() - (1.0 - lambda) * penalty;
                if (best < 0 || value > bestValue) {
                    best = i;
                    bestValue = value;
                }
            }
            picked[best] = true;
            Candidate chosen = remaining.get(best);
            result.add(chosen);
            for (int i = 0; i < remaining.size(); i++) {
                if (!picked[i]) {
                    double s = similarity.similarity(remaining.get(i), chosen);
                    if (Double.isNaN(s)) {
                        throw PaganticException.of(ErrorCode.CONFIG_INVALID, "the MMR similarity returned NaN");
                    }
                    maxSimilarity[i] = result.size() == 1 ? s : Math.max(maxSimilarity[i], s);
                }
            }
        }
        return List.copyOf(result);
    }
}
