/**
 * Layer 03, knowledge retrieval: finding the pieces of text relevant to a query and rendering them as the context
 * messages that orchestrate injects into an inference request.
 *
 * <h2>Domain concepts</h2>
 * <ul>
 *   <li>{@link dev.pagantic.core.Candidate}: a piece of content with its source (for provenance), a score and
 *       metadata: core's one candidate type, what retrievers index and return (a "chunk" of a document).</li>
 *   <li>{@link dev.pagantic.context.Retriever}: {@code retrieve(ctx, query, limit)}, the best chunks first. Two real
 *       implementations:
 *       <ul>
 *         <li>{@link dev.pagantic.context.Bm25Retriever}: keyword search, Okapi BM25 over an in-memory chunk set
 *             (tokenisation by a {@link dev.pagantic.context.Tokenizer}, IDF {@code ln(1 + (N - n + 0.5)/(n + 0.5))},
 *             exact length normalisation, {@code k1 = 1.2} and {@code b = 0.75} by default);</li>
 *         <li>{@link dev.pagantic.context.EmbeddingRetriever}: vector search, cosine top-k over embeddings from an
 *             {@link dev.pagantic.context.Embedder}, a port that an engine able to embed (llama.cpp) satisfies by
 *             method reference.</li>
 *       </ul></li>
 *   <li>{@link dev.pagantic.context.DocumentSplitter}: cuts long documents into chunks at paragraph or sentence
 *       boundaries, with overlap, sized in characters or in tokens (an inference
 *       {@link dev.pagantic.inference.TokenCounter}).</li>
 *   <li>{@link dev.pagantic.context.ContextBuilder}: retrieves up to {@code maxChunks} chunks and renders the
 *       specification's system message, {@code "Relevant context:\n\n[1] (source): content"}, one entry per line.</li>
 * </ul>
 *
 * <h2>Design decisions</h2>
 * <ul>
 *   <li><b>BM25 written here, not Lucene.</b> Lucene stores a document's length in one lossy byte, so its scores
 *       differ from the formula; ours are exact (the tests compare them with hand-computed values to 1e-9), and an
 *       in-memory index of chunks needs no more than a few dozen lines. The rerank layer scores candidates with the
 *       same formula in its own copy (band layers may not share code); the two are kept small and identical by
 *       intent.</li>
 *   <li><b>Ties are deterministic.</b> Equal scores keep the order in which chunks were added; only chunks with a
 *       positive BM25 score (at least one query term) are returned; each distinct query term counts once.</li>
 *   <li><b>No context, no message.</b> When nothing is retrieved, {@code ContextBuilder.build} returns an empty list
 *       instead of a heading with no entries.</li>
 *   <li><b>Immutable after build.</b> Retrievers build their index once in {@code build()} and are thread-safe;
 *       every builder validates at {@code build()} and refuses bad settings with {@code CONFIG_INVALID}.</li>
 * </ul>
 *
 * <h2>Contract</h2>
 * Part of the flat band: depends on core and inference only, never on another band layer or on orchestrate.
 * Orchestrate consumes retrieval through its own {@code ContextProvider} port
 * ({@code List<Message> build(CallContext, String)}), to which a builder is bound by method reference:
 * {@code ContextProvider provider = contextBuilder::build;}.
 * The agent loop injects this context ephemerally: it goes into the inference request for the current turn and is
 * never stored in the conversation history. A plan passes the retrieved candidates on to later steps as they
 * are. Retrieval honours the {@link dev.pagantic.core.CallContext}'s cancellation and deadline
 * ({@code CANCELLED_SIGNAL}, {@code CANCELLED_TIMEOUT}) before and during the work.
 */
@NullMarked
package dev.pagantic.context;

import org.jspecify.annotations.NullMarked;
