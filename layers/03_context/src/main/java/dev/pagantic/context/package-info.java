/**
 * Layer 03, knowledge retrieval (planned; not yet implemented).
 *
 * <h2>Domain concepts</h2>
 * <ul>
 *   <li>{@code Retriever}: finds the chunks relevant to a query, up to a limit (keyword, vector or any other
 *       strategy).</li>
 *   <li>{@code Chunk}: a piece of retrieved content with its source, for provenance.</li>
 *   <li>{@code ContextBuilder}: retrieves chunks for a query and assembles them into context messages (a system
 *       message listing each chunk with its source).</li>
 * </ul>
 *
 * <h2>Contract</h2>
 * Part of the flat band: depends on core and inference only, never on another band layer or on orchestrate.
 * Orchestrate consumes retrieval through its own {@code ContextProvider} port (a query in, context messages out), to
 * which a builder is bound by method reference, for example {@code ContextProvider provider = contextBuilder::build;}.
 * The agent loop injects this context ephemerally: it goes into the inference request for the current turn and is
 * never stored in the conversation history. When a plan passes chunks to later steps, the call site converts them to
 * orchestrate's IR types. Retrieval honours the {@link dev.pagantic.core.CallContext}'s cancellation and deadline.
 */
package dev.pagantic.context;
