package dev.pagantic.context;

import dev.pagantic.core.CallContext;
import dev.pagantic.core.Candidate;
import dev.pagantic.core.ErrorCode;
import dev.pagantic.core.Message;
import dev.pagantic.core.PaganticException;
import java.util.List;
import java.util.Objects;
import org.jspecify.annotations.Nullable;

/**
 * Retrieves the chunks relevant to a query and renders them as one system message, the context that orchestrate's
 * agent loop injects (ephemerally) into an inference request. The message has the specification's exact format:
 * <pre>
 * Relevant context:
 *
 * [1] (source-a): content of the best chunk
 * [2] (source-b): content of the next chunk
 * </pre>
 * that is {@code "Relevant context:\n\n"} followed by one {@code "[i] (source): content"} entry per chunk, numbered
 * from 1 in the retriever's order and separated by a single {@code "\n"} (no newline after the last). Contents are
 * rendered verbatim.
 *
 * <p>{@link #build(CallContext, String)} has the shape of orchestrate's {@code ContextProvider} port, to which a
 * builder binds by method reference without either layer importing the other:
 * <pre>{@code
 * ContextBuilder contextBuilder = ContextBuilder.builder().retriever(bm25).maxChunks(5).build();
 * ContextProvider provider = contextBuilder::build;
 * }</pre>
 *
 * <p>When the retriever finds nothing, {@code build} returns an empty list rather than a message with a heading and no
 * entries, so the model is not told about context that does not exist. Retrieval failures (including cancellation and
 * deadline, checked before retrieving) propagate; the agent loop decides whether to go on without context. Builders are
 * immutable and thread-safe if their retriever is.
 */
public final class ContextBuilder {

    /** Default number of chunks per context message. */
    public static final int DEFAULT_MAX_CHUNKS = 5;

    /** The heading that starts every context message. */
    public static final String HEADING = "Relevant context:\n\n";

    private final Retriever retriever;
    private final int maxChunks;

    private ContextBuilder(Builder builder) {
        this.retriever = builder.retriever;
        this.maxChunks = builder.maxChunks;
    }

    /** Starts building a context builder. */
    public static Builder builder() {
        return new Builder();
    }

    /**
     * The context messages for the query: one system message listing up to {@code maxChunks} retrieved chunks, or an
     * empty list when none was found.
     */
    public List<Message> build(CallContext ctx, String query) {
        Objects.requireNonNull(ctx, "ctx");
        Objects.requireNonNull(query, "query");
        ctx.throwIfDone();
        List<Candidate> chunks = retriever.retrieve(ctx, query, maxChunks);
        if (chunks == null || chunks.isEmpty()) {
            return List.of();
        }
        return List.of(Message.system(render(chunks.subList(0, Math.min(maxChunks, chunks.size())))));
    }

    /** {@link #build(CallContext, String)} under a background context. */
    public List<Message> build(String query) {
        return build(CallContext.background(), query);
    }

    /** The text of a context message for the given chunks, in the format described above. */
    public static String render(List<Candidate> chunks) {
        StringBuilder text = new StringBuilder(HEADING);
        for (int i = 0; i < chunks.size(); i++) {
            Candidate chunk = chunks.get(i);
            text.append('[').append(i + 1).append("] (").append(chunk.source()).append("): ").append(chunk.content());
            if (i < chunks.size() - 1) {
                text.append('\n');
            }
        }
        return text.toString();
    }

    /** The retriever. */
    public Retriever retriever() {
        return retriever;
    }

    /** The most chunks per context message. */
    public int maxChunks() {
        return maxChunks;
    }

    /** Builds a {@link ContextBuilder}; a retriever is required ({@code CONFIG_INVALID} at {@link #build()}). */
    public static final class Builder {
        private @Nullable Retriever retriever;
        private int maxChunks = DEFAULT_MAX_CHUNKS;

        private Builder() {
        }

        /** Where chunks come from; required. */
        public Builder retriever(Retriever value) {
            this.retriever = Objects.requireNonNull(value, "retriever");
            return this;
        }

        /** The most chunks per context message, at least 1; {@value ContextBuilder#DEFAULT_MAX_CHUNKS} by default. */
        public Builder maxChunks(int value) {
            this.maxChunks = value;
            return this;
        }

        /** The context builder; {@code CONFIG_INVALID} without a retriever or with {@code maxChunks < 1}. */
        public ContextBuilder build() {
            if (retriever == null) {
                throw PaganticException.of(ErrorCode.CONFIG_INVALID, "a ContextBuilder needs a retriever");
            }
            if (maxChunks < 1) {
                throw PaganticException.builder(ErrorCode.CONFIG_INVALID, "maxChunks must be at least 1: " + maxChunks)
                        .detail("maxChunks", maxChunks).build();
            }
            return new ContextBuilder(this);
        }
    }
}
