package dev.pagantic.memory;

import dev.pagantic.core.Message;
import dev.pagantic.core.PaganticException;
import dev.pagantic.inference.TokenCounter;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import java.util.Optional;
import org.jspecify.annotations.Nullable;

/**
 * One session's memory, wired together: a {@link ConversationBuffer}, a {@link WorkingMemory}, a
 * {@link SessionState}, and optionally a {@link ConversationStore}, with a {@link MemoryPolicy} deciding where each
 * artefact goes. What the policy makes {@link Retention#DURABLE} is committed to the store before it enters the
 * buffer (so the buffer never shows what a crash would lose); {@link Retention#CONVERSATION} goes to the buffer only;
 * {@link Retention#TURN} goes to working memory and is gone after {@link #endTurn()}.
 *
 * <pre>{@code
 * MemorySession session = MemorySession.builder().sessionId("user-42").store(store).maxMessages(100).build();
 * session.record(Message.user("What's the weather?"));
 * session.addContext(retrievedMessages);            // ephemeral by the default policy
 * List<Message> request = session.requestMessages(); // history with this turn's context before the user message
 * session.record(Message.assistant("Sunny."));
 * session.endTurn();
 * }</pre>
 *
 * <p>Thread-safe: recording is serialised, so the store and the buffer see the same order.
 */
public final class MemorySession {

    private final String sessionId;
    private final MemoryPolicy policy;
    private final @Nullable ConversationStore store;
    private final ConversationBuffer buffer;
    private final WorkingMemory working = new WorkingMemory();
    private final SessionState state;
    private final RecoveryReport recovery;
    private final Object lock = new Object();

    private MemorySession(Builder builder, StoredSession stored) {
        this.sessionId = builder.sessionId;
        this.policy = builder.policy;
        this.store = builder.store;
        this.recovery = stored.recovery();
        ConversationBuffer.Builder buffers = ConversationBuffer.builder().from(stored.conversation());
        if (builder.maxMessages != null) {
            buffers.maxMessages(builder.maxMessages);
        }
        if (builder.maxTokens != null) {
            buffers.maxTokens(builder.maxTokens, builder.tokenCounter);
        }
        this.buffer = buffers.build();
        if (store != null && policy.persists(ArtifactKind.SESSION_STATE)) {
            this.state = new SessionState(stored.state(), (key, value) -> {
                if (value.isPresent()) {
                    store.putState(sessionId, key, value.get());
                } else {
                    store.removeState(sessionId, key);
                }
            });
        } else {
            this.state = new SessionState(stored.state());
        }
    }

    /** A builder. */
    public static Builder builder() {
        return new Builder();
    }

    /** The session's id. */
    public String sessionId() {
        return sessionId;
    }

    /** The policy in force. */
    public MemoryPolicy policy() {
        return policy;
    }

    /** The conversation memory. */
    public ConversationBuffer buffer() {
        return buffer;
    }

    /** This turn's working memory. */
    public WorkingMemory working() {
        return working;
    }

    /** The session state (writing through to the store when the policy makes it durable and there is a store). */
    public SessionState state() {
        return state;
    }

    /** What the store found when this session was loaded ({@link RecoveryReport#clean} without a store). */
    public RecoveryReport recovery() {
        return recovery;
    }

    /** The store, if the session has one. */
    public Optional<ConversationStore> store() {
        return Optional.ofNullable(store);
    }

    /** Records a conversation message, kept as the policy says for {@link ArtifactKind#of(Message) its kind}. */
    public void record(Message message) {
        recordAll(List.of(Objects.requireNonNull(message, "message")));
    }

    /** Records a message of an explicit kind (retrieved context, intermediate output). */
    public void record(ArtifactKind kind, Message message) {
        recordAll(kind, List.of(Objects.requireNonNull(message, "message")));
    }

    /**
     * Records conversation messages as one change: the durable ones are one store commit (an assistant tool-call
     * message and its results recorded together are stored atomically), then the kept ones enter the buffer together.
     */
    public void recordAll(List<Message> messages) {
        List<ArtifactKind> kinds = new ArrayList<>();
        for (Message message : messages) {
            kinds.add(ArtifactKind.of(message));
        }
        route(kinds, messages);
    }

    /** Records messages of one explicit kind as one change. */
    public void recordAll(ArtifactKind kind, List<Message> messages) {
        Objects.requireNonNull(kind, "kind");
        List<ArtifactKind> kinds = new ArrayList<>();
        for (int i = 0; i < messages.size(); i++) {
            kinds.add(kind);
        }
        route(kinds, messages);
    }

    /** Records retrieved context for this turn (ephemeral unless the policy keeps it). */
    public void addContext(List<Message> context) {
        recordAll(ArtifactKind.RETRIEVED_CONTEXT, context);
    }

    /**
     * The messages for this turn's inference request: the conversation, with this turn's retrieved context (from
     * working memory) inserted just before the last message, where the model sees it right before the user's query.
     */
    public List<Message> requestMessages() {
        List<Message> history = buffer.messages();
        List<Message> context = working.context();
        if (context.isEmpty()) {
            return history;
        }
        List<Message> out = new ArrayList<>(history.size() + context.size());
        int split = Math.max(0, history.size() - 1);
        out.addAll(history.subList(0, split));
        out.addAll(context);
        out.addAll(history.subList(split, history.size()));
        return List.copyOf(out);
    }

    /** Ends the turn: working memory is discarded. */
    public void endTurn() {
        working.endTurn();
    }

    private void route(List<ArtifactKind> kinds, List<Message> messages) {
        List<Message> durable = new ArrayList<>();
        List<Message> kept = new ArrayList<>();
        List<WorkingMemory.Artifact> transientOnes = new ArrayList<>();
        for (int i = 0; i < messages.size(); i++) {
            Message message = Objects.requireNonNull(messages.get(i), "message");
            Retention retention = policy.retention(kinds.get(i));
            if (retention == Retention.TURN) {
                transientOnes.add(new WorkingMemory.Artifact(kinds.get(i), message));
                continue;
            }
            if (retention == Retention.DURABLE && store != null) {
                durable.add(message);
            }
            kept.add(message);
        }
        synchronized (lock) {
            if (!durable.isEmpty()) {
                store.append(sessionId, durable);
            }
            if (!kept.isEmpty()) {
                buffer.appendAll(kept);
            }
            for (WorkingMemory.Artifact artifact : transientOnes) {
                working.add(artifact.kind(), artifact.message());
            }
        }
    }

    /** Builds a {@link MemorySession}, loading it from the store if there is one; validated at {@link #build()}. */
    public static final class Builder {
        private @Nullable String sessionId;
        private MemoryPolicy policy = MemoryPolicy.defaults();
        private @Nullable ConversationStore store;
        private @Nullable Integer maxMessages;
        private @Nullable Integer maxTokens;
        private @Nullable TokenCounter tokenCounter;

        private Builder() {
        }

        /** The session's id (required). */
        public Builder sessionId(String sessionId) {
            this.sessionId = sessionId;
            return this;
        }

        /** The policy (default {@link MemoryPolicy#defaults()}). */
        public Builder policy(MemoryPolicy policy) {
            this.policy = Objects.requireNonNull(policy, "policy");
            return this;
        }

        /** The store to load from and commit durable artefacts to (default none: nothing outlives the process). */
        public Builder store(ConversationStore store) {
            this.store = Objects.requireNonNull(store, "store");
            return this;
        }

        /** Bounds the conversation buffer by message count, at least 1 (see {@link ConversationBuffer}). */
        public Builder maxMessages(int maxMessages) {
            this.maxMessages = maxMessages;
            return this;
        }

        /** Bounds the conversation buffer by a token budget, at least 1 (see {@link ConversationBuffer}). */
        public Builder maxTokens(int maxTokens, TokenCounter counter) {
            this.maxTokens = maxTokens;
            this.tokenCounter = counter;
            return this;
        }

        /**
         * The session, with its conversation and state loaded from the store (bounds applied to the loaded history;
         * the store keeps the whole history).
         *
         * @throws PaganticException {@code CONFIG_INVALID} if the session id is missing or invalid, or a bound is
         *                           below 1 or a token budget has no counter
         */
        public MemorySession build() {
            StoreSupport.requireSessionId(sessionId);
            ConversationBuffer.Builder bounds = ConversationBuffer.builder(); // validates the bounds before loading
            if (maxMessages != null) {
                bounds.maxMessages(maxMessages);
            }
            if (maxTokens != null) {
                bounds.maxTokens(maxTokens, tokenCounter);
            }
            bounds.build();
            StoredSession stored = store != null ? store.load(sessionId)
                    : new SessionData().toStored(sessionId, RecoveryReport.clean(0, 0));
            return new MemorySession(this, stored);
        }
    }
}
