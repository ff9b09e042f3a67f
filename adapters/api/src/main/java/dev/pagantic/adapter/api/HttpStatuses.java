package dev.pagantic.adapter.api;

import dev.pagantic.core.ErrorCode;

/**
 * The HTTP status of a failed request, from its error code: the category decides, with a few codes that mean
 * something more precise in HTTP.
 *
 * <table>
 *   <caption>Status by category</caption>
 *   <tr><th>category</th><th>status</th><th>except</th></tr>
 *   <tr><td>ConfigurationFailure</td><td>400</td><td></td></tr>
 *   <tr><td>ToolFailure, ConstraintFailure, ValidationFailure</td><td>422</td><td></td></tr>
 *   <tr><td>InferenceFailure</td><td>502</td><td>INFERENCE_CONTEXT_EXCEEDED 400 (the request is too large for the
 *       model), INFERENCE_SATURATED 503 (try again later)</td></tr>
 *   <tr><td>OrchestrationFailure</td><td>500</td><td>ORCHESTRATION_CONCURRENT_USE 409 (two requests of one session at
 *       once)</td></tr>
 *   <tr><td>Cancellation</td><td>499</td><td>CANCELLED_TIMEOUT 408</td></tr>
 * </table>
 * 499 is nginx's "client closed request": the client went away (or cancelled), so usually nobody reads it.
 */
final class HttpStatuses {

    static final int BAD_REQUEST = 400;
    static final int UNAUTHORIZED = 401;
    static final int NOT_FOUND = 404;
    static final int METHOD_NOT_ALLOWED = 405;
    static final int REQUEST_TIMEOUT = 408;
    static final int CONFLICT = 409;
    static final int CONTENT_TOO_LARGE = 413;
    static final int UNSUPPORTED_MEDIA_TYPE = 415;
    static final int UNPROCESSABLE = 422;
    static final int TOO_MANY_REQUESTS = 429;
    static final int CLIENT_CLOSED_REQUEST = 499;
    static final int INTERNAL_ERROR = 500;
    static final int BAD_GATEWAY = 502;
    static final int UNAVAILABLE = 503;

    private HttpStatuses() {
    }

    /** The status of a failure with this code. */
    static int of(ErrorCode code) {
        switch (code) {
            case INFERENCE_CONTEXT_EXCEEDED:
                return BAD_REQUEST;
            case INFERENCE_SATURATED:
                return UNAVAILABLE;
            case ORCHESTRATION_CONCURRENT_USE:
                return CONFLICT;
            case CANCELLED_TIMEOUT:
                return REQUEST_TIMEOUT;
            default:
                break;
        }
        switch (code.category()) {
            case CONFIGURATION:
                return BAD_REQUEST;
            case TOOL:
            case CONSTRAINT:
            case VALIDATION:
                return UNPROCESSABLE;
            case INFERENCE:
                return BAD_GATEWAY;
            case CANCELLATION:
                return CLIENT_CLOSED_REQUEST;
            case ORCHESTRATION:
            default:
                return INTERNAL_ERROR;
        }
    }
}
