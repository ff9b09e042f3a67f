package dev.pagantic.adapter.api;

import dev.pagantic.core.ErrorCode;
import dev.pagantic.orchestrate.facade.SystemError;
import org.jspecify.annotations.Nullable;
import tools.jackson.databind.json.JsonMapper;
import tools.jackson.databind.node.ObjectNode;

/**
 * OpenAI's error document, {@code {"error": {"message", "type", "param", "code", "pagantic_code"}}}, as the OpenAI API
 * answers it, so that clients that switch on {@code type} or {@code code} (the SDKs raise by status; LangChain4j and
 * Spring AI surface the message and code) behave as against OpenAI:
 *
 * <table>
 *   <caption>type and code by failure</caption>
 *   <tr><th>status</th><th>type</th><th>code (examples)</th></tr>
 *   <tr><td>400</td><td>invalid_request_error</td><td>{@code invalid_value}, {@code invalid_type},
 *       {@code decimal_above_max_value}, {@code integer_below_min_value}, {@code missing_required_parameter},
 *       {@code unsupported_parameter}, {@code unsupported_value}, {@code context_length_exceeded},
 *       {@code model_not_available}; null for a body
 *       that is not JSON, as OpenAI</td></tr>
 *   <tr><td>401</td><td>invalid_request_error</td><td>{@code invalid_api_key}</td></tr>
 *   <tr><td>404</td><td>invalid_request_error</td><td>{@code model_not_found}, {@code unknown_url}</td></tr>
 *   <tr><td>405, 413, 415</td><td>invalid_request_error</td><td>{@code method_not_allowed},
 *       {@code request_too_large}, {@code unsupported_media_type}</td></tr>
 *   <tr><td>429</td><td>requests</td><td>{@code rate_limit_exceeded}</td></tr>
 *   <tr><td>408, 422, 499, 5xx</td><td>server_error</td><td>{@code timeout}, {@code invalid_model_output},
 *       {@code cancelled}, {@code server_error}, {@code engine_error}, {@code service_unavailable}</td></tr>
 * </table>
 * {@code param} names the request field at fault ({@code temperature}, {@code messages[1].role}) or is null.
 * {@code pagantic_code} is pagantic's {@link ErrorCode}, an extension field that OpenAI clients ignore. Messages name
 * the request's fields, never a Java class.
 */
final class OpenAiError {

    private static final JsonMapper JSON = JsonMapper.builder().build();

    private OpenAiError() {
    }

    /** The document of an adapter failure. */
    static String of(ApiFailure failure) {
        return document(failure.status(), failure.openAiCode(), failure.param(), failure.getMessage(),
                failure.code());
    }

    /** The document of a failure the facade reported. */
    static String of(SystemError error) {
        return document(HttpStatuses.of(error.code()), codeOf(error.code()), paramOf(error.code()), error.message(),
                error.code());
    }

    /**
     * The document of a failure with the given parts; {@code openAiCode} and {@code param} may be null, and
     * {@code paganticCode} too for a failure of the server itself (then {@code pagantic_code} is left out).
     */
    static String document(int status, @Nullable String openAiCode, @Nullable String param, String message,
                           @Nullable ErrorCode paganticCode) {
        ObjectNode root = JSON.createObjectNode();
        ObjectNode error = root.putObject("error").put("message", message).put("type", typeOf(status));
        putNullable(error, "param", param);
        putNullable(error, "code", openAiCode);
        if (paganticCode != null) { // null: a failure of the server itself, which has no code of its own
            error.put("pagantic_code", paganticCode.name());
        }
        return JSON.writeValueAsString(root);
    }

    private static void putNullable(ObjectNode node, String field, @Nullable String value) {
        if (value == null) {
            node.putNull(field);
        } else {
            node.put(field, value);
        }
    }

    /** OpenAI's {@code type} of a status. */
    static String typeOf(int status) {
        if (status == HttpStatuses.TOO_MANY_REQUESTS) {
            return "requests";
        }
        if (status >= 400 && status < 500 && status != HttpStatuses.REQUEST_TIMEOUT
                && status != HttpStatuses.UNPROCESSABLE && status != HttpStatuses.CLIENT_CLOSED_REQUEST) {
            return "invalid_request_error";
        }
        return "server_error";
    }

    /** OpenAI's {@code code} for a failure pagantic reports with this code. */
    static String codeOf(ErrorCode code) {
        switch (code) {
            case INFERENCE_CONTEXT_EXCEEDED:
                return "context_length_exceeded";
            case INFERENCE_SATURATED:
                return "service_unavailable";
            case INFERENCE_MODEL_UNAVAILABLE:
                return "model_not_available";
            case CONFIG_UNSUPPORTED_CAPABILITY:
                return "unsupported_parameter";
            case CONFIG_SCHEMA_REQUIRED:
            case CONFIG_GRAMMAR_INVALID:
            case CONFIG_INVALID:
                return "invalid_value";
            case CANCELLED_TIMEOUT:
                return "timeout";
            case CANCELLED_SIGNAL:
                return "cancelled";
            case ORCHESTRATION_CONCURRENT_USE:
                return "conflict";
            default:
                break;
        }
        switch (code.category()) {
            case TOOL:
            case CONSTRAINT:
            case VALIDATION:
                return "invalid_model_output";
            case INFERENCE:
                return "engine_error";
            case CONFIGURATION:
                return "invalid_value";
            default:
                return "server_error";
        }
    }

    /** The request field a failure with this code is about; null when it is not one field. */
    static @Nullable String paramOf(ErrorCode code) {
        switch (code) {
            case INFERENCE_CONTEXT_EXCEEDED:
                return "messages";
            case CONFIG_SCHEMA_REQUIRED:
                return "response_format";
            default:
                return null;
        }
    }
}
