package dev.pagantic.adapter.api;

import dev.pagantic.core.ErrorCode;
import dev.pagantic.core.PaganticException;
import java.util.Objects;

/**
 * A request the adapter itself refuses before (or instead of) handing it to the facade: a body that is not JSON or
 * too large, a limit exceeded, the concurrency limit reached, the server shutting down. It carries the HTTP status and
 * the pagantic error code the response reports; it never reaches a client as a stack trace.
 */
final class ApiFailure extends RuntimeException {

    private static final long serialVersionUID = 1L;

    private final int status;
    private final ErrorCode code;
    private final int retryAfterSeconds;

    ApiFailure(int status, ErrorCode code, String message, int retryAfterSeconds) {
        super(Objects.requireNonNull(message, "message"), null, false, false);
        this.status = status;
        this.code = Objects.requireNonNull(code, "code");
        this.retryAfterSeconds = retryAfterSeconds;
    }

    /** A 400 with {@code CONFIG_INVALID}: the request is malformed or breaks a limit. */
    static ApiFailure badRequest(String message) {
        return new ApiFailure(400, ErrorCode.CONFIG_INVALID, message, 0);
    }

    /** The facade's or core's refusal of a request (a bad schema, role or argument), with the status of its code. */
    static ApiFailure of(PaganticException refusal) {
        return new ApiFailure(HttpStatuses.of(refusal.code()), refusal.code(), refusal.description(), 0);
    }

    int status() {
        return status;
    }

    ErrorCode code() {
        return code;
    }

    /** Seconds for a {@code Retry-After} header; 0 for none. */
    int retryAfterSeconds() {
        return retryAfterSeconds;
    }
}
