package dev.pagantic.orchestrate.facade;

import dev.pagantic.core.ErrorCode;
import dev.pagantic.core.PaganticException;
import dev.pagantic.core.internal.JsonValues;
import java.util.Map;

/**
 * The facade's value checks: every malformed value is a {@code CONFIG_INVALID} {@link PaganticException} (a
 * ConfigurationFailure an adapter can turn into a {@link SystemError}), never a bare {@link NullPointerException}.
 */
final class Checks {

    private Checks() {
    }

    static <T> T notNull(T value, String field) {
        if (value == null) {
            throw invalid(field + " must not be null");
        }
        return value;
    }

    static void require(boolean condition, String message) {
        if (!condition) {
            throw invalid(message);
        }
    }

    /** Like {@link #require(boolean, String)}; the value is appended to the message only when the check fails. */
    static void require(boolean condition, String message, Object value) {
        if (!condition) {
            throw invalid(message + value);
        }
    }

    static String text(String value, String field) {
        notNull(value, field);
        require(!value.isBlank(), field + " must not be blank");
        return value;
    }

    static Map<String, Object> jsonObject(Map<String, ?> value, String field) {
        notNull(value, field);
        try {
            return JsonValues.copyObject(value);
        } catch (IllegalArgumentException notJson) {
            throw PaganticException.of(ErrorCode.CONFIG_INVALID,
                    field + " must hold JSON values: " + notJson.getMessage(), notJson);
        }
    }

    /** An immutable copy of a list whose elements are all non-null. */
    static <T> java.util.List<T> list(java.util.List<T> values, String field) {
        notNull(values, field);
        for (T value : values) {
            notNull(value, field + " element");
        }
        return java.util.List.copyOf(values);
    }

    static PaganticException invalid(String message) {
        return PaganticException.of(ErrorCode.CONFIG_INVALID, message);
    }
}
