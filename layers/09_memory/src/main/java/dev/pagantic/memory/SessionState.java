package dev.pagantic.memory;

import dev.pagantic.core.ErrorCode;
import dev.pagantic.core.PaganticException;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.Set;
import java.util.TreeMap;
import java.util.concurrent.ConcurrentHashMap;
import java.util.function.Function;
import org.jspecify.annotations.Nullable;

/**
 * Key-value decisions that carry forward across turns: user preferences, resolved entities, flags. Thread-safe:
 * every operation is atomic, and {@link #update} is an atomic read-modify-write of one key.
 *
 * <p>Values are JSON values so that they can be persisted: strings, booleans, integers (held as {@link Long}),
 * finite floating-point numbers (held as {@link Double}), and lists and string-keyed maps of these (deep, immutable
 * copies). Values are normalised on the way in, so what {@link #get} returns equals what a durable store gives back
 * after a restart. Keys are non-blank strings; a null value is refused (use {@link #remove}).
 *
 * <p>A state may write through to a durable store: a {@link ChangeListener} sees every change, inside the key's
 * atomic section (so changes to one key reach it in the order they took effect); if the listener throws, the change
 * does not happen and the exception propagates. A listener must not call back into the same state.
 */
public final class SessionState {

    /** Sees every change of a {@link SessionState}, for writing it through to a store. */
    @FunctionalInterface
    public interface ChangeListener {
        /**
         * Called before a change takes effect; throwing cancels it.
         *
         * @param key   the key that changes
         * @param value the new (normalised) value, or empty if the key is removed
         */
        void changing(String key, Optional<Object> value);
    }

    private static final ChangeListener NONE = (key, value) -> { };

    private final ConcurrentHashMap<String, Object> values = new ConcurrentHashMap<>();
    private final ChangeListener listener;

    /** An empty state. */
    public SessionState() {
        this(Map.of(), NONE);
    }

    /** A state that starts with the given values (normalised; no listener is told about them). */
    public SessionState(Map<String, ?> initial) {
        this(initial, NONE);
    }

    /** A state that starts with the given values and tells the listener about every later change. */
    public SessionState(Map<String, ?> initial, ChangeListener listener) {
        this.listener = Objects.requireNonNull(listener, "listener");
        Objects.requireNonNull(initial, "initial").forEach((key, value) ->
                values.put(StateValues.requireKey(key), StateValues.normalize(key, value)));
    }

    /**
     * Sets a value.
     *
     * @return the previous value, if any
     * @throws PaganticException {@code CONFIG_INVALID} if the key is blank or the value is not a JSON value
     */
    public Optional<Object> put(String key, Object value) {
        StateValues.requireKey(key);
        Object normalized = StateValues.normalize(key, value);
        Object[] previous = new Object[1];
        values.compute(key, (k, old) -> {
            listener.changing(k, Optional.of(normalized));
            previous[0] = old;
            return normalized;
        });
        return Optional.ofNullable(previous[0]);
    }

    /**
     * Sets a value unless the key has one.
     *
     * @return the value now held: the existing one, or {@code value}
     */
    public Object putIfAbsent(String key, Object value) {
        StateValues.requireKey(key);
        Object normalized = StateValues.normalize(key, value);
        return values.compute(key, (k, old) -> {
            if (old != null) {
                return old;
            }
            listener.changing(k, Optional.of(normalized));
            return normalized;
        });
    }

    /**
     * Atomically replaces a key's value with the function's result; the function sees the current value (empty if
     * none) and returns the new one, or {@code null} to remove the key. Other updates of the same key wait.
     *
     * @return the new value, or empty if the key is now absent
     */
    public Optional<Object> update(String key, Function<Optional<Object>, @Nullable Object> remapping) {
        StateValues.requireKey(key);
        Objects.requireNonNull(remapping, "remapping");
        return Optional.ofNullable(values.compute(key, (k, old) -> {
            Object next = remapping.apply(Optional.ofNullable(old));
            if (next == null) {
                if (old != null) {
                    listener.changing(k, Optional.empty());
                }
                return null;
            }
            Object normalized = StateValues.normalize(k, next);
            listener.changing(k, Optional.of(normalized));
            return normalized;
        }));
    }

    /** The value of a key, if any. */
    public Optional<Object> get(String key) {
        return Optional.ofNullable(values.get(Objects.requireNonNull(key, "key")));
    }

    /**
     * The value of a key as the given type (integers are {@code Long}, numbers with a fraction {@code Double}).
     *
     * @throws PaganticException {@code CONFIG_INVALID} if the key holds a value of another type
     */
    public <T> Optional<T> get(String key, Class<T> type) {
        Objects.requireNonNull(type, "type");
        Optional<Object> value = get(key);
        if (value.isPresent() && !type.isInstance(value.get())) {
            throw PaganticException.builder(ErrorCode.CONFIG_INVALID, "session state '" + key + "' holds a "
                    + value.get().getClass().getSimpleName() + ", not a " + type.getSimpleName())
                    .detail("key", key).build();
        }
        return value.map(type::cast);
    }

    /**
     * Removes a key.
     *
     * @return the value it had, if any
     */
    public Optional<Object> remove(String key) {
        Objects.requireNonNull(key, "key");
        Object[] previous = new Object[1];
        values.computeIfPresent(key, (k, old) -> {
            listener.changing(k, Optional.empty());
            previous[0] = old;
            return null;
        });
        return Optional.ofNullable(previous[0]);
    }

    /** Whether the key has a value. */
    public boolean containsKey(String key) {
        return values.containsKey(Objects.requireNonNull(key, "key"));
    }

    /** The keys, sorted: an immutable copy. */
    public Set<String> keys() {
        return Collections.unmodifiableSet(new TreeMap<>(values).keySet());
    }

    /** All values, sorted by key: an immutable copy (the values themselves are immutable). */
    public Map<String, Object> snapshot() {
        return Collections.unmodifiableMap(new LinkedHashMap<>(new TreeMap<>(values)));
    }

    /** The number of keys. */
    public int size() {
        return values.size();
    }

    /** Whether there are no keys. */
    public boolean isEmpty() {
        return values.isEmpty();
    }

    /** Removes every key (each removal is atomic; the listener sees each). */
    public void clear() {
        for (String key : values.keySet()) {
            remove(key);
        }
    }
}
