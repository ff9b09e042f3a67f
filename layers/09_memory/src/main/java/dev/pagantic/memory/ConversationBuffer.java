package dev.pagantic.memory;

import dev.pagantic.core.ErrorCode;
import dev.pagantic.core.Message;
import dev.pagantic.core.PaganticException;
import dev.pagantic.core.Role;
import dev.pagantic.inference.TokenCounter;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import java.util.Optional;
import org.jspecify.annotations.Nullable;

/**
 * The conversation memory of an agent: the messages that persist across turns, oldest first.
 *
 * <h2>Eviction</h2>
 * A buffer may be bounded by a message count ({@link Builder#maxMessages}) and/or a token budget
 * ({@link Builder#maxTokens}, measured with an inference {@link TokenCounter}). After every change that adds
 * messages the oldest messages are evicted until both bounds hold, with two guarantees:
 * <ul>
 *   <li>system messages are pinned: they are never evicted and stay where they are;</li>
 *   <li>eviction works on <em>exchanges</em>, never on single messages: an assistant message that requests tool
 *       calls and the tool messages that follow it (its results) form one unit that is evicted whole, so the model
 *       never sees a tool call without its result or a result without its call. Every other message is a unit of
 *       its own.</li>
 * </ul>
 * The newest unit is never evicted, so the turn in progress is not lost (and a tool call whose results are still to
 * come is not dropped before they arrive); if the pinned messages and the newest unit alone exceed a bound, the
 * buffer stays over it, which {@link #withinLimits()} reports. Because units are evicted whole, a buffer may end
 * below its message bound.
 *
 * <h2>Threading</h2>
 * Thread-safe: every method is atomic with respect to the others (one internal lock), and reads return immutable
 * copies, so a snapshot can be inspected or serialised while the buffer keeps changing.
 */
public final class ConversationBuffer {

    private final Object lock = new Object();
    private final List<Message> messages = new ArrayList<>();
    private final int maxMessages;
    private final int maxTokens;
    private final @Nullable TokenCounter tokenCounter; // null: no token budget
    private long evictedCount;

    private ConversationBuffer(Builder builder) {
        this.maxMessages = builder.maxMessages;
        this.maxTokens = builder.maxTokens;
        this.tokenCounter = builder.tokenCounter;
        this.messages.addAll(builder.initial);
        evictLocked();
    }

    /** An empty, unbounded buffer. */
    public ConversationBuffer() {
        this(new Builder());
    }

    /** A builder for a bounded buffer, or one that starts from stored messages. */
    public static Builder builder() {
        return new Builder();
    }

    /**
     * Appends one message and evicts what no longer fits.
     *
     * @return the messages evicted by this append, oldest first; empty if none
     */
    public List<Message> append(Message message) {
        Objects.requireNonNull(message, "message");
        synchronized (lock) {
            messages.add(message);
            return evictLocked();
        }
    }

    /**
     * Appends several messages at once (as one change: eviction runs once, after all are in, so an assistant
     * tool-call message and its results appended together are one unit from the start).
     *
     * @return the messages evicted by this append, oldest first; empty if none
     */
    public List<Message> appendAll(List<Message> batch) {
        List<Message> copy = List.copyOf(Objects.requireNonNull(batch, "messages"));
        synchronized (lock) {
            messages.addAll(copy);
            return evictLocked();
        }
    }

    /** The messages, oldest first: an immutable copy. */
    public List<Message> messages() {
        synchronized (lock) {
            return List.copyOf(messages);
        }
    }

    /** An immutable snapshot of the messages, from which a buffer can be rebuilt. */
    public ConversationSnapshot snapshot() {
        synchronized (lock) {
            return new ConversationSnapshot(messages);
        }
    }

    /**
     * Replaces the contents with the snapshot's messages (for example after a failed turn, or when resuming a stored
     * session), then applies this buffer's bounds.
     *
     * @return the messages of the snapshot that did not fit the bounds, oldest first; empty if none
     */
    public List<Message> restore(ConversationSnapshot snapshot) {
        Objects.requireNonNull(snapshot, "snapshot");
        synchronized (lock) {
            messages.clear();
            messages.addAll(snapshot.messages());
            return evictLocked();
        }
    }

    /** Removes every message, system messages included. */
    public void clear() {
        synchronized (lock) {
            messages.clear();
        }
    }

    /** The number of messages. */
    public int size() {
        synchronized (lock) {
            return messages.size();
        }
    }

    /** Whether the buffer holds no message. */
    public boolean isEmpty() {
        return size() == 0;
    }

    /** The last message, if any. */
    public Optional<Message> last() {
        synchronized (lock) {
            return messages.isEmpty() ? Optional.empty() : Optional.of(messages.get(messages.size() - 1));
        }
    }

    /**
     * How many messages eviction has removed since the buffer was built (including initial messages that did not
     * fit).
     */
    public long evictedCount() {
        synchronized (lock) {
            return evictedCount;
        }
    }

    /** The message bound, or empty when the count is unbounded. */
    public Optional<Integer> maxMessages() {
        return maxMessages == Integer.MAX_VALUE ? Optional.empty() : Optional.of(maxMessages);
    }

    /** The token budget, or empty when tokens are unbounded. */
    public Optional<Integer> maxTokens() {
        return maxTokens == Integer.MAX_VALUE ? Optional.empty() : Optional.of(maxTokens);
    }

    /**
     * The tokens the messages take, by the buffer's counter (the one given with {@link Builder#maxTokens}) or, for a
     * buffer without a token budget, by {@link TokenCounter#estimate()}.
     */
    public int tokenCount() {
        TokenCounter counter = tokenCounter != null ? tokenCounter : TokenCounter.estimate();
        return counter.count(messages());
    }

    /** Whether the messages are within both bounds (false only when pinned messages and the newest unit exceed them). */
    public boolean withinLimits() {
        synchronized (lock) {
            return !overLimits(messages);
        }
    }

    /**
     * Evicts, oldest units first, until at most {@code limit} messages remain, with the same guarantees as the
     * buffer's own bound (system messages pinned, tool exchanges whole, newest unit kept).
     *
     * @return the evicted messages, oldest first
     */
    public List<Message> evictToMessageCount(int limit) {
        requireNonNegative(limit, "limit");
        synchronized (lock) {
            return evictLocked(limit, Integer.MAX_VALUE, null);
        }
    }

    /**
     * Evicts, oldest units first, until the messages take at most {@code budget} tokens by the given counter, with
     * the same guarantees as the buffer's own bound.
     *
     * @return the evicted messages, oldest first
     */
    public List<Message> evictToTokenBudget(int budget, TokenCounter counter) {
        requireNonNegative(budget, "budget");
        Objects.requireNonNull(counter, "counter");
        synchronized (lock) {
            return evictLocked(Integer.MAX_VALUE, budget, counter);
        }
    }

    private List<Message> evictLocked() {
        return evictLocked(maxMessages, maxTokens, tokenCounter);
    }

    private boolean overLimits(List<Message> candidate) {
        return overLimits(candidate, maxMessages, maxTokens, tokenCounter);
    }

    private static boolean overLimits(List<Message> candidate, int countLimit, int tokenLimit,
                                      @Nullable TokenCounter counter) {
        if (candidate.size() > countLimit) {
            return true;
        }
        return counter != null && tokenLimit != Integer.MAX_VALUE && counter.count(candidate) > tokenLimit;
    }

    private List<Message> evictLocked(int countLimit, int tokenLimit, @Nullable TokenCounter counter) {
        if (!overLimits(messages, countLimit, tokenLimit, counter)) {
            return List.of();
        }
        List<List<Integer>> units = Exchanges.units(messages);
        boolean[] evicted = new boolean[messages.size()];
        List<Message> remaining = messages;
        // The newest unit is always kept.
        for (int u = 0; u < units.size() - 1 && overLimits(remaining, countLimit, tokenLimit, counter); u++) {
            for (int index : units.get(u)) {
                evicted[index] = true;
            }
            remaining = new ArrayList<>(messages.size());
            for (int i = 0; i < messages.size(); i++) {
                if (!evicted[i]) {
                    remaining.add(messages.get(i));
                }
            }
        }
        List<Message> out = new ArrayList<>();
        for (int i = 0; i < evicted.length; i++) {
            if (evicted[i]) {
                out.add(messages.get(i));
            }
        }
        if (!out.isEmpty()) {
            List<Message> kept = List.copyOf(remaining);
            messages.clear();
            messages.addAll(kept);
            evictedCount += out.size();
        }
        return List.copyOf(out);
    }

    private static void requireNonNegative(int value, String name) {
        if (value < 0) {
            throw PaganticException.builder(ErrorCode.CONFIG_INVALID, name + " must not be negative, got " + value)
                    .detail(name, value).build();
        }
    }

    /** Builds a {@link ConversationBuffer}; validated at {@link #build()}. */
    public static final class Builder {
        private int maxMessages = Integer.MAX_VALUE;
        private int maxTokens = Integer.MAX_VALUE;
        private @Nullable TokenCounter tokenCounter;
        private boolean tokenBudgetSet;
        private final List<Message> initial = new ArrayList<>();

        private Builder() {
        }

        /** Bounds the buffer to this many messages (at least 1). Unbounded by default. */
        public Builder maxMessages(int maxMessages) {
            this.maxMessages = maxMessages;
            return this;
        }

        /** Bounds the buffer to this many tokens (at least 1) as measured by the counter. Unbounded by default. */
        public Builder maxTokens(int maxTokens, TokenCounter counter) {
            this.maxTokens = maxTokens;
            this.tokenCounter = counter;
            this.tokenBudgetSet = true;
            return this;
        }

        /** Starts the buffer from a snapshot's messages (the bounds apply to them). */
        public Builder from(ConversationSnapshot snapshot) {
            Objects.requireNonNull(snapshot, "snapshot");
            initial.clear();
            initial.addAll(snapshot.messages());
            return this;
        }

        /** Starts the buffer from these messages (the bounds apply to them). */
        public Builder from(List<Message> messages) {
            return from(new ConversationSnapshot(messages));
        }

        /**
         * The buffer.
         *
         * @throws PaganticException {@code CONFIG_INVALID} if a bound is below 1 or a token budget has no counter
         */
        public ConversationBuffer build() {
            if (maxMessages < 1) {
                throw PaganticException.builder(ErrorCode.CONFIG_INVALID,
                        "maxMessages must be at least 1, got " + maxMessages).detail("maxMessages", maxMessages).build();
            }
            if (tokenBudgetSet) {
                if (maxTokens < 1) {
                    throw PaganticException.builder(ErrorCode.CONFIG_INVALID,
                            "maxTokens must be at least 1, got " + maxTokens).detail("maxTokens", maxTokens).build();
                }
                if (tokenCounter == null) {
                    throw PaganticException.of(ErrorCode.CONFIG_INVALID, "a token budget needs a TokenCounter");
                }
            }
            return new ConversationBuffer(this);
        }
    }

    /** Groups messages into eviction units. */
    static final class Exchanges {
        private Exchanges() {
        }

        /**
         * The eviction units of the non-system messages, oldest first, each as the indices of its messages. An
         * assistant message with tool calls opens a unit that the tool messages following it join; system messages
         * belong to no unit (they are pinned) and do not interrupt one.
         */
        static List<List<Integer>> units(List<Message> messages) {
            List<List<Integer>> units = new ArrayList<>();
            List<Integer> current = null;
            boolean toolExchangeOpen = false;
            for (int i = 0; i < messages.size(); i++) {
                Message message = messages.get(i);
                if (message.role() == Role.SYSTEM) {
                    continue;
                }
                if (message.role() == Role.TOOL && toolExchangeOpen) {
                    current.add(i);
                    continue;
                }
                current = new ArrayList<>();
                current.add(i);
                units.add(current);
                toolExchangeOpen = message.role() == Role.ASSISTANT && message.hasToolCalls();
            }
            return units;
        }
    }
}
