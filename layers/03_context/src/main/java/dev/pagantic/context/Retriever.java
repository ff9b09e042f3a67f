package dev.pagantic.context;

import dev.pagantic.core.CallContext;
import dev.pagantic.core.Candidate;
import java.util.List;

/**
 * Finds the chunks relevant to a query. Implementations here: {@link Bm25Retriever} (keyword) and
 * {@link EmbeddingRetriever} (vector); any lambda of this shape is a retriever too, which is how tests and other
 * strategies (a search service, a hybrid of the two) plug in.
 *
 * <p>Contract: at most {@code limit} chunks, best first (highest {@link Candidate#score()}), ties in a deterministic
 * order;
 * an empty list (never null) when nothing matches. Implementations honour the context's cancellation and deadline
 * ({@link CallContext#throwIfDone()}), so a long retrieval stops with {@code CANCELLED_SIGNAL} or
 * {@code CANCELLED_TIMEOUT}.
 */
@FunctionalInterface
public interface Retriever {

    /**
     * The chunks most relevant to the query, best first.
     *
     * @param ctx   the call context (cancellation, deadline)
     * @param query the user's query
     * @param limit the most chunks to return; at least 1 ({@code CONFIG_INVALID} otherwise)
     * @return at most {@code limit} chunks, best first; never null
     */
    List<Candidate> retrieve(CallContext ctx, String query, int limit);

    /** {@link #retrieve(CallContext, String, int)} under a background context (no deadline, no cancellation). */
    default List<Candidate> retrieve(String query, int limit) {
        return retrieve(CallContext.background(), query, limit);
    }
}
