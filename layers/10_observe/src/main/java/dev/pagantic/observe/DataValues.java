package dev.pagantic.observe;

import java.lang.reflect.Array;
import java.math.BigDecimal;
import java.math.BigInteger;
import java.time.Duration;
import java.time.Instant;
import java.time.LocalDate;
import java.time.LocalDateTime;
import java.time.OffsetDateTime;
import java.time.ZonedDateTime;
import java.util.ArrayList;
import java.util.Collection;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.UUID;
import org.jspecify.annotations.Nullable;

/**
 * Deep, unmodifiable copies of the structured values events and spans carry, so that a recorded value can never be
 * changed through the caller's collections, nor a returned one change what was recorded.
 *
 * <p>Kept as they are: {@code null}, strings, booleans, characters, the JDK's immutable numbers, enum constants,
 * records (the project's immutable value type), and immutable {@code java.time} and {@link UUID} values. Copied:
 * maps (insertion order kept, keys turned into strings), sets (order kept), other collections and arrays (as lists),
 * recursively. Anything else (a mutable number such as {@code AtomicLong}, a builder, an arbitrary object) is
 * snapshotted as its {@code String.valueOf} at the time of recording.
 */
final class DataValues {

    private DataValues() {
    }

    /** A deep, unmodifiable copy of the map; a null key is refused. */
    static Map<String, @Nullable Object> copyMap(Map<?, ?> source) {
        Map<String, @Nullable Object> copy = new LinkedHashMap<>();
        source.forEach((key, value) -> {
            if (key == null) {
                throw Checks.invalid("data", "data keys must not be null");
            }
            copy.put(key.toString(), copyValue(value));
        });
        return Collections.unmodifiableMap(copy);
    }

    /** A deep, unmodifiable copy of the value (see the class comment). */
    static @Nullable Object copyValue(@Nullable Object value) {
        if (value == null || isImmutable(value)) {
            return value;
        }
        if (value instanceof Map<?, ?> map) {
            return copyMap(map);
        }
        if (value instanceof Set<?> set) {
            Set<Object> copy = new LinkedHashSet<>();
            set.forEach(item -> copy.add(copyValue(item)));
            return Collections.unmodifiableSet(copy);
        }
        if (value instanceof Collection<?> collection) {
            List<Object> copy = new ArrayList<>(collection.size());
            collection.forEach(item -> copy.add(copyValue(item)));
            return Collections.unmodifiableList(copy);
        }
        if (value.getClass().isArray()) {
            int length = Array.getLength(value);
            List<Object> copy = new ArrayList<>(length);
            for (int i = 0; i < length; i++) {
                copy.add(copyValue(Array.get(value, i)));
            }
            return Collections.unmodifiableList(copy);
        }
        return String.valueOf(value);
    }

    private static boolean isImmutable(Object value) {
        return value instanceof String || value instanceof Boolean || value instanceof Character
                || value instanceof Integer || value instanceof Long || value instanceof Double
                || value instanceof Float || value instanceof Short || value instanceof Byte
                || value instanceof BigDecimal || value instanceof BigInteger
                || value instanceof Enum<?> || value instanceof Record
                || value instanceof Instant || value instanceof Duration || value instanceof LocalDate
                || value instanceof LocalDateTime || value instanceof OffsetDateTime
                || value instanceof ZonedDateTime || value instanceof UUID;
    }
}
