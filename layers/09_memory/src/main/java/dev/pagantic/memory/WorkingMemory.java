package dev.pagantic.memory;

import dev.pagantic.core.Message;
import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;

/**
 * Per-turn, transient memory: retrieved context, tool results, intermediate inference output, and scratch values
 * that one turn needs and the next must not see. {@link #endTurn()} clears it; nothing here is ever stored.
 *
 * <p>Thread-safe (one internal lock), so parallel tool executions of a turn may record into it. Reads return
 * immutable copies.
 */
public final class WorkingMemory {

    /**
     * One message-shaped artefact of the turn.
     *
     * @param kind    what it is
     * @param message the message
     */
    public record Artifact(ArtifactKind kind, Message message) {
        /** Checks that neither component is null. */
        public Artifact {
            Objects.requireNonNull(kind, "kind");
            Objects.requireNonNull(message, "message");
        }
    }

    private final Object lock = new Object();
    private final List<Artifact> artifacts = new ArrayList<>();
    private final Map<String, Object> values = new LinkedHashMap<>();
    private long turn;

    /** An empty working memory at turn 0. */
    public WorkingMemory() {
    }

    /** Records one artefact of the turn. */
    public void add(ArtifactKind kind, Message message) {
        Artifact artifact = new Artifact(kind, message);
        synchronized (lock) {
            artifacts.add(artifact);
        }
    }

    /** Records several artefacts of one kind, in order. */
    public void addAll(ArtifactKind kind, List<Message> messages) {
        List<Artifact> batch = new ArrayList<>();
        for (Message message : Objects.requireNonNull(messages, "messages")) {
            batch.add(new Artifact(kind, message));
        }
        synchronized (lock) {
            artifacts.addAll(batch);
        }
    }

    /** Records retrieved context for this turn. */
    public void addContext(List<Message> context) {
        addAll(ArtifactKind.RETRIEVED_CONTEXT, context);
    }

    /** The retrieved context of this turn, in order. */
    public List<Message> context() {
        return messages(ArtifactKind.RETRIEVED_CONTEXT);
    }

    /** The messages of one kind recorded this turn, in order. */
    public List<Message> messages(ArtifactKind kind) {
        Objects.requireNonNull(kind, "kind");
        synchronized (lock) {
            List<Message> out = new ArrayList<>();
            for (Artifact artifact : artifacts) {
                if (artifact.kind() == kind) {
                    out.add(artifact.message());
                }
            }
            return List.copyOf(out);
        }
    }

    /** Every artefact recorded this turn, in order. */
    public List<Artifact> artifacts() {
        synchronized (lock) {
            return List.copyOf(artifacts);
        }
    }

    /** Sets a scratch value for this turn (any object; it is never serialised). */
    public void put(String key, Object value) {
        StateValues.requireKey(key);
        Objects.requireNonNull(value, "value");
        synchronized (lock) {
            values.put(key, value);
        }
    }

    /** A scratch value of this turn, if set. */
    public Optional<Object> get(String key) {
        Objects.requireNonNull(key, "key");
        synchronized (lock) {
            return Optional.ofNullable(values.get(key));
        }
    }

    /** A scratch value of this turn as the given type, if set and of that type. */
    public <T> Optional<T> get(String key, Class<T> type) {
        Objects.requireNonNull(type, "type");
        return get(key).filter(type::isInstance).map(type::cast);
    }

    /** The scratch values of this turn: an immutable copy in insertion order. */
    public Map<String, Object> values() {
        synchronized (lock) {
            return Collections.unmodifiableMap(new LinkedHashMap<>(values));
        }
    }

    /** Whether nothing was recorded this turn. */
    public boolean isEmpty() {
        synchronized (lock) {
            return artifacts.isEmpty() && values.isEmpty();
        }
    }

    /** The number of turns ended so far (0 during the first turn). */
    public long turn() {
        synchronized (lock) {
            return turn;
        }
    }

    /** Ends the turn: discards every artefact and value, and advances {@link #turn()}. */
    public void endTurn() {
        synchronized (lock) {
            artifacts.clear();
            values.clear();
            turn++;
        }
    }
}
