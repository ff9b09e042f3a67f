package dev.pagantic.orchestrate.ports;

import dev.pagantic.core.CallContext;
import dev.pagantic.core.Candidate;
import dev.pagantic.rerank.Reranker;
import java.util.List;
import java.util.Objects;

/**
 * The rerank port: scores and filters candidates against a query. Orchestrate declares it so that plans depend on
 * this one method rather than on the rerank layer; any lambda of this shape is a reranker, and the rerank layer's
 * {@link Reranker} plugs in through {@link #of(Reranker)}. Both speak core's {@link Candidate}, so nothing is
 * converted.
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
    List<Candidate> rerank(CallContext ctx, RerankInput input);

    /** The rerank layer's reranker as this port. */
    static CandidateReranker of(Reranker reranker) {
        Objects.requireNonNull(reranker, "reranker");
        return (ctx, input) -> reranker.rerank(ctx, input.query(), input.candidates());
    }
}
