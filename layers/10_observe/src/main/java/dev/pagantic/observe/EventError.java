package dev.pagantic.observe;

import dev.pagantic.core.ErrorCode;
import dev.pagantic.core.PaganticException;
import java.util.Objects;

/**
 * The failure an {@link Event} or {@link Span} records, as a value: a code and a message, never a live
 * {@link Throwable}. Keeping no exception means a recorded event holds no stack, no cause chain and no references to
 * the objects the exception captured, so it can be kept, copied and compared like any other value.
 *
 * @param code    the failure's code: an {@link ErrorCode} name for pagantic failures ({@code TOOL_TIMEOUT}), the
 *                exception's class name for any other throwable
 * @param message a human-readable description; may be empty
 */
public record EventError(String code, String message) {

    public EventError {
        Checks.requireNonBlank(code, "code");
        Objects.requireNonNull(message, "message");
    }

    /** The error of the given taxonomy code. */
    public static EventError of(ErrorCode code, String message) {
        Objects.requireNonNull(code, "code");
        return new EventError(code.name(), message);
    }

    /**
     * The error a throwable describes: for a {@link PaganticException} its code's name and its description (the
     * message without the code prefix); for any other throwable its class name and its message (empty when it has
     * none).
     */
    public static EventError from(Throwable throwable) {
        Objects.requireNonNull(throwable, "throwable");
        if (throwable instanceof PaganticException pagantic) {
            return new EventError(pagantic.code().name(), pagantic.description());
        }
        String message = throwable.getMessage();
        return new EventError(throwable.getClass().getName(), message == null ? "" : message);
    }
}
