package dev.pagantic.adapter.api;

import dev.pagantic.core.ErrorCode;
import dev.pagantic.core.Message;
import dev.pagantic.orchestrate.facade.FacadeJson;
import dev.pagantic.orchestrate.facade.SystemError;
import dev.pagantic.orchestrate.facade.SystemRequest;
import dev.pagantic.orchestrate.facade.SystemResponse;
import io.javalin.http.Context;
import jakarta.servlet.http.HttpServletResponse;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.UUID;
import java.util.regex.Pattern;
import org.eclipse.jetty.http.HttpException;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import tools.jackson.core.JacksonException;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;
import tools.jackson.databind.node.ObjectNode;

/**
 * The HTTP side of one request to {@link ApiServer}: its body read within the {@link ApiLimits}, its ids taken from
 * the headers, and its answer written as one JSON document in the dialect of the endpoint (OpenAI's error document
 * or the native response). Every answer is written and completed at once, so that a graceful shutdown that sees a
 * request finished finds its response on the wire.
 */
final class ApiExchange {

    private static final Logger LOG = LoggerFactory.getLogger(ApiExchange.class);
    private static final JsonMapper JSON = JsonMapper.builder().build();
    /** A client-chosen request id ({@code X-Request-Id}) is used when it is this tame. */
    private static final Pattern REQUEST_ID = Pattern.compile("[A-Za-z0-9._:-]{1,128}");
    static final String REQUEST_ID_HEADER = "X-Request-Id";
    static final int RETRY_AFTER_SECONDS = 1;

    private final ApiLimits limits;

    ApiExchange(ApiLimits limits) {
        this.limits = limits;
    }

    /** Refuses, with 400, more messages or longer ones than the limits allow. */
    void checkMessages(List<Message> messages) {
        if (messages.size() > limits.maxMessages()) {
            throw ApiFailure.badRequest("too many messages: " + messages.size() + " (the limit is "
                    + limits.maxMessages() + ")");
        }
        for (int i = 0; i < messages.size(); i++) {
            int length = messages.get(i).content().length();
            if (length > limits.maxMessageChars()) {
                throw ApiFailure.badRequest("messages[" + i + "] is too long: " + length + " characters (the limit is "
                        + limits.maxMessageChars() + ")");
            }
        }
    }

    /** The body as text, refused with 413 beyond the limit (by its declared length before reading it). */
    String readBody(Context ctx) {
        long declared = ctx.req().getContentLengthLong();
        if (declared > limits.maxBodyBytes()) {
            throw tooLarge();
        }
        int cap = (int) Math.min(limits.maxBodyBytes() + 1, Integer.MAX_VALUE - 8);
        try (InputStream in = ctx.req().getInputStream()) {
            byte[] bytes = in.readNBytes(cap);
            if (bytes.length > limits.maxBodyBytes()) {
                throw tooLarge();
            }
            return new String(bytes, StandardCharsets.UTF_8);
        } catch (ApiFailure tooLarge) {
            throw tooLarge;
        } catch (IOException | RuntimeException unreadable) {
            // Jetty's idle timeout, its minimum data rate (a runtime BadMessageException), its size limit on a chunked
            // body, or a reset connection. The exception's text names Jetty's classes, so it goes to the debug log
            // only, never to the client.
            if (statusOf(unreadable) == HttpStatuses.CONTENT_TOO_LARGE) {
                throw tooLarge();
            }
            LOG.debug("the body of {} {} could not be read: {}", ctx.method(), ctx.path(), unreadable.toString());
            throw new ApiFailure(HttpStatuses.REQUEST_TIMEOUT, ErrorCode.CANCELLED_TIMEOUT,
                    "the request body could not be read: it arrived too slowly or the connection failed", 0);
        }
    }

    /** The HTTP status Jetty attached to a failure (or to one of its causes); 0 when none. */
    private static int statusOf(Throwable failure) {
        for (Throwable t = failure; t != null; t = t.getCause()) {
            if (t instanceof HttpException http) {
                return http.getCode();
            }
        }
        return 0;
    }

    private ApiFailure tooLarge() {
        return new ApiFailure(HttpStatuses.CONTENT_TOO_LARGE, ErrorCode.CONFIG_INVALID,
                "the request body is larger than the limit of " + limits.maxBodyBytes() + " bytes", 0);
    }

    static JsonNode parse(String body) {
        try {
            return JSON.readTree(body);
        } catch (JacksonException notJson) {
            throw ApiFailure.badRequest("the request body is not JSON: " + notJson.getOriginalMessage());
        }
    }

    /** The client's {@code X-Request-Id} when it is tame, else a new one. */
    static String requestId(Context ctx) {
        String header = ctx.header(REQUEST_ID_HEADER);
        return header != null && REQUEST_ID.matcher(header).matches() ? header : UUID.randomUUID().toString();
    }

    /** The trace id of the W3C {@code traceparent} header; empty when there is none. */
    static String traceId(Context ctx) {
        return TraceParent.parse(ctx.header(TraceParent.HEADER)).map(TraceParent::traceId).orElse("");
    }

    static void sendError(Context ctx, Dialect dialect, SystemError error) {
        retryAfter(ctx, error.code());
        int status = HttpStatuses.of(error.code());
        send(ctx, status, dialect == Dialect.OPENAI ? ChatCompletionResponseMapper.error(error)
                : FacadeJson.toJson(SystemResponse.failure(SystemRequest.builder().build(), error)));
    }

    static void sendError(Context ctx, Dialect dialect, ApiFailure failure) {
        if (failure.retryAfterSeconds() > 0) {
            ctx.res().setHeader("Retry-After", String.valueOf(failure.retryAfterSeconds()));
        }
        send(ctx, failure.status(), dialect == Dialect.OPENAI
                ? ChatCompletionResponseMapper.error(failure.status(), failure.code().name(), failure.getMessage())
                : FacadeJson.toJson(SystemResponse.failure(SystemRequest.builder().build(),
                        SystemError.of(failure.code(), failure.getMessage()))));
    }

    /** Tells the client when to retry a saturated engine. */
    static void retryAfter(Context ctx, ErrorCode code) {
        if (code == ErrorCode.INFERENCE_SATURATED) {
            ctx.res().setHeader("Retry-After", String.valueOf(RETRY_AFTER_SECONDS));
        }
    }

    /** An error of the native endpoints that has no pagantic error code (an unknown request id). */
    static String nativeError(String code, String message) {
        ObjectNode root = JSON.createObjectNode();
        root.putObject("error").put("code", code).put("category", "NotFound").put("retryable", false)
                .put("message", message).putObject("details");
        return JSON.writeValueAsString(root);
    }

    /**
     * Writes a whole JSON response and completes it at once, rather than leaving it to Javalin after the handler:
     * a graceful shutdown that sees the request finished must find its response on the wire.
     */
    static void send(Context ctx, int status, String json) {
        HttpServletResponse res = ctx.res();
        byte[] bytes = json.getBytes(StandardCharsets.UTF_8);
        res.setStatus(status);
        res.setContentType("application/json");
        res.setCharacterEncoding("UTF-8");
        res.setContentLength(bytes.length);
        try (OutputStream out = res.getOutputStream()) {
            out.write(bytes);
        } catch (IOException disconnected) {
            LOG.debug("client went away before its {} response: {}", status, disconnected.toString());
        }
    }

    /** Which error document an endpoint answers with. */
    enum Dialect {
        /** {@code {"error": {"message", "type", "param", "code"}}}. */
        OPENAI,
        /** {@link FacadeJson}'s response document with its error object. */
        NATIVE
    }
}
