package dev.pagantic.rerank;

import dev.pagantic.core.CallContext;
import dev.pagantic.core.Candidate;
import dev.pagantic.core.ErrorCode;
import dev.pagantic.core.PaganticException;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Set;
import java.util.function.Function;

/**
 * Scores candidates with Okapi BM25, taking the candidate set itself as the corpus: {@code N} is the number of
 * candidates, document frequencies and the average length are counted over them. For the query's distinct terms
 * {@code t}:
 * <pre>
 *   score(d) = sum over t of  IDF(t) * tf(t,d) * (k1 + 1) / (tf(t,d) + k1 * (1 - b + b * |d| / avgdl))
 *   IDF(t)   = ln(1 + (N - n(t) + 0.5) / (n(t) + 0.5))
 * </pre>
 * with exact lengths, in double precision; defaults {@code k1 = 1.2}, {@code b = 0.75}. This is the same formula as the
 * context layer's {@code Bm25Retriever}, written again here on purpose: band layers may not depend on each other, and
 * the shared part is a dozen lines (see the package documentation). Scores are not bounded; wrap the scorer in
 * {@link Scorer#scaledToMax(Scorer)} before mixing it with similarities in {@link Mmr}.
 */
public final class Bm25Scorer implements Scorer {

    /** Default term-frequency saturation. */
    public static final double DEFAULT_K1 = 1.2;
    /** Default length normalisation. */
    public static final double DEFAULT_B = 0.75;

    private final double k1;
    private final double b;
    private final Function<String, ? extends List<String>> tokenizer;

    private Bm25Scorer(Builder builder) {
        this.k1 = builder.k1;
        this.b = builder.b;
        this.tokenizer = builder.tokenizer;
    }

    /** BM25 with the default parameters and tokenisation. */
    public static Bm25Scorer standard() {
        return builder().build();
    }

    /** Starts building a BM25 scorer. */
    public static Builder builder() {
        return new Builder();
    }

    @Override
    public double[] score(CallContext ctx, String query, List<Candidate> candidates) {
        int n = candidates.size();
        double[] scores = new double[n];
        if (n == 0) {
            return scores;
        }
        Set<String> queryTerms = new LinkedHashSet<>(tokenizer.apply(query));
        int[] lengths = new int[n];
        List<Map<String, Integer>> frequencies = new ArrayList<>(n);
        Map<String, Integer> documentFrequency = new HashMap<>();
        long total = 0;
        for (int i = 0; i < n; i++) {
            ctx.throwIfDone();
            List<String> terms = tokenizer.apply(candidates.get(i).content());
            lengths[i] = terms.size();
            total += terms.size();
            Map<String, Integer> tf = new HashMap<>();
            for (String term : terms) {
                if (queryTerms.contains(term)) {
                    tf.merge(term, 1, Integer::sum);
                }
            }
            tf.keySet().forEach(term -> documentFrequency.merge(term, 1, Integer::sum));
            frequencies.add(tf);
        }
        double averageLength = (double) total / n;
        for (String term : queryTerms) {
            Integer df = documentFrequency.get(term);
            if (df == null) {
                continue;
            }
            double idf = Math.log(1.0 + (n - df + 0.5) / (df + 0.5));
            for (int i = 0; i < n; i++) {
                Integer tf = frequencies.get(i).get(term);
                if (tf != null) {
                    double norm = k1 * (1.0 - b + b * lengths[i] / averageLength);
                    scores[i] += idf * tf * (k1 + 1.0) / (tf + norm);
                }
            }
        }
        return scores;
    }

    /** The term-frequency saturation parameter. */
    public double k1() {
        return k1;
    }

    /** The length normalisation parameter. */
    public double b() {
        return b;
    }

    /** Builds a {@link Bm25Scorer}; {@link #build()} checks the parameters ({@code CONFIG_INVALID}). */
    public static final class Builder {
        private double k1 = DEFAULT_K1;
        private double b = DEFAULT_B;
        private Function<String, ? extends List<String>> tokenizer = Terms.standard();

        private Builder() {
        }

        /** Term-frequency saturation, finite and at least 0; {@value Bm25Scorer#DEFAULT_K1} by default. */
        public Builder k1(double value) {
            this.k1 = value;
            return this;
        }

        /** Length normalisation, from 0 to 1; {@value Bm25Scorer#DEFAULT_B} by default. */
        public Builder b(double value) {
            this.b = value;
            return this;
        }

        /** Default tokenisation, dropping the given stop words (compared in lower case). */
        public Builder stopWords(Set<String> stopWords) {
            this.tokenizer = Terms.withStopWords(Objects.requireNonNull(stopWords, "stopWords"));
            return this;
        }

        /** Any tokenizer, for candidates and query alike (the context layer's plugs in as {@code t::tokenize}). */
        public Builder tokenizer(Function<String, ? extends List<String>> value) {
            this.tokenizer = Objects.requireNonNull(value, "tokenizer");
            return this;
        }

        /** The scorer; {@code CONFIG_INVALID} when k1 or b is out of range. */
        public Bm25Scorer build() {
            if (!(k1 >= 0.0) || Double.isInfinite(k1)) {
                throw PaganticException.builder(ErrorCode.CONFIG_INVALID, "BM25 k1 must be finite and >= 0: " + k1)
                        .detail("k1", k1).build();
            }
            if (!(b >= 0.0 && b <= 1.0)) {
                throw PaganticException.builder(ErrorCode.CONFIG_INVALID, "BM25 b must be between 0 and 1: " + b)
                        .detail("b", b).build();
            }
            return new Bm25Scorer(this);
        }
    }
}
