package dev.pagantic.orchestrate;

import dev.pagantic.core.ErrorCode;
import dev.pagantic.core.PaganticException;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/** Validation shared by this package's value types. Stateless. */
final class PlanChecks {

    private PlanChecks() {
    }

    /** {@code CONFIG_INVALID} with the given message when the condition does not hold. */
    static void require(boolean condition, String message) {
        if (!condition) {
            throw PaganticException.of(ErrorCode.CONFIG_INVALID, message);
        }
    }

    /** {@code CONFIG_INVALID} when the value is null. */
    static <T> T present(T value, String field) {
        if (value == null) {
            throw PaganticException.of(ErrorCode.CONFIG_INVALID, field + " must not be null");
        }
        return value;
    }

    /** An immutable copy; {@code CONFIG_INVALID} for a null list or null elements. */
    static <T> List<T> list(List<? extends T> values, String field) {
        present(values, field);
        for (T value : values) {
            require(value != null, field + " must not hold null elements");
        }
        return List.copyOf(values);
    }

    /** {@code CONFIG_INVALID} when the score is NaN. */
    static void score(double score, String what) {
        require(!Double.isNaN(score), what + " score must be a number, not NaN");
    }

    /** An immutable, order-preserving copy; {@code CONFIG_INVALID} for a null map or null keys or values. */
    static Map<String, Object> metadata(Map<String, ?> metadata, String what, String source) {
        present(metadata, what + " metadata");
        LinkedHashMap<String, Object> copy = new LinkedHashMap<>();
        metadata.forEach((key, value) -> {
            if (key == null || value == null) {
                throw PaganticException.builder(ErrorCode.CONFIG_INVALID,
                        what + " metadata must not hold null keys or values").detail("source", source).build();
            }
            copy.put(key, value);
        });
        return Collections.unmodifiableMap(copy);
    }
}
