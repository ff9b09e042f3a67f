package dev.pagantic.memory;

import dev.pagantic.core.Message;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Objects;
import java.util.concurrent.ConcurrentHashMap;

/**
 * A {@link ConversationStore} in the process's memory: durable across turns and across the loops that share it, not
 * across a restart. The default store, and the reference behaviour that {@link FileConversationStore} matches.
 * Thread-safe.
 */
public final class InMemoryConversationStore implements ConversationStore {

    private final ConcurrentHashMap<String, SessionData> sessions = new ConcurrentHashMap<>();
    private volatile boolean closed;

    /** An empty store. */
    public InMemoryConversationStore() {
    }

    @Override
    public long append(String sessionId, List<Message> messages) {
        List<Message> batch = List.copyOf(Objects.requireNonNull(messages, "messages"));
        SessionData data = open(sessionId);
        synchronized (data) {
            data.apply(new JournalRecord.Messages(batch));
            return data.messages.size();
        }
    }

    @Override
    public long appendAt(String sessionId, long position, List<Message> messages) {
        List<Message> batch = List.copyOf(Objects.requireNonNull(messages, "messages"));
        check(sessionId);
        SessionData data = position == 0 ? open(sessionId) : sessions.get(sessionId); // a failed call creates nothing
        if (data == null) {
            throw StoreSupport.notAt(sessionId, position, 0);
        }
        synchronized (data) {
            if (data.messages.size() != position) {
                throw StoreSupport.notAt(sessionId, position, data.messages.size());
            }
            data.apply(new JournalRecord.Messages(batch));
            return data.messages.size();
        }
    }

    @Override
    public void putState(String sessionId, String key, Object value) {
        StateValues.requireKey(key);
        Object normalized = StateValues.normalize(key, value);
        SessionData data = open(sessionId);
        synchronized (data) {
            data.apply(new JournalRecord.Put(key, normalized));
        }
    }

    @Override
    public void removeState(String sessionId, String key) {
        Objects.requireNonNull(key, "key");
        check(sessionId);
        SessionData data = sessions.get(sessionId);
        if (data == null) {
            return;
        }
        synchronized (data) {
            data.apply(new JournalRecord.Remove(key));
        }
    }

    @Override
    public StoredSession load(String sessionId) {
        check(sessionId);
        SessionData data = sessions.get(sessionId);
        if (data == null) {
            return new SessionData().toStored(sessionId, RecoveryReport.clean(0, 0));
        }
        synchronized (data) {
            return data.toStored(sessionId, RecoveryReport.clean(0, 0));
        }
    }

    @Override
    public boolean contains(String sessionId) {
        check(sessionId);
        return sessions.containsKey(sessionId);
    }

    @Override
    public List<String> sessions() {
        checkOpen();
        List<String> ids = new ArrayList<>(sessions.keySet());
        Collections.sort(ids);
        return List.copyOf(ids);
    }

    @Override
    public void delete(String sessionId) {
        check(sessionId);
        sessions.remove(sessionId);
    }

    @Override
    public void close() {
        closed = true;
    }

    private SessionData open(String sessionId) {
        check(sessionId);
        return sessions.computeIfAbsent(sessionId, id -> new SessionData());
    }

    private void check(String sessionId) {
        checkOpen();
        StoreSupport.requireSessionId(sessionId);
    }

    private void checkOpen() {
        if (closed) {
            throw StoreSupport.closed();
        }
    }
}
