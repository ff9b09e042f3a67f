package dev.pagantic.memory;

import dev.pagantic.core.Message;
import dev.pagantic.core.PaganticException;
import java.util.List;

/**
 * Durable home of sessions: each session's conversation (an append-only sequence of messages) and its session state
 * (key-value). Every mutating call is a commit: when it returns, the change is durable as far as the implementation
 * promises (for {@link FileConversationStore}: written and forced to the storage device), and a change that threw
 * did not happen.
 *
 * <p>Session ids are non-blank strings of at most {@value #MAX_SESSION_ID_LENGTH} characters. Implementations are
 * thread-safe. Failures are {@link PaganticException}s.
 *
 * <h2>Concurrent writers</h2>
 * {@link #append(String, List)} never loses a message when several threads, or several store instances on one
 * database, append to the same session: each batch lands whole, after the batches committed before it. A writer that
 * must not interleave with another writer's turn (it built its batch from what it read) uses
 * {@link #appendAt(String, long, List)}, the optimistic check: the batch is committed only if the conversation still
 * ends where the writer last saw it.
 */
public interface ConversationStore extends AutoCloseable {

    /** The longest session id accepted. */
    int MAX_SESSION_ID_LENGTH = 80;

    /**
     * Appends messages to a session's conversation as one atomic commit: after a crash either all of them are
     * there or none is (append an assistant tool-call message and its results together). Creates the session if
     * it does not exist.
     *
     * @return the number of messages the session's conversation holds after this commit
     */
    long append(String sessionId, List<Message> messages);

    /**
     * Appends messages only if the session's conversation holds exactly {@code position} messages, so that the batch's
     * first message lands at index {@code position}: an optimistic concurrency check for a writer that knows how long
     * the conversation was when it read it (the size of {@link StoredSession#messages()}, or what its last append
     * returned). An unknown session holds 0 messages, and is created. Atomic like {@link #append(String, List)}.
     *
     * @return the number of messages the session's conversation holds after this commit
     * @throws PaganticException {@code ORCHESTRATION_CONCURRENT_USE} if the conversation holds a different number of
     *                           messages (another writer appended, or deleted the session); nothing is appended, and
     *                           the caller decides whether to reload and try again
     */
    long appendAt(String sessionId, long position, List<Message> messages);

    /**
     * Appends one message.
     *
     * @return the number of messages the session's conversation holds after this commit
     */
    default long append(String sessionId, Message message) {
        return append(sessionId, List.of(message));
    }

    /**
     * Sets a session-state value (a JSON value, normalised as {@link SessionState} does).
     *
     * @throws PaganticException {@code CONFIG_INVALID} if the key is blank or the value is not a JSON value
     */
    void putState(String sessionId, String key, Object value);

    /** Removes a session-state key; nothing happens if it is absent. */
    void removeState(String sessionId, String key);

    /**
     * A session as stored: its messages, its state, and what recovery found when the session was opened. An unknown
     * session loads as an empty one (and is not created).
     */
    StoredSession load(String sessionId);

    /** Whether the session exists. */
    boolean contains(String sessionId);

    /** The ids of the stored sessions, sorted. */
    List<String> sessions();

    /** Deletes a session; nothing happens if it does not exist. */
    void delete(String sessionId);

    /**
     * Rewrites a session's storage into its minimal form (one state record, messages in few records) without
     * changing what it holds. Atomic: a crash leaves either the old or the new form, both complete. A no-op for
     * stores without a log.
     */
    default void compact(String sessionId) {
        StoreSupport.requireSessionId(sessionId);
    }

    /** Releases the store's resources; later calls fail. Idempotent. */
    @Override
    void close();
}
