package dev.pagantic.orchestrate;

import dev.pagantic.context.Chunk;
import dev.pagantic.context.ContextBuilder;
import dev.pagantic.core.Message;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;

/**
 * Retrieved context with its provenance, as it crosses plan steps: the chunks found for a query, best first, each
 * keeping its source, score and metadata (as {@link CandidateIR}s, so that a rerank step can take them as they are).
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
public record ContextIR(String query, List<CandidateIR> chunks) {

    /** Checks the fields and copies the list; {@code CONFIG_INVALID} for nulls. */
    public ContextIR {
        PlanChecks.present(query, "context query");
        chunks = PlanChecks.list(chunks, "context chunks");
    }

    /** The context for retrieved chunks, with no recorded query. */
    public static ContextIR of(List<Chunk> chunks) {
        return of("", chunks);
    }

    /** The context retrieved for the query: each chunk converted with {@link CandidateIR#from(Chunk)}, in order. */
    public static ContextIR of(String query, List<Chunk> chunks) {
        return new ContextIR(query, PlanChecks.list(chunks, "context chunks").stream().map(CandidateIR::from).toList());
    }

    /** Whether no chunk was retrieved. */
    public boolean isEmpty() {
        return chunks.isEmpty();
    }

    /** The distinct sources of the chunks, in order of first appearance (empty sources left out). */
    public List<String> sources() {
        Set<String> sources = new LinkedHashSet<>();
        for (CandidateIR chunk : chunks) {
            if (!chunk.source().isEmpty()) {
                sources.add(chunk.source());
            }
        }
        return List.copyOf(sources);
    }

    /** The chunks as context-layer chunks, in order. */
    public List<Chunk> toChunks() {
        return chunks.stream().map(CandidateIR::toChunk).toList();
    }

    /**
     * The context as messages, in the context layer's format ({@link ContextBuilder#render(List)}): one system message
     * listing every chunk with its source, or no message at all when there are no chunks.
     */
    public List<Message> toMessages() {
        if (chunks.isEmpty()) {
            return List.of();
        }
        return List.of(Message.system(ContextBuilder.render(toChunks())));
    }

    /** The query and the chunks as the input of a rerank step. */
    public RerankInput toRerankInput() {
        return RerankInput.of(query, chunks);
    }
}
