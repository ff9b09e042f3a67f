package dev.pagantic.engine.openai;

import dev.pagantic.core.ErrorCode;
import dev.pagantic.core.PaganticException;
import java.io.IOException;
import java.net.ConnectException;
import java.net.http.HttpConnectTimeoutException;
import java.net.http.HttpHeaders;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.time.Instant;
import java.time.ZonedDateTime;
import java.time.format.DateTimeFormatter;
import java.time.format.DateTimeParseException;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.regex.Pattern;
import tools.jackson.core.JacksonException;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;

/**
 * Turns what went wrong on the wire into {@link PaganticException}s with the engine's codes. Every failure carries the
 * details {@code endpoint} and {@code model}, and {@code status} when the server answered; nothing here ever holds the
 * API key: the server's own message is scrubbed of it before it is quoted.
 */
final class HttpFailures {

    /** The detail naming the HTTP status. */
    static final String STATUS = "status";
    /** The detail naming the endpoint URL. */
    static final String ENDPOINT = "endpoint";
    /** The detail with the wait a rate-limited server asked for, as {@code RetryPolicy} reads it. */
    static final String RETRY_AFTER_MS = "retry_after_ms";

    /** How much of a server's message is quoted: enough to diagnose, not a whole HTML error page. */
    private static final int MAX_QUOTED_CHARS = 500;

    /** The ways servers say that a prompt does not fit: OpenAI, vLLM, llama-server, Ollama, LM Studio... */
    private static final Pattern CONTEXT_EXCEEDED = Pattern.compile(
            "context[ _-]?(length|size|window)|maximum context|exceeds? (the )?(available )?context"
                    + "|context_length_exceeded|exceed_context_size", Pattern.CASE_INSENSITIVE);

    private final String endpoint;
    private final String model;
    private final String apiKey; // empty when none; only ever used to scrub it out of quoted text
    private final JsonMapper json;

    HttpFailures(String endpoint, String model, String apiKey, JsonMapper json) {
        this.endpoint = endpoint;
        this.model = model;
        this.apiKey = apiKey;
        this.json = json;
    }

    String endpoint() {
        return endpoint;
    }

    /** A failure for a non-2xx answer, from its status, headers and (possibly empty) body. */
    PaganticException fromStatus(int status, HttpHeaders headers, byte[] body, Instant now) {
        ServerError error = serverError(body);
        String quoted = error.message().isEmpty() ? "" : ": " + error.message();
        PaganticException.Builder builder;
        if (status == 429) {
            builder = PaganticException.builder(ErrorCode.INFERENCE_SATURATED,
                            "the server is rate limiting requests (HTTP 429)" + quoted).retryable(true)
                    .detail(RETRY_AFTER_MS, retryAfterMillis(headers, now).orElse(null));
        } else if (status >= 500) {
            builder = PaganticException.builder(ErrorCode.INFERENCE_ENGINE_ERROR,
                            "the server failed (HTTP " + status + ")" + quoted).retryable(true)
                    .detail(RETRY_AFTER_MS, retryAfterMillis(headers, now).orElse(null));
        } else if (status == 404) {
            builder = PaganticException.builder(ErrorCode.INFERENCE_MODEL_UNAVAILABLE, "model '" + model
                    + "' is not available at " + endpoint + " (HTTP 404: an unknown model, or a base URL that does"
                    + " not serve " + java.net.URI.create(endpoint).getPath() + ")" + quoted);
        } else if (status == 401 || status == 403) {
            builder = PaganticException.builder(ErrorCode.CONFIG_INVALID, "the server refused the credentials (HTTP "
                    + status + ")" + quoted + (apiKey.isEmpty()
                    ? "; no API key is configured: set apiKey(...) on the engine's builder"
                    : "; check the engine's API key and its access to model '" + model + "'"));
        } else if (status >= 400 && CONTEXT_EXCEEDED.matcher(error.searchable()).find()) {
            builder = PaganticException.builder(ErrorCode.INFERENCE_CONTEXT_EXCEEDED,
                    "the request does not fit the model's context window (HTTP " + status + ")" + quoted);
        } else if (status >= 400) {
            builder = PaganticException.builder(ErrorCode.CONFIG_INVALID,
                    "the server refused the request (HTTP " + status + ")" + quoted);
        } else {
            // 1xx and 3xx: redirects are not followed, a POST must not be silently re-sent elsewhere
            String location = headers.firstValue("Location").map(to -> " to " + scrub(to)).orElse("");
            builder = PaganticException.builder(ErrorCode.CONFIG_INVALID, "unexpected HTTP " + status + location
                    + " from " + endpoint + ": configure the final URL as the base URL");
        }
        return builder.detail(STATUS, status).detail("error_type", error.type()).detail("error_code", error.code())
                .details(common()).build();
    }

    /** An error object the server sent inside a stream or a 200 answer: context overflow or a server failure. */
    PaganticException inBand(JsonNode errorNode) {
        ServerError error = fromErrorNode(errorNode);
        String quoted = error.message().isEmpty() ? "" : ": " + error.message();
        ErrorCode code = CONTEXT_EXCEEDED.matcher(error.searchable()).find()
                ? ErrorCode.INFERENCE_CONTEXT_EXCEEDED : ErrorCode.INFERENCE_ENGINE_ERROR;
        String what = code == ErrorCode.INFERENCE_CONTEXT_EXCEEDED
                ? "the request does not fit the model's context window" : "the server reported an error";
        return PaganticException.builder(code, what + quoted).detail("error_type", error.type())
                .detail("error_code", error.code()).details(common()).build();
    }

    /** A failure to reach the server or to read its answer. */
    PaganticException io(IOException failure, boolean midStream) {
        String message;
        if (failure instanceof HttpConnectTimeoutException) {
            message = "timed out connecting to " + endpoint;
        } else if (failure instanceof ConnectException) {
            message = "cannot connect to " + endpoint + " (is the server running?)";
        } else if (midStream) {
            message = "the connection to " + endpoint + " dropped while streaming the answer";
        } else {
            message = "I/O failure talking to " + endpoint;
        }
        String reason = failure.getMessage() == null ? failure.getClass().getSimpleName() : failure.getMessage();
        return PaganticException.builder(ErrorCode.INFERENCE_ENGINE_ERROR, message + ": " + scrub(reason))
                .retryable(true).cause(failure).details(common()).build();
    }

    /** A stream that ended before the server said it was done. */
    PaganticException truncatedStream() {
        return PaganticException.builder(ErrorCode.INFERENCE_ENGINE_ERROR, "the stream from " + endpoint
                        + " ended before the answer was complete (no finish reason and no [DONE])")
                .retryable(true).details(common()).build();
    }

    /** An answer that is not the chat completions format. */
    PaganticException malformed(String what, Throwable cause) {
        return PaganticException.builder(ErrorCode.INFERENCE_MALFORMED_RESPONSE, "malformed answer from "
                + endpoint + ": " + scrub(what)).cause(cause).details(common()).build();
    }

    /** The engine's own request timeout ran out: the server is too slow or hung. */
    PaganticException requestTimedOut(Duration timeout, Throwable cause) {
        return PaganticException.builder(ErrorCode.INFERENCE_ENGINE_ERROR, "no complete answer from " + endpoint
                        + " within the request timeout of " + timeout).retryable(true).cause(cause)
                .detail("timeout_ms", timeout.toMillis()).details(common()).build();
    }

    /** The failure with the endpoint and model added to its details (for cancellations and the like). */
    PaganticException withEndpoint(PaganticException failure) {
        if (endpoint.equals(failure.details().get(ENDPOINT))) {
            return failure;
        }
        return PaganticException.builder(failure.code(), failure.description()).retryable(failure.retryable())
                .cause(failure.getCause()).details(failure.details()).details(common()).build();
    }

    /** The text with the API key replaced, so that no message or detail ever carries it. */
    String scrub(String text) {
        return apiKey.isEmpty() ? text : text.replace(apiKey, "***");
    }

    private Map<String, Object> common() {
        return Map.of(ENDPOINT, endpoint, "model", model);
    }

    /**
     * The wait a server asked for: OpenAI's {@code retry-after-ms}, else {@code Retry-After} in seconds or as an HTTP
     * date (relative to {@code now}).
     */
    static Optional<Long> retryAfterMillis(HttpHeaders headers, Instant now) {
        Optional<Long> millis = headers.firstValue("retry-after-ms").flatMap(HttpFailures::nonNegative)
                .map(Math::round);
        if (millis.isPresent()) {
            return millis;
        }
        Optional<String> value = headers.firstValue("Retry-After");
        if (value.isEmpty()) {
            return Optional.empty();
        }
        Optional<Long> seconds = nonNegative(value.get()).map(delay -> Math.round(delay * 1000));
        if (seconds.isPresent()) {
            return seconds;
        }
        try {
            Instant at = ZonedDateTime.parse(value.get().strip(), DateTimeFormatter.RFC_1123_DATE_TIME).toInstant();
            return Optional.of(Math.max(0, Duration.between(now, at).toMillis()));
        } catch (DateTimeParseException notADate) {
            return Optional.empty();
        }
    }

    /** A non-negative, finite, plausible number (below a billion). */
    private static Optional<Double> nonNegative(String value) {
        try {
            double number = Double.parseDouble(value.strip());
            if (Double.isFinite(number) && number >= 0 && number < 1e9) {
                return Optional.of(number);
            }
        } catch (NumberFormatException notANumber) {
            // an HTTP date, or garbage
        }
        return Optional.empty();
    }

    /** What the server said: OpenAI's {@code {"error": {...}}}, a bare message, or the body's text. */
    private ServerError serverError(byte[] body) {
        String text = new String(body, StandardCharsets.UTF_8).strip();
        if (text.isEmpty()) {
            return new ServerError("", "", "");
        }
        try {
            JsonNode root = json.readTree(text);
            if (root != null && root.isObject()) {
                JsonNode error = root.path("error");
                if (!error.isMissingNode() && !error.isNull()) {
                    return fromErrorNode(error);
                }
                for (String field : new String[] {"message", "detail"}) {
                    if (root.path(field).isString()) {
                        return new ServerError(quote(root.path(field).stringValue()), "", "");
                    }
                }
            }
        } catch (JacksonException notJson) {
            // quoted as text below
        }
        return new ServerError(quote(text), "", "");
    }

    private ServerError fromErrorNode(JsonNode error) {
        if (error.isString()) {
            return new ServerError(quote(error.stringValue()), "", "");
        }
        String message = error.path("message").isString() ? error.path("message").stringValue() : error.toString();
        String type = error.path("type").isValueNode() ? error.path("type").asString("") : "";
        String code = error.path("code").isValueNode() ? error.path("code").asString("") : "";
        return new ServerError(quote(message), quote(type), quote(code));
    }

    private String quote(String text) {
        String single = scrub(text).replaceAll("\\s+", " ").strip();
        return single.length() <= MAX_QUOTED_CHARS ? single : single.substring(0, MAX_QUOTED_CHARS) + "...";
    }

    /** A server's error: message, and OpenAI's type and code when given (empty otherwise). */
    private record ServerError(String message, String type, String code) {
        ServerError {
            type = type.isEmpty() ? null : type;
            code = code.isEmpty() ? null : code;
        }

        String searchable() {
            return (message + " " + (type == null ? "" : type) + " " + (code == null ? "" : code))
                    .toLowerCase(Locale.ROOT);
        }
    }
}
