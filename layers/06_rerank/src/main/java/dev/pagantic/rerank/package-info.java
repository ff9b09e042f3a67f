/**
 * Layer 06, candidate scoring and reranking: given a query and candidates (retrieved chunks, search hits, generated
 * answers), decide which to keep and in what order.
 *
 * <h2>Domain concepts</h2>
 * <ul>
 *   <li>{@link dev.pagantic.core.Candidate}: content with a source, a score and metadata: core's one candidate type,
 *       the same that retrievers return and plan steps carry.</li>
 *   <li>{@link dev.pagantic.rerank.Reranker}: runs the pipeline score, then MinScore filter (scores equal to the
 *       minimum stay), then stable sort by score (ties keep their input order), then optional diversity, then TopK.
 *       Unset MinScore means no filter; unset TopK means all candidates.</li>
 *   <li>{@link dev.pagantic.rerank.Scorer}: the pluggable part, scoring the whole candidate list at once so that a
 *       scorer may use statistics of the set or batch a model call. Implementations:
 *       <ul>
 *         <li>{@link dev.pagantic.rerank.Scorer#existing()} (the default): keep the scores the candidates bring;</li>
 *         <li>{@link dev.pagantic.rerank.QueryTermOverlapScorer}: the share of distinct query terms present, in
 *             [0, 1];</li>
 *         <li>{@link dev.pagantic.rerank.Bm25Scorer}: Okapi BM25 with the candidate set as the corpus;</li>
 *         <li>{@link dev.pagantic.rerank.ModelScorer}: a {@link dev.pagantic.rerank.RelevanceModel} judges each
 *             candidate (a cross-encoder or an LLM judge supplied by an engine, bound by method reference);</li>
 *         <li>{@link dev.pagantic.rerank.Scorer#perCandidate} and {@link dev.pagantic.rerank.Scorer#scaledToMax}
 *             to write and adapt others.</li>
 *       </ul></li>
 *   <li>{@link dev.pagantic.rerank.Mmr}: maximal marginal relevance, the diversity step, with a configurable lambda
 *       and a pluggable {@link dev.pagantic.rerank.Similarity} (term-set Jaccard by default; an embedding cosine plugs
 *       in as a lambda). With diversity, the result is in pick order and each candidate keeps its relevance score.</li>
 * </ul>
 *
 * <h2>Design decisions</h2>
 * <ul>
 *   <li><b>BM25 is written twice, on purpose.</b> The context layer's {@code Bm25Retriever} and this layer's
 *       {@code Bm25Scorer} use the same formula (IDF {@code ln(1 + (N - n + 0.5)/(n + 0.5))}, exact length
 *       normalisation, {@code k1 = 1.2}, {@code b = 0.75}) and the same default tokenisation (lower-case, split on
 *       non-letters/digits, optional stop words). Band layers may not import each other, and moving a dozen lines of
 *       ranking arithmetic into core or the inference SPI would put retrieval into the shared vocabulary, so each layer
 *       keeps its own small copy ({@code Terms} here), and the tests of both check the same hand-computed numbers.
 *       The two differ in their corpus: the retriever's is its index, the scorer's is the candidate list.</li>
 *   <li><b>Deterministic order.</b> Sorting is stable; {@code -0.0} and {@code 0.0} tie; MMR gives equal values to
 *       the earlier candidate.</li>
 *   <li><b>Bad scores fail loudly.</b> A scorer that returns NaN or the wrong number of scores is refused with
 *       {@code CONFIG_INVALID}; a relevance model that answers NaN or an infinity with
 *       {@code INFERENCE_MALFORMED_RESPONSE} (retryable).</li>
 * </ul>
 *
 * <h2>Contract</h2>
 * Part of the flat band: depends on core and inference only, never on another band layer or on orchestrate.
 * Orchestrate declares its own {@code CandidateReranker} port over core's {@link dev.pagantic.core.Candidate}, and
 * a reranker binds to it with a lambda (see {@link dev.pagantic.rerank.Reranker}), so neither layer imports the
 * other and no candidate is converted on the way. Reranking
 * honours the {@link dev.pagantic.core.CallContext}'s cancellation and deadline before scoring, between model calls
 * and between MMR picks. Rerankers and scorers are immutable and thread-safe (a model scorer is as thread-safe as its
 * model).
 */
@NullMarked
package dev.pagantic.rerank;

import org.jspecify.annotations.NullMarked;
