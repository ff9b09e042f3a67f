package dev.pagantic.orchestrate;

import java.util.List;

/**
 * Candidates grouped with the query they are reranked against: the input of a {@link CandidateReranker}.
 *
 * @param query      the original query; may be empty for query-independent reranking
 * @param candidates the candidates, in their current order; an immutable copy; may be empty
 */
public record RerankInput(String query, List<RerankCandidate> candidates) {

    /** Checks the fields and copies the list; {@code CONFIG_INVALID} for nulls. */
    public RerankInput {
        PlanChecks.present(query, "rerank query");
        candidates = PlanChecks.list(candidates, "rerank candidates");
    }

    /** The input for the query and the given IR candidates, converted in order. */
    public static RerankInput of(String query, List<CandidateIR> candidates) {
        return new RerankInput(query,
                PlanChecks.list(candidates, "rerank candidates").stream().map(CandidateIR::toRerankCandidate).toList());
    }
}
