package dev.pagantic.adapter.api;

import dev.pagantic.core.ErrorCode;
import dev.pagantic.core.PaganticException;
import java.util.Objects;
import org.jspecify.annotations.Nullable;

/**
 * A request the adapter itself refuses before (or instead of) handing it to the facade: a body that is not JSON or
 * too large, a parameter out of range, the queue full, the server shutting down. It carries the HTTP status, the
 * pagantic error code, and OpenAI's {@code code} and {@code param} for the OpenAI error document ({@link OpenAiError});
 * it never reaches a client as a stack trace.
 */
final class ApiFailure extends RuntimeException {

    private static final long serialVersionUID = 1L;

    private final int status;
    private final ErrorCode code;
    private final @Nullable String openAiCode; // null: OpenAI gives none
    private final @Nullable String param; // null: no single field is at fault
    private final int retryAfterSeconds;

    private ApiFailure(int status, ErrorCode code, @Nullable String openAiCode, @Nullable String param,
                       String message, int retryAfterSeconds) {
        super(Objects.requireNonNull(message, "message"), null, false, false);
        this.status = status;
        this.code = Objects.requireNonNull(code, "code");
        this.openAiCode = openAiCode;
        this.param = param;
        this.retryAfterSeconds = retryAfterSeconds;
    }

    /** A failure without an OpenAI code or parameter. */
    ApiFailure(int status, ErrorCode code, String message, int retryAfterSeconds) {
        this(status, code, null, null, message, retryAfterSeconds);
    }

    /** A failure with OpenAI's {@code code} (null for none) and no parameter. */
    static ApiFailure of(int status, ErrorCode code, @Nullable String openAiCode, String message) {
        return new ApiFailure(status, code, openAiCode, null, message, 0);
    }

    /** A 400 with {@code CONFIG_INVALID} and no single parameter at fault (a body that is not an object). */
    static ApiFailure badRequest(String message) {
        return new ApiFailure(400, ErrorCode.CONFIG_INVALID, null, null, message, 0);
    }

    /**
     * A 400 with {@code CONFIG_INVALID} naming the request field at fault.
     *
     * @param param      the field, as OpenAI names it ({@code temperature}, {@code messages[2].content})
     * @param openAiCode OpenAI's code: {@code invalid_type}, {@code invalid_value}, {@code decimal_above_max_value},
     *                   {@code missing_required_parameter}, {@code unsupported_parameter}, ...
     */
    static ApiFailure badParam(String param, String openAiCode, String message) {
        return new ApiFailure(400, ErrorCode.CONFIG_INVALID, openAiCode, Objects.requireNonNull(param, "param"),
                message, 0);
    }

    /** The facade's or core's refusal of a request (a bad schema, role or argument), with the status of its code. */
    static ApiFailure of(PaganticException refusal) {
        return new ApiFailure(HttpStatuses.of(refusal.code()), refusal.code(), OpenAiError.codeOf(refusal.code()),
                OpenAiError.paramOf(refusal.code()), refusal.description(), 0);
    }

    /** This failure answered with {@code Retry-After}. */
    ApiFailure retryAfter(int seconds) {
        return new ApiFailure(status, code, openAiCode, param, getMessage(), seconds);
    }

    int status() {
        return status;
    }

    ErrorCode code() {
        return code;
    }

    /** OpenAI's {@code error.code}; null for none. */
    @Nullable String openAiCode() {
        return openAiCode;
    }

    /** OpenAI's {@code error.param}: the request field at fault; null for none. */
    @Nullable String param() {
        return param;
    }

    /** Seconds for a {@code Retry-After} header; 0 for none. */
    int retryAfterSeconds() {
        return retryAfterSeconds;
    }
}
