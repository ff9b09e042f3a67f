package dev.pagantic.memory;

import dev.pagantic.core.ErrorCode;
import dev.pagantic.core.PaganticException;
import java.math.BigInteger;
import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.jspecify.annotations.Nullable;

/**
 * The values that session state accepts: JSON values, normalised so that they compare equal after a round trip
 * through a durable store. Strings, booleans, integers (stored as {@link Long}, or {@link BigInteger} beyond the
 * range of a long), floating-point numbers (stored as {@link Double}), lists and string-keyed maps of these;
 * {@code null} only inside lists and maps. Lists and maps are deep, unmodifiable copies.
 */
final class StateValues {

    private StateValues() {
    }

    /** The normalised, immutable form of a top-level value (not null). */
    static Object normalize(String key, Object value) {
        if (value == null) {
            throw PaganticException.builder(ErrorCode.CONFIG_INVALID,
                    "session state values cannot be null (remove the key instead): " + key).detail("key", key).build();
        }
        try {
            return copy(value);
        } catch (IllegalArgumentException notJson) {
            throw PaganticException.builder(ErrorCode.CONFIG_INVALID,
                    "session state value for '" + key + "' is not a JSON value: " + notJson.getMessage())
                    .detail("key", key).cause(notJson).build();
        }
    }

    /** Validates a key: not blank. */
    static String requireKey(String key) {
        if (key == null || key.isBlank()) {
            throw PaganticException.of(ErrorCode.CONFIG_INVALID, "session state keys must not be blank");
        }
        return key;
    }

    private static @Nullable Object copy(@Nullable Object value) {
        if (value instanceof Double || value instanceof Float) {
            double number = ((Number) value).doubleValue();
            if (!Double.isFinite(number)) {
                throw new IllegalArgumentException("numbers must be finite, got " + number);
            }
            return number;
        }
        if (value == null || value instanceof String || value instanceof Boolean || value instanceof Long) {
            return value;
        }
        if (value instanceof Integer || value instanceof Short || value instanceof Byte) {
            return ((Number) value).longValue();
        }
        if (value instanceof BigInteger big) {
            return big.bitLength() < 64 ? (Object) big.longValue() : big;
        }
        if (value instanceof Map<?, ?> map) {
            Map<String, Object> copy = new LinkedHashMap<>();
            map.forEach((key, item) -> {
                if (!(key instanceof String name)) {
                    throw new IllegalArgumentException("map keys must be strings, got " + key);
                }
                copy.put(name, copy(item));
            });
            return Collections.unmodifiableMap(copy);
        }
        if (value instanceof List<?> list) {
            List<Object> copy = new ArrayList<>(list.size());
            list.forEach(item -> copy.add(copy(item)));
            return Collections.unmodifiableList(copy);
        }
        throw new IllegalArgumentException("unsupported type " + value.getClass().getName()
                + " (use strings, booleans, integers, doubles, lists and maps)");
    }
}
