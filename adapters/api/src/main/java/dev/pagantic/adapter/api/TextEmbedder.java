package dev.pagantic.adapter.api;

import dev.pagantic.core.CallContext;

/**
 * What computes the server's {@code /v1/embeddings}: the embedding of one text. An engine that embeds plugs in by
 * method reference ({@code ApiServer.builder().embeddings(llamaEngine::embed)}), so the server names no engine.
 */
@FunctionalInterface
public interface TextEmbedder {

    /**
     * The embedding of the text.
     *
     * @throws dev.pagantic.core.PaganticException {@code CANCELLED_*} when the context is done,
     *                                             {@code INFERENCE_CONTEXT_EXCEEDED} for a text beyond the model's
     *                                             context, {@code INFERENCE_*} for a backend failure
     */
    float[] embed(CallContext context, String text);
}
