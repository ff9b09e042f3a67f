package dev.pagantic.orchestrate.facade;

import static dev.pagantic.core.Preconditions.require;
import static dev.pagantic.core.Preconditions.requireNonNull;

import dev.pagantic.core.ErrorCode;
import dev.pagantic.core.FailureCategory;
import dev.pagantic.core.PaganticException;
import dev.pagantic.core.Preconditions;
import java.math.BigDecimal;
import java.math.BigInteger;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * A failure as the caller sees it (seed 001's {@code SystemError}), carried in {@link SystemResponse#error()}.
 * Callers switch on {@link #code()}, {@link #category()} and {@link #retryable()}, never on the message.
 *
 * <ul>
 *   <li>{@code code}: the stable machine-readable code ({@code TOOL_EXECUTION_FAILED}, ...).</li>
 *   <li>{@code category}: the failure taxonomy class; always the code's own category.</li>
 *   <li>{@code retryable}: whether re-submitting the same request may succeed. Usually the code's default, but a
 *       layer may override it (a tool failure is retryable if the tool is idempotent).</li>
 *   <li>{@code message}: a human-readable description, not stable; without the code prefix that
 *       {@link PaganticException#getMessage()} adds.</li>
 *   <li>{@code details}: structured diagnostics (model name, token counts, schema path...). An immutable copy whose
 *       values are JSON values: a value that is not one (an enum, a {@link java.time.Duration}) is stored as its
 *       {@code toString()}, so adapters can always serialise the details.</li>
 *   <li>{@code causedBy}: the underlying error, for chain traversal; empty when the failure started at pagantic's
 *       boundary. Not serialised by adapters.</li>
 * </ul>
 *
 * @param code      the error code
 * @param category  the failure category ({@code code.category()})
 * @param retryable whether retrying the same request may succeed
 * @param message   the human-readable description
 * @param details   structured diagnostic data
 * @param causedBy  the underlying cause, if any
 */
public record SystemError(ErrorCode code, FailureCategory category, boolean retryable, String message,
                          Map<String, Object> details, Optional<Throwable> causedBy) {

    public SystemError {
        requireNonNull(code, "code");
        requireNonNull(category, "category");
        require(category == code.category(),
                "category " + category + " does not match code " + code + " (" + code.category() + ")");
        requireNonNull(message, "message");
        details = jsonDetails(requireNonNull(details, "details"));
        requireNonNull(causedBy, "causedBy");
    }

    /** An error with the code's category and default retryability, no details and no cause. */
    public static SystemError of(ErrorCode code, String message) {
        requireNonNull(code, "code");
        return new SystemError(code, code.category(), code.retryable(), message, Map.of(), Optional.empty());
    }

    /**
     * The error a {@link PaganticException} describes: its code, category, retryable flag (which may differ from the
     * code's default), description, details and cause ({@link Throwable#getCause()}; empty when it has none).
     */
    public static SystemError from(PaganticException exception) {
        requireNonNull(exception, "exception");
        return new SystemError(exception.code(), exception.category(), exception.retryable(),
                exception.description(), exception.details(), Optional.ofNullable(exception.getCause()));
    }

    /**
     * An exception carrying this error (code, message, retryable flag, details, cause), for code that reports
     * failures by throwing; {@code SystemError.from(e.toException())} gives back an equal error.
     */
    public PaganticException toException() {
        return PaganticException.builder(code, message).retryable(retryable).details(details)
                .cause(causedBy.orElse(null)).build();
    }

    private static Map<String, Object> jsonDetails(Map<String, ?> source) {
        Map<String, Object> copy = new LinkedHashMap<>();
        source.forEach((key, value) -> copy.put(requireNonNull(key, "detail key"), jsonOrText(value)));
        return Collections.unmodifiableMap(copy);
    }

    private static Object jsonOrText(Object value) {
        if (value == null || value instanceof String || value instanceof Boolean || value instanceof Integer
                || value instanceof Long || value instanceof Double || value instanceof Float
                || value instanceof Short || value instanceof Byte || value instanceof BigDecimal
                || value instanceof BigInteger) {
            return value;
        }
        if (value instanceof Map<?, ?> map) {
            Map<String, Object> copy = new LinkedHashMap<>();
            map.forEach((key, item) -> copy.put(String.valueOf(key), jsonOrText(item)));
            return Collections.unmodifiableMap(copy);
        }
        if (value instanceof List<?> list) {
            return list.stream().map(SystemError::jsonOrText).toList();
        }
        return value.toString();
    }
}
