/**
 * Layer 06, candidate scoring and reranking (planned; not yet implemented).
 *
 * <h2>Domain concepts</h2>
 * <ul>
 *   <li>{@code Candidate}: a piece of content with a score, a source and metadata.</li>
 *   <li>{@code Reranker}: orders and filters candidates for a query using one or more scorers.</li>
 *   <li>Scorers: compute a candidate's relevance (lexical overlap, embedding similarity, a model's judgement). What a
 *       score means depends on who produced it.</li>
 * </ul>
 *
 * <h2>Contract</h2>
 * Part of the flat band: depends on core and inference only, never on another band layer or on orchestrate.
 * Orchestrate declares its own {@code CandidateReranker} port and its own mirrored {@code RerankCandidate} type with
 * the same fields as this layer's candidate (content, score, source, metadata); the call site converts between the
 * two and binds a reranker by method reference or lambda, so neither layer imports the other.
 */
package dev.pagantic.rerank;
