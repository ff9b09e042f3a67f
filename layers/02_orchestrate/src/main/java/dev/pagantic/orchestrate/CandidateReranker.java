package dev.pagantic.orchestrate;

import dev.pagantic.core.CallContext;
import dev.pagantic.rerank.Candidate;
import dev.pagantic.rerank.Reranker;
import java.util.List;
import java.util.Objects;

/**
 * The rerank port: scores and filters candidates against a query. Orchestrate declares it so that plans depend on
 * this one method rather than on the rerank layer; any lambda of this shape is a reranker, and the rerank layer's
 * {@link Reranker} plugs in through {@link #of(Reranker)}, which converts the mirrored candidate types.
 */
@FunctionalInterface
public interface CandidateReranker {

    /**
     * Reranks the input's candidates.
     *
     * @param ctx   the call context
     * @param input the query and the candidates
     * @return the candidates to keep, best first
     */
    List<RerankCandidate> rerank(CallContext ctx, RerankInput input);

    /**
     * The rerank layer's reranker as this port: each {@link RerankCandidate} is converted to a
     * {@link Candidate} and back, so content, score, source and metadata survive the trip.
     */
    static CandidateReranker of(Reranker reranker) {
        Objects.requireNonNull(reranker, "reranker");
        return (ctx, input) -> {
            List<Candidate> candidates = input.candidates().stream().map(RerankCandidate::toCandidate).toList();
            return reranker.rerank(ctx, input.query(), candidates).stream().map(RerankCandidate::from).toList();
        };
    }
}
