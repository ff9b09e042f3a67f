package dev.pagantic.core.internal;

import java.math.BigDecimal;
import java.math.BigInteger;
import java.util.AbstractMap;
import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.function.BiConsumer;

/**
 * Immutable deep copies of JSON-like values (maps, lists, strings, numbers, booleans, null) so that value types in
 * core can hold tool arguments and schema defaults without aliasing the caller's mutable collections. Key order is
 * kept: it matters for hashing arguments and for grammar generation. Objects copied here are marked, so that copying
 * one again (a tool call's arguments passed on from record to record) returns it as it is. Not part of the public
 * API.
 */
public final class JsonValues {

    private JsonValues() {
    }

    /**
     * The deepest nesting copied, as Jackson's default read limit: deeper values are refused rather than risking a
     * stack overflow.
     */
    public static final int MAX_DEPTH = 1000;

    /**
     * A deep, unmodifiable copy of a JSON object. Null values are kept (JSON {@code null}).
     *
     * @throws IllegalArgumentException for a value that is not JSON, or nested deeper than {@value #MAX_DEPTH}
     */
    @SuppressWarnings("unchecked")
    public static Map<String, Object> copyObject(Map<String, ?> source) {
        if (source instanceof FrozenObject) {
            return (Map<String, Object>) source;
        }
        return source.isEmpty() ? Map.of() : copyMap(source, 1);
    }

    /**
     * A deep, unmodifiable copy of any JSON value.
     *
     * @throws IllegalArgumentException for a value that is not JSON, or nested deeper than {@value #MAX_DEPTH}
     */
    public static Object copyValue(Object value) {
        return copy(value, 0);
    }

    private static Object copy(Object value, int depth) {
        if (value == null || value instanceof String || value instanceof Boolean || isNumber(value)) {
            return value;
        }
        if (value instanceof FrozenObject) {
            return value;
        }
        if (depth >= MAX_DEPTH) {
            throw new IllegalArgumentException("nested deeper than " + MAX_DEPTH + " levels");
        }
        if (value instanceof Map<?, ?> map) {
            return copyMap(map, depth + 1);
        }
        if (value instanceof List<?> list) {
            List<Object> copy = new ArrayList<>(list.size());
            list.forEach(item -> copy.add(copy(item, depth + 1)));
            return Collections.unmodifiableList(copy);
        }
        throw new IllegalArgumentException("not a JSON value: " + value.getClass().getName());
    }

    private static Map<String, Object> copyMap(Map<?, ?> map, int depth) {
        Map<String, Object> copy = new LinkedHashMap<>();
        map.forEach((key, item) -> copy.put(requireKey(key), copy(item, depth)));
        return new FrozenObject(copy);
    }

    private static boolean isNumber(Object value) {
        return value instanceof Integer || value instanceof Long || value instanceof Double || value instanceof Float
                || value instanceof Short || value instanceof Byte || value instanceof BigDecimal
                || value instanceof BigInteger;
    }

    private static String requireKey(Object key) {
        if (key instanceof String string) {
            return string;
        }
        throw new IllegalArgumentException("JSON object keys must be strings, got: " + key);
    }

    /** An unmodifiable JSON object whose values this class has copied: deeply immutable, so never copied again. */
    private static final class FrozenObject extends AbstractMap<String, Object> {
        private final Map<String, Object> entries;

        FrozenObject(Map<String, Object> copy) {
            this.entries = Collections.unmodifiableMap(copy);
        }

        @Override
        public Set<Entry<String, Object>> entrySet() {
            return entries.entrySet();
        }

        @Override
        public int size() {
            return entries.size();
        }

        @Override
        public boolean containsKey(Object key) {
            return entries.containsKey(key);
        }

        @Override
        public Object get(Object key) {
            return entries.get(key);
        }

        @Override
        public Object getOrDefault(Object key, Object fallback) {
            return entries.getOrDefault(key, fallback);
        }

        @Override
        public void forEach(BiConsumer<? super String, ? super Object> action) {
            entries.forEach(action);
        }

        @Override
        public boolean equals(Object other) {
            return other == this || entries.equals(other);
        }

        @Override
        public int hashCode() {
            return entries.hashCode();
        }
    }
}
