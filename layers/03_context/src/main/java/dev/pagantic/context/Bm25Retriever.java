package dev.pagantic.context;

import dev.pagantic.core.CallContext;
import dev.pagantic.core.Candidate;
import dev.pagantic.core.ErrorCode;
import dev.pagantic.core.PaganticException;
import java.util.ArrayList;
import java.util.Collection;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Objects;

/**
 * A keyword retriever: Okapi BM25 over an in-memory set of chunks, computed exactly in double precision.
 *
 * <p>For a query with distinct terms {@code t} (each counted once, however often it is repeated) the score of chunk
 * {@code d} is
 * <pre>
 *   score(d) = sum over t of  IDF(t) * tf(t,d) * (k1 + 1) / (tf(t,d) + k1 * (1 - b + b * |d| / avgdl))
 *   IDF(t)   = ln(1 + (N - n(t) + 0.5) / (n(t) + 0.5))
 * </pre>
 * where {@code tf(t,d)} is how often {@code t} occurs in {@code d}, {@code |d|} is {@code d}'s length in terms,
 * {@code avgdl} the mean length over the corpus, {@code N} the number of chunks and {@code n(t)} how many contain
 * {@code t}. This IDF (the Lucene variant) is never negative, so a term in most chunks still counts a little. Lengths
 * are exact: unlike Lucene, which stores a document's length in one lossy byte, nothing is rounded, so scores equal
 * the formula to the last bits. Defaults {@code k1 = 1.2}, {@code b = 0.75}.
 *
 * <p>Only chunks that contain at least one query term are returned; equal scores keep the order in which chunks were
 * added. The index is built once by {@link Builder#build()} and is immutable afterwards, so one retriever may serve
 * any number of threads.
 *
 * <pre>{@code
 * Bm25Retriever retriever = Bm25Retriever.builder()
 *         .tokenizer(Tokenizer.withStopWords(Tokenizer.englishStopWords()))
 *         .addAll(DocumentSplitter.builder().maxSize(800).overlap(100).build().split("guide.md", text))
 *         .build();
 * List<Candidate> top = retriever.retrieve(ctx, "how do interfaces work", 5);
 * }</pre>
 */
public final class Bm25Retriever implements Retriever {

    /** Default term-frequency saturation. */
    public static final double DEFAULT_K1 = 1.2;
    /** Default length normalisation (0 = none, 1 = full). */
    public static final double DEFAULT_B = 0.75;

    /** How many chunks are scored between two checks of the call context. */
    private static final int CHECK_EVERY = 1024;

    private final List<Candidate> chunks;
    private final int[] lengths;
    private final double averageLength;
    /** term -> postings: chunk indexes in ascending order and the term's frequency in each. */
    private final Map<String, Postings> index;
    private final Tokenizer tokenizer;
    private final double k1;
    private final double b;

    private Bm25Retriever(Builder builder) {
        this.chunks = List.copyOf(builder.chunks);
        this.tokenizer = builder.tokenizer;
        this.k1 = builder.k1;
        this.b = builder.b;
        this.lengths = new int[chunks.size()];
        Map<String, PostingsBuilder> building = new HashMap<>();
        long total = 0;
        for (int i = 0; i < chunks.size(); i++) {
            List<String> terms = tokenizer.tokenize(chunks.get(i).content());
            lengths[i] = terms.size();
            total += terms.size();
            Map<String, Integer> frequencies = new LinkedHashMap<>();
            for (String term : terms) {
                frequencies.merge(term, 1, Integer::sum);
            }
            int doc = i;
            frequencies.forEach((term, tf) -> building.computeIfAbsent(term, t -> new PostingsBuilder()).add(doc, tf));
        }
        this.averageLength = chunks.isEmpty() ? 0.0 : (double) total / chunks.size();
        Map<String, Postings> frozen = new HashMap<>();
        building.forEach((term, postings) -> frozen.put(term, postings.freeze()));
        this.index = Map.copyOf(frozen);
    }

    /** Starts building a retriever. */
    public static Builder builder() {
        return new Builder();
    }

    /** A retriever over the given chunks with the default tokenizer and parameters. */
    public static Bm25Retriever of(Collection<Candidate> chunks) {
        return builder().addAll(chunks).build();
    }

    @Override
    public List<Candidate> retrieve(CallContext ctx, String query, int limit) {
        Objects.requireNonNull(ctx, "ctx");
        Objects.requireNonNull(query, "query");
        requireLimit(limit);
        ctx.throwIfDone();
        double[] scores = scores(ctx, query);
        List<Integer> matching = new ArrayList<>();
        for (int i = 0; i < scores.length; i++) {
            if (scores[i] > 0.0) {
                matching.add(i);
            }
        }
        // Stable: equal scores keep insertion order.
        matching.sort((x, y) -> Double.compare(scores[y], scores[x]));
        List<Candidate> result = new ArrayList<>(Math.min(limit, matching.size()));
        for (int i = 0; i < matching.size() && i < limit; i++) {
            int doc = matching.get(i);
            result.add(chunks.get(doc).withScore(scores[doc]));
        }
        ctx.throwIfDone();
        return List.copyOf(result);
    }

    /**
     * The BM25 score of every indexed chunk for the query, in the order the chunks were added (zero for a chunk that
     * contains no query term).
     */
    public List<Double> scoreAll(String query) {
        double[] scores = scores(CallContext.background(), query);
        List<Double> result = new ArrayList<>(scores.length);
        for (double score : scores) {
            result.add(score);
        }
        return List.copyOf(result);
    }

    /** The indexed chunks, in the order they were added. */
    public List<Candidate> chunks() {
        return chunks;
    }

    /** The term-frequency saturation parameter. */
    public double k1() {
        return k1;
    }

    /** The length normalisation parameter. */
    public double b() {
        return b;
    }

    private double[] scores(CallContext ctx, String query) {
        int n = chunks.size();
        double[] scores = new double[n];
        int scored = 0;
        for (String term : new LinkedHashSet<>(tokenizer.tokenize(query))) {
            Postings postings = index.get(term);
            if (postings == null) {
                continue;
            }
            int df = postings.docs.length;
            double idf = Math.log(1.0 + (n - df + 0.5) / (df + 0.5));
            for (int p = 0; p < df; p++) {
                int doc = postings.docs[p];
                double tf = postings.frequencies[p];
                double norm = k1 * (1.0 - b + b * lengths[doc] / averageLength);
                scores[doc] += idf * tf * (k1 + 1.0) / (tf + norm);
                if (++scored % CHECK_EVERY == 0) {
                    ctx.throwIfDone();
                }
            }
        }
        return scores;
    }

    static void requireLimit(int limit) {
        if (limit < 1) {
            throw PaganticException.builder(ErrorCode.CONFIG_INVALID, "retrieval limit must be at least 1: " + limit)
                    .detail("limit", limit).build();
        }
    }

    private static final class Postings {
        private final int[] docs;
        private final int[] frequencies;

        private Postings(int[] docs, int[] frequencies) {
            this.docs = docs;
            this.frequencies = frequencies;
        }
    }

    private static final class PostingsBuilder {
        private final List<int[]> entries = new ArrayList<>();

        void add(int doc, int tf) {
            entries.add(new int[] {doc, tf});
        }

        Postings freeze() {
            int[] docs = new int[entries.size()];
            int[] frequencies = new int[entries.size()];
            for (int i = 0; i < entries.size(); i++) {
                docs[i] = entries.get(i)[0];
                frequencies[i] = entries.get(i)[1];
            }
            return new Postings(docs, frequencies);
        }
    }

    /** Builds a {@link Bm25Retriever}; parameters are checked by {@link #build()} ({@code CONFIG_INVALID}). */
    public static final class Builder {
        private final List<Candidate> chunks = new ArrayList<>();
        private Tokenizer tokenizer = Tokenizer.standard();
        private double k1 = DEFAULT_K1;
        private double b = DEFAULT_B;

        private Builder() {
        }

        /** Adds one chunk to the index. */
        public Builder add(Candidate chunk) {
            chunks.add(Objects.requireNonNull(chunk, "chunk"));
            return this;
        }

        /** Adds one chunk with the given content and source. */
        public Builder add(String source, String content) {
            return add(Candidate.of(content, source));
        }

        /** Adds the chunks, in order. */
        public Builder addAll(Collection<Candidate> more) {
            more.forEach(this::add);
            return this;
        }

        /** The tokenizer for both chunks and queries; {@link Tokenizer#standard()} by default. */
        public Builder tokenizer(Tokenizer value) {
            this.tokenizer = Objects.requireNonNull(value, "tokenizer");
            return this;
        }

        /** Term-frequency saturation, finite and at least 0; {@value #DEFAULT_K1} by default. */
        public Builder k1(double value) {
            this.k1 = value;
            return this;
        }

        /** Length normalisation, from 0 (none) to 1 (full); {@value #DEFAULT_B} by default. */
        public Builder b(double value) {
            this.b = value;
            return this;
        }

        /** Indexes the chunks; {@code CONFIG_INVALID} when k1 or b is out of range. */
        public Bm25Retriever build() {
            if (!(k1 >= 0.0) || Double.isInfinite(k1)) {
                throw PaganticException.builder(ErrorCode.CONFIG_INVALID, "BM25 k1 must be finite and >= 0: " + k1)
                        .detail("k1", k1).build();
            }
            if (!(b >= 0.0 && b <= 1.0)) {
                throw PaganticException.builder(ErrorCode.CONFIG_INVALID, "BM25 b must be between 0 and 1: " + b)
                        .detail("b", b).build();
            }
            return new Bm25Retriever(this);
        }
    }
}
