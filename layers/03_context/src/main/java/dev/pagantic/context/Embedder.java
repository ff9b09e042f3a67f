package dev.pagantic.context;

/**
 * Turns text into an embedding vector, for {@link EmbeddingRetriever}. Engines that can embed (the llama.cpp engine)
 * provide a method of this shape, which plugs in by method reference without this layer knowing the engine, and so does
 * any {@code Function<String, float[]>} ({@code function::apply}).
 *
 * <p>The same embedder must embed the indexed chunks and the queries: vectors from different models cannot be compared.
 */
@FunctionalInterface
public interface Embedder {

    /** The embedding of the text: a non-empty vector of finite numbers, always of the same dimension. */
    float[] embed(String text);
}
