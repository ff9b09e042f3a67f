package dev.pagantic.inference;

import dev.pagantic.core.CallContext;

/**
 * Computes embeddings: a fixed-length vector per text, for similarity search. Engines that can embed implement it
 * next to {@link Engine} (and declare {@link Capability#EMBEDDINGS}); the context layer's {@code Embedder} binds to it
 * by method reference ({@code Embedder embedder = engine::embed;}), so retrieval code never names an engine.
 */
public interface EmbeddingModel {

    /**
     * The embedding of the text.
     *
     * @return a vector of {@link #dimension()} components
     * @throws dev.pagantic.core.PaganticException {@code CANCELLED_*} when the context is done,
     *                                             {@code INFERENCE_CONTEXT_EXCEEDED} when the text does not fit the
     *                                             model's context, {@code INFERENCE_*} for a backend failure
     */
    float[] embed(CallContext context, String text);

    /** The embedding of the text, in a {@linkplain CallContext#background() background context}. */
    default float[] embed(String text) {
        return embed(CallContext.background(), text);
    }

    /** The number of components of every embedding. */
    int dimension();
}
