package dev.pagantic.rerank;

import dev.pagantic.core.CallContext;
import dev.pagantic.core.Candidate;
import java.util.HashSet;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Objects;
import java.util.Set;
import java.util.function.Function;

/**
 * Scores a candidate by the share of the query's distinct terms that it contains: {@code |Q ∩ D| / |Q|}, in [0, 1]
 * (0 for a query without terms). Cheap, explainable, and on the same scale as similarities, which makes it a natural
 * relevance for {@link Mmr}. Terms come from the default tokenisation (lower-case, split on non-letters/digits,
 * optional stop words) or any tokenizer function, such as the context layer's ({@code tokenizer::tokenize}).
 */
public final class QueryTermOverlapScorer implements Scorer {

    private final Function<String, ? extends List<String>> tokenizer;

    private QueryTermOverlapScorer(Function<String, ? extends List<String>> tokenizer) {
        this.tokenizer = tokenizer;
    }

    /** Overlap with the default tokenisation and no stop words. */
    public static QueryTermOverlapScorer standard() {
        return new QueryTermOverlapScorer(Terms.standard());
    }

    /** Overlap with the default tokenisation, ignoring the given stop words. */
    public static QueryTermOverlapScorer withStopWords(Set<String> stopWords) {
        return new QueryTermOverlapScorer(Terms.withStopWords(Objects.requireNonNull(stopWords, "stopWords")));
    }

    /** Overlap with the given tokenizer. */
    public static QueryTermOverlapScorer withTokenizer(Function<String, ? extends List<String>> tokenizer) {
        return new QueryTermOverlapScorer(Objects.requireNonNull(tokenizer, "tokenizer"));
    }

    @Override
    public double[] score(CallContext ctx, String query, List<Candidate> candidates) {
        Set<String> queryTerms = new LinkedHashSet<>(tokenizer.apply(query));
        double[] scores = new double[candidates.size()];
        if (queryTerms.isEmpty()) {
            return scores;
        }
        for (int i = 0; i < scores.length; i++) {
            ctx.throwIfDone();
            Set<String> terms = new HashSet<>(tokenizer.apply(candidates.get(i).content()));
            int shared = 0;
            for (String term : queryTerms) {
                if (terms.contains(term)) {
                    shared++;
                }
            }
            scores[i] = (double) shared / queryTerms.size();
        }
        return scores;
    }
}
