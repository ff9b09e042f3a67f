package dev.pagantic.orchestrate.ports;

import static dev.pagantic.core.Preconditions.requireElements;
import static dev.pagantic.core.Preconditions.requireNonNull;

import dev.pagantic.core.Candidate;
import java.util.List;

/**
 * Candidates grouped with the query they are reranked against: the input of a {@link CandidateReranker}.
 *
 * @param query      the original query; may be empty for query-independent reranking
 * @param candidates the candidates, in their current order; an immutable copy; may be empty
 */
public record RerankInput(String query, List<Candidate> candidates) {

    /** Checks the fields and copies the list; {@code CONFIG_INVALID} for nulls. */
    public RerankInput {
        requireNonNull(query, "rerank query");
        candidates = requireElements(candidates, "rerank candidates");
    }

    /** The input for the query and the candidates. */
    public static RerankInput of(String query, List<Candidate> candidates) {
        return new RerankInput(query, candidates);
    }
}
