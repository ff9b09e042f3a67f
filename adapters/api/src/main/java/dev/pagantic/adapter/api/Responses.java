package dev.pagantic.adapter.api;

import dev.pagantic.core.ErrorCode;
import dev.pagantic.orchestrate.facade.SystemError;
import io.javalin.http.Context;
import jakarta.servlet.http.HttpServletResponse;
import java.io.IOException;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import tools.jackson.databind.json.JsonMapper;
import tools.jackson.databind.node.ObjectNode;

/**
 * How every route answers: a whole JSON document written and completed at once, and errors in the endpoint's
 * {@link Dialect}, with {@code Retry-After} where the client should come back.
 */
final class Responses {

    /** The server logs under one name ({@code ApiServer}), whichever of its classes writes. */
    static final Logger LOG = LoggerFactory.getLogger(ApiServer.class);
    static final JsonMapper JSON = JsonMapper.builder().build();
    /** The {@code Retry-After} of a busy server (a full queue, a wait that timed out, a saturated engine). */
    static final int RETRY_AFTER_SECONDS = 1;

    private Responses() {
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

    /** Answers a request the facade failed, with the status of its error code. */
    static void sendError(Context ctx, Dialect dialect, SystemError error) {
        retryAfter(ctx, error.code());
        send(ctx, HttpStatuses.of(error.code()), dialect.document(error));
    }

    /** Answers a request the adapter refused. */
    static void sendError(Context ctx, Dialect dialect, ApiFailure failure) {
        if (failure.retryAfterSeconds() > 0) {
            ctx.res().setHeader("Retry-After", String.valueOf(failure.retryAfterSeconds()));
        }
        send(ctx, failure.status(), dialect.document(failure));
    }

    /** {@code Retry-After} for a failure that a later attempt may not meet (a saturated engine). */
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

    /** A failure of the server itself: logged, and answered with a generic 500 that names nothing internal. */
    static void unexpected(Exception failure, Context ctx) {
        LOG.error("unexpected failure serving {} {}", ctx.method(), ctx.path(), failure);
        if (!ctx.res().isCommitted()) {
            send(ctx, HttpStatuses.INTERNAL_ERROR, OpenAiError.document(HttpStatuses.INTERNAL_ERROR, "server_error",
                    null, "the server failed to handle the request", null));
        }
    }

    /** A client-chosen text echoed in a message, cut to a sane length. */
    static String shorten(String text) {
        return text.length() <= 128 ? text : text.substring(0, 128) + "...";
    }
}
