package dev.pagantic.core;

import dev.pagantic.core.internal.JsonValues;
import java.util.List;
import java.util.Map;

/**
 * The one precondition helper of pagantic's modules, for engines and tools that want the same errors too: every
 * malformed argument or setting is a {@code CONFIG_INVALID} {@link PaganticException} (a ConfigurationFailure that the
 * facade turns into a response's error), never a bare {@link NullPointerException} or
 * {@link IllegalArgumentException}. Messages are built only when a check fails.
 */
public final class Preconditions {

    private Preconditions() {
    }

    /** The value; {@code CONFIG_INVALID} "{name} must not be null" when it is null. */
    public static <T> T requireNonNull(T value, String name) {
        if (value == null) {
            throw invalid(name + " must not be null");
        }
        return value;
    }

    /** {@code CONFIG_INVALID} with the message unless the condition holds. */
    public static void require(boolean condition, String message) {
        if (!condition) {
            throw invalid(message);
        }
    }

    /** Like {@link #require(boolean, String)}; the value is appended to the message only when the check fails. */
    public static void require(boolean condition, String message, Object value) {
        if (!condition) {
            throw invalid(message + value);
        }
    }

    /** The text; {@code CONFIG_INVALID} when it is null or blank. */
    public static String requireText(String value, String name) {
        requireNonNull(value, name);
        require(!value.isBlank(), name + " must not be blank");
        return value;
    }

    /** An immutable copy of the list; {@code CONFIG_INVALID} when it or one of its elements is null. */
    public static <T> List<T> requireElements(List<T> values, String name) {
        requireNonNull(values, name);
        try {
            return List.copyOf(values); // an immutable list comes back as it is: no copy, no walk
        } catch (NullPointerException nullElement) {
            throw invalid(name + " element must not be null");
        }
    }

    /** A deep, immutable copy of a JSON object; {@code CONFIG_INVALID} when it is null or holds a non-JSON value. */
    public static Map<String, Object> jsonObject(Map<String, ?> value, String name) {
        requireNonNull(value, name);
        try {
            return JsonValues.copyObject(value);
        } catch (IllegalArgumentException notJson) {
            throw PaganticException.of(ErrorCode.CONFIG_INVALID,
                    name + " must hold JSON values: " + notJson.getMessage(), notJson);
        }
    }

    /** The {@code CONFIG_INVALID} failure with the message. */
    public static PaganticException invalid(String message) {
        return PaganticException.of(ErrorCode.CONFIG_INVALID, message);
    }
}
