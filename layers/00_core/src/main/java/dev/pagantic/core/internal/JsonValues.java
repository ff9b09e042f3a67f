package dev.pagantic.core.internal;

import java.math.BigDecimal;
import java.math.BigInteger;
import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * Immutable deep copies of JSON-like values (maps, lists, strings, numbers, booleans, null) so that value types in
 * core can hold tool arguments and schema defaults without aliasing the caller's mutable collections. Key order is
 * kept: it matters for hashing arguments and for grammar generation. Not part of the public API.
 */
public final class JsonValues {

    private JsonValues() {
    }

    /** A deep, unmodifiable copy of a JSON object. Null values are kept (JSON {@code null}). */
    public static Map<String, Object> copyObject(Map<String, ?> source) {
        if (source.isEmpty()) {
            return Map.of();
        }
        Map<String, Object> copy = new LinkedHashMap<>();
        source.forEach((key, value) -> copy.put(requireKey(key), copyValue(value)));
        return Collections.unmodifiableMap(copy);
    }

    /** A deep, unmodifiable copy of any JSON value. */
    public static Object copyValue(Object value) {
        if (value == null || value instanceof String || value instanceof Boolean || isNumber(value)) {
            return value;
        }
        if (value instanceof Map<?, ?> map) {
            Map<String, Object> copy = new LinkedHashMap<>();
            map.forEach((key, item) -> copy.put(requireKey(key), copyValue(item)));
            return Collections.unmodifiableMap(copy);
        }
        if (value instanceof List<?> list) {
            List<Object> copy = new ArrayList<>(list.size());
            list.forEach(item -> copy.add(copyValue(item)));
            return Collections.unmodifiableList(copy);
        }
        throw new IllegalArgumentException("not a JSON value: " + value.getClass().getName());
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
}
