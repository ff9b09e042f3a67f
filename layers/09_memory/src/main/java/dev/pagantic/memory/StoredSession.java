package dev.pagantic.memory;

import dev.pagantic.core.Message;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.TreeMap;

/**
 * A session as a {@link ConversationStore} holds it.
 *
 * @param sessionId the session's id
 * @param messages  its conversation, oldest first; an immutable copy
 * @param state     its session state, sorted by key; an immutable copy
 * @param recovery  what the store found when it opened the session's storage ({@link RecoveryReport#clean} unless a
 *                  torn tail or corruption was cut off)
 */
public record StoredSession(String sessionId, List<Message> messages, Map<String, Object> state,
        RecoveryReport recovery) {

    /** Copies the messages and the state (sorted by key). */
    public StoredSession {
        Objects.requireNonNull(sessionId, "sessionId");
        messages = List.copyOf(Objects.requireNonNull(messages, "messages"));
        state = Collections.unmodifiableMap(new LinkedHashMap<>(new TreeMap<>(Objects.requireNonNull(state, "state"))));
        Objects.requireNonNull(recovery, "recovery");
    }

    /** Whether the session holds neither messages nor state. */
    public boolean isEmpty() {
        return messages.isEmpty() && state.isEmpty();
    }

    /** The conversation as a snapshot, to rebuild a {@link ConversationBuffer} from. */
    public ConversationSnapshot conversation() {
        return new ConversationSnapshot(messages);
    }

    /** The state as a new, independent {@link SessionState}. */
    public SessionState sessionState() {
        return new SessionState(state);
    }
}
