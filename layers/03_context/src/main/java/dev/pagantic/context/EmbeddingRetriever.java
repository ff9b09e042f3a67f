package dev.pagantic.context;

import dev.pagantic.core.CallContext;
import dev.pagantic.core.Candidate;
import dev.pagantic.core.ErrorCode;
import dev.pagantic.core.PaganticException;
import java.util.ArrayList;
import java.util.Collection;
import java.util.List;
import java.util.Objects;
import org.jspecify.annotations.Nullable;

/**
 * A vector retriever: embeds the query and returns the chunks whose embeddings are closest to it by cosine
 * similarity (the top {@code limit}, best first; equal similarities keep the order in which chunks were added).
 *
 * <p>Chunks are embedded once, when {@link Builder#build()} runs, unless a precomputed vector is given with
 * {@link Builder#add(Candidate, float[])}. Every vector, the query's included, must have the index's dimension and
 * finite
 * components; a chunk or query whose vector is all zeros has similarity 0 to everything. A returned chunk's
 * {@link Candidate#score()} is its cosine similarity, in [-1, 1]. By default every chunk is a candidate; set
 * {@link Builder#minSimilarity(double)} to drop weak matches. The index is immutable after {@code build()}, so one
 * retriever may serve any number of threads.
 *
 * <pre>{@code
 * EmbeddingRetriever retriever = EmbeddingRetriever.builder(engine::embed).addAll(chunks).build();
 * }</pre>
 */
public final class EmbeddingRetriever implements Retriever {

    private static final int CHECK_EVERY = 1024;

    private final Embedder embedder;
    private final List<Candidate> chunks;
    private final float[][] vectors;
    private final double[] norms;
    private final int dimension;
    private final double minSimilarity;

    private EmbeddingRetriever(Builder builder, List<Candidate> chunks, float[][] vectors, int dimension) {
        this.embedder = builder.embedder;
        this.minSimilarity = builder.minSimilarity;
        this.chunks = List.copyOf(chunks);
        this.vectors = vectors;
        this.dimension = dimension;
        this.norms = new double[vectors.length];
        for (int i = 0; i < vectors.length; i++) {
            norms[i] = norm(vectors[i]);
        }
    }

    /** Starts building a retriever that embeds with the given embedder. */
    public static Builder builder(Embedder embedder) {
        return new Builder(embedder);
    }

    @Override
    public List<Candidate> retrieve(CallContext ctx, String query, int limit) {
        Objects.requireNonNull(ctx, "ctx");
        Objects.requireNonNull(query, "query");
        Bm25Retriever.requireLimit(limit);
        ctx.throwIfDone();
        float[] queryVector = checked(embedder.embed(query), dimension, "the query");
        ctx.throwIfDone();
        double queryNorm = norm(queryVector);
        double[] similarities = new double[vectors.length];
        List<Integer> candidates = new ArrayList<>();
        for (int i = 0; i < vectors.length; i++) {
            if ((i + 1) % CHECK_EVERY == 0) {
                ctx.throwIfDone();
            }
            similarities[i] = cosine(queryVector, queryNorm, vectors[i], norms[i]);
            if (similarities[i] >= minSimilarity) {
                candidates.add(i);
            }
        }
        // Stable sort: equal similarities keep insertion order.
        // Adding 0.0 turns -0.0 into 0.0, so that the two compare equal and keep their order.
        candidates.sort((x, y) -> Double.compare(similarities[y] + 0.0, similarities[x] + 0.0));
        List<Candidate> result = new ArrayList<>();
        for (int i = 0; i < candidates.size() && i < limit; i++) {
            int doc = candidates.get(i);
            result.add(chunks.get(doc).withScore(similarities[doc]));
        }
        return List.copyOf(result);
    }

    /** The indexed chunks, in the order they were added. */
    public List<Candidate> chunks() {
        return chunks;
    }

    /** The dimension of the index's vectors (0 for an empty index, which accepts any query dimension). */
    public int dimension() {
        return dimension;
    }

    /**
     * The cosine similarity of two vectors of equal length, in double precision; 0 when either is all zeros.
     *
     * @throws PaganticException {@code CONFIG_INVALID} when the lengths differ
     */
    public static double cosine(float[] a, float[] b) {
        if (a.length != b.length) {
            throw PaganticException.of(ErrorCode.CONFIG_INVALID,
                    "vectors of different dimensions: " + a.length + " and " + b.length);
        }
        return cosine(a, norm(a), b, norm(b));
    }

    private static double cosine(float[] a, double normA, float[] b, double normB) {
        if (normA == 0.0 || normB == 0.0) {
            return 0.0;
        }
        double dot = 0.0;
        for (int i = 0; i < a.length; i++) {
            dot += (double) a[i] * b[i];
        }
        double similarity = dot / (normA * normB);
        return Math.max(-1.0, Math.min(1.0, similarity)); // rounding may step just outside [-1, 1]
    }

    private static double norm(float[] v) {
        double sum = 0.0;
        for (float x : v) {
            sum += (double) x * x;
        }
        return Math.sqrt(sum);
    }

    /** A defensive copy of the vector after checking it; dimension 0 means "any". */
    private static float[] checked(float[] vector, int dimension, String what) {
        if (vector == null || vector.length == 0) {
            throw PaganticException.of(ErrorCode.CONFIG_INVALID, "the embedder returned no vector for " + what);
        }
        if (dimension != 0 && vector.length != dimension) {
            throw PaganticException.builder(ErrorCode.CONFIG_INVALID, "the embedding of " + what + " has dimension "
                            + vector.length + ", the index has " + dimension + " (same embedding model?)")
                    .detail("dimension", vector.length).detail("index_dimension", dimension).build();
        }
        for (float x : vector) {
            if (!Float.isFinite(x)) {
                throw PaganticException.of(ErrorCode.CONFIG_INVALID,
                        "the embedding of " + what + " has a component that is not finite: " + x);
            }
        }
        return vector.clone();
    }

    /** Builds an {@link EmbeddingRetriever}; {@link #build()} embeds the chunks and checks every vector. */
    public static final class Builder {
        private final Embedder embedder;
        private final List<Candidate> chunks = new ArrayList<>();
        private final List<float @Nullable []> given = new ArrayList<>(); // null where the chunk is to be embedded
        private double minSimilarity = -1.0;

        private Builder(Embedder embedder) {
            this.embedder = Objects.requireNonNull(embedder, "embedder");
        }

        /** Adds a chunk, to be embedded by {@link #build()}. */
        public Builder add(Candidate chunk) {
            chunks.add(Objects.requireNonNull(chunk, "chunk"));
            given.add(null);
            return this;
        }

        /** Adds a chunk with its precomputed embedding (copied). */
        public Builder add(Candidate chunk, float[] vector) {
            chunks.add(Objects.requireNonNull(chunk, "chunk"));
            given.add(Objects.requireNonNull(vector, "vector").clone());
            return this;
        }

        /** Adds the chunks, in order, to be embedded by {@link #build()}. */
        public Builder addAll(Collection<Candidate> more) {
            more.forEach(this::add);
            return this;
        }

        /** The least cosine similarity a chunk needs to be returned, in [-1, 1]; -1 (everything) by default. */
        public Builder minSimilarity(double value) {
            this.minSimilarity = value;
            return this;
        }

        /**
         * Embeds the chunks that have no vector yet and builds the index; {@code CONFIG_INVALID} when a vector is
         * empty, not finite or of another dimension than the first, or when the minimum similarity is out of range.
         */
        public EmbeddingRetriever build() {
            if (!(minSimilarity >= -1.0 && minSimilarity <= 1.0)) {
                throw PaganticException.of(ErrorCode.CONFIG_INVALID,
                        "minSimilarity must be between -1 and 1: " + minSimilarity);
            }
            float[][] vectors = new float[chunks.size()][];
            int dimension = 0;
            for (int i = 0; i < chunks.size(); i++) {
                float[] raw = given.get(i) != null ? given.get(i) : embedder.embed(chunks.get(i).content());
                vectors[i] = checked(raw, dimension, "chunk " + i + " (" + chunks.get(i).source() + ")");
                dimension = vectors[i].length;
            }
            return new EmbeddingRetriever(this, chunks, vectors, dimension);
        }
    }
}
