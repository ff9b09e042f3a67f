package dev.pagantic.orchestrate.plan;

import static dev.pagantic.core.Preconditions.requireElements;
import static dev.pagantic.core.Preconditions.requireNonNull;

import dev.pagantic.context.ContextBuilder;
import dev.pagantic.core.Candidate;
import dev.pagantic.core.Message;
import dev.pagantic.orchestrate.ports.RerankInput;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;

/**
 * Retrieved context with its provenance, as it crosses plan steps: the chunks found for a query, best first, each
 * keeping its source, score and metadata (core's {@link Candidate}s, as the retriever returned them, so that a rerank
 * step can take them as they are).
 *
 * <pre>{@code
 * ContextIR context = ContextIR.of(query, retriever.retrieve(ctx, query, 5));
 * List<Message> messages = context.toMessages();   // the context layer's "Relevant context:" message
 * RerankInput rerank = context.toRerankInput();    // the same chunks, for a rerank step
 * }</pre>
 *
 * @param query  the query the context was retrieved for; may be empty when unknown
 * @param chunks the chunks, best first; an immutable copy; may be empty
 */
public record ContextIR(String query, List<Candidate> chunks) {

    /** Checks the fields and copies the list; {@code CONFIG_INVALID} for nulls. */
    public ContextIR {
        requireNonNull(query, "context query");
        chunks = requireElements(chunks, "context chunks");
    }

    /** The context for retrieved chunks, with no recorded query. */
    public static ContextIR of(List<Candidate> chunks) {
        return new ContextIR("", chunks);
    }

    /** The context retrieved for the query. */
    public static ContextIR of(String query, List<Candidate> chunks) {
        return new ContextIR(query, chunks);
    }

    /** Whether no chunk was retrieved. */
    public boolean isEmpty() {
        return chunks.isEmpty();
    }

    /** The distinct sources of the chunks, in order of first appearance (empty sources left out). */
    public List<String> sources() {
        Set<String> sources = new LinkedHashSet<>();
        for (Candidate chunk : chunks) {
            if (!chunk.source().isEmpty()) {
                sources.add(chunk.source());
            }
        }
        return List.copyOf(sources);
    }

    /**
     * The context as messages, in the context layer's format ({@link ContextBuilder#render(List)}): one system message
     * listing every chunk with its source, or no message at all when there are no chunks.
     */
    public List<Message> toMessages() {
        if (chunks.isEmpty()) {
            return List.of();
        }
        return List.of(Message.system(ContextBuilder.render(chunks)));
    }

    /** The query and the chunks as the input of a rerank step. */
    public RerankInput toRerankInput() {
        return RerankInput.of(query, chunks);
    }
}
