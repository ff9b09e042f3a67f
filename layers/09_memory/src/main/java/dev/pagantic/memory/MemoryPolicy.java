package dev.pagantic.memory;

import dev.pagantic.core.ErrorCode;
import dev.pagantic.core.Message;
import dev.pagantic.core.PaganticException;
import java.util.Collections;
import java.util.EnumMap;
import java.util.Map;
import java.util.Objects;

/**
 * Which artefacts persist, and how far: the one place that decides what a turn leaves behind. "Retrieved context is
 * ephemeral" is not a special case in the agent loop but this policy's default for {@link ArtifactKind#RETRIEVED_CONTEXT}.
 *
 * <p>{@link #defaults()}:
 * <table>
 *   <caption>Default retention</caption>
 *   <tr><th>Kind</th><th>Retention</th></tr>
 *   <tr><td>user and assistant messages, tool calls and tool results</td><td>{@link Retention#DURABLE}</td></tr>
 *   <tr><td>session state</td><td>{@link Retention#DURABLE}</td></tr>
 *   <tr><td>system prompt</td><td>{@link Retention#CONVERSATION} (rebuilt from configuration on restart)</td></tr>
 *   <tr><td>retrieved context, intermediate output</td><td>{@link Retention#TURN} (working memory)</td></tr>
 * </table>
 *
 * <p>A policy is an immutable value. The builder refuses combinations that would break a conversation: tool calls and
 * tool results must be kept alike (a stored call without its result, or a result without its call, is invalid input
 * for every chat template), and session state cannot be {@link Retention#TURN} (it is cross-turn by definition).
 */
public final class MemoryPolicy {

    private static final MemoryPolicy DEFAULTS = builder().build();

    private final Map<ArtifactKind, Retention> retention;

    private MemoryPolicy(Map<ArtifactKind, Retention> retention) {
        this.retention = Collections.unmodifiableMap(new EnumMap<>(retention));
    }

    /** The specification's memory model: conversation durable, retrieved context and intermediates ephemeral. */
    public static MemoryPolicy defaults() {
        return DEFAULTS;
    }

    /** The defaults with nothing written to a store: what would be durable is kept in the process only. */
    public static MemoryPolicy inProcessOnly() {
        Builder builder = builder();
        for (ArtifactKind kind : ArtifactKind.values()) {
            if (DEFAULTS.retention(kind) == Retention.DURABLE) {
                builder.retain(kind, Retention.CONVERSATION);
            }
        }
        return builder.build();
    }

    /** A builder that starts from {@link #defaults()}. */
    public static Builder builder() {
        return new Builder();
    }

    /** A builder that starts from this policy. */
    public Builder toBuilder() {
        Builder builder = new Builder();
        builder.retention.putAll(retention);
        return builder;
    }

    /** The retention of a kind of artefact. */
    public Retention retention(ArtifactKind kind) {
        return retention.get(Objects.requireNonNull(kind, "kind"));
    }

    /** The retention of a conversation message, by {@link ArtifactKind#of(Message) its kind}. */
    public Retention retention(Message message) {
        return retention(ArtifactKind.of(message));
    }

    /** Whether artefacts of this kind outlive the turn. */
    public boolean keepsAcrossTurns(ArtifactKind kind) {
        return retention(kind).keepsAcrossTurns();
    }

    /** Whether artefacts of this kind are written to the durable store. */
    public boolean persists(ArtifactKind kind) {
        return retention(kind).persists();
    }

    /** Whether artefacts of this kind live in working memory only (discarded when the turn ends). */
    public boolean isEphemeral(ArtifactKind kind) {
        return retention(kind) == Retention.TURN;
    }

    /** Every kind's retention: an immutable map in {@link ArtifactKind} order. */
    public Map<ArtifactKind, Retention> asMap() {
        return retention;
    }

    @Override
    public boolean equals(Object other) {
        return other instanceof MemoryPolicy policy && policy.retention.equals(retention);
    }

    @Override
    public int hashCode() {
        return retention.hashCode();
    }

    @Override
    public String toString() {
        return "MemoryPolicy" + retention;
    }

    /** Builds a {@link MemoryPolicy}; starts from the defaults and is validated at {@link #build()}. */
    public static final class Builder {
        private final Map<ArtifactKind, Retention> retention = new EnumMap<>(ArtifactKind.class);

        private Builder() {
            retention.put(ArtifactKind.SYSTEM_PROMPT, Retention.CONVERSATION);
            retention.put(ArtifactKind.USER_MESSAGE, Retention.DURABLE);
            retention.put(ArtifactKind.ASSISTANT_MESSAGE, Retention.DURABLE);
            retention.put(ArtifactKind.TOOL_CALL, Retention.DURABLE);
            retention.put(ArtifactKind.TOOL_RESULT, Retention.DURABLE);
            retention.put(ArtifactKind.RETRIEVED_CONTEXT, Retention.TURN);
            retention.put(ArtifactKind.INTERMEDIATE_OUTPUT, Retention.TURN);
            retention.put(ArtifactKind.SESSION_STATE, Retention.DURABLE);
        }

        /** Sets the retention of one kind. */
        public Builder retain(ArtifactKind kind, Retention value) {
            retention.put(Objects.requireNonNull(kind, "kind"), Objects.requireNonNull(value, "retention"));
            return this;
        }

        /** Sets the same retention for tool calls and tool results (which must match). */
        public Builder toolExchanges(Retention value) {
            return retain(ArtifactKind.TOOL_CALL, value).retain(ArtifactKind.TOOL_RESULT, value);
        }

        /**
         * The policy.
         *
         * @throws PaganticException {@code CONFIG_INVALID} if tool calls and tool results are kept differently, or
         *                           session state is {@link Retention#TURN}
         */
        public MemoryPolicy build() {
            Retention calls = retention.get(ArtifactKind.TOOL_CALL);
            Retention results = retention.get(ArtifactKind.TOOL_RESULT);
            if (calls != results) {
                throw PaganticException.builder(ErrorCode.CONFIG_INVALID,
                        "tool calls and tool results must have the same retention, got " + calls + " and " + results)
                        .detail("toolCall", calls.name()).detail("toolResult", results.name()).build();
            }
            if (retention.get(ArtifactKind.SESSION_STATE) == Retention.TURN) {
                throw PaganticException.of(ErrorCode.CONFIG_INVALID,
                        "session state outlives the turn by definition; use CONVERSATION or DURABLE");
            }
            return new MemoryPolicy(retention);
        }
    }
}
