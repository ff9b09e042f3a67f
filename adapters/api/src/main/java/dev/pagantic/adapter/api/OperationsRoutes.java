package dev.pagantic.adapter.api;

import static dev.pagantic.adapter.api.Responses.JSON;
import static dev.pagantic.adapter.api.Responses.nativeError;
import static dev.pagantic.adapter.api.Responses.send;
import static dev.pagantic.adapter.api.Responses.shorten;

import dev.pagantic.core.ErrorCode;
import io.javalin.http.Context;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import org.jspecify.annotations.Nullable;
import tools.jackson.databind.node.ObjectNode;

/**
 * What operators and browsers ask, open without a token: {@code /health}, {@code /metrics}, the playground page at
 * {@code /}; and the JSON answers to unknown paths (404) and wrong methods (405).
 */
final class OperationsRoutes {

    /** The playground page, a classpath resource beside {@link ApiServer}. */
    private static final String PLAYGROUND = "playground.html";

    private final Admission admission;
    private final String modelName;
    private final byte @Nullable [] playgroundPage;

    OperationsRoutes(Admission admission, String modelName) {
        this.admission = admission;
        this.modelName = modelName;
        this.playgroundPage = readPlayground();
    }

    /**
     * {@code GET /health}: 200 while serving, 503 while draining, with the queue's state (slots, running, waiting,
     * capacity, admitted, refused, wait times); never needs a token.
     */
    void health(Context ctx) {
        boolean draining = admission.draining();
        ObjectNode root = JSON.createObjectNode().put("status", draining ? "draining" : "ok")
                .put("model", modelName);
        RequestQueue.Stats stats = admission.stats();
        root.putObject("queue").put("slots", stats.slots()).put("running", stats.running())
                .put("waiting", stats.waiting()).put("capacity", stats.capacity()).put("admitted", stats.admitted())
                .put("refused", stats.refused()).put("wait_ms_total", stats.waitedMillisTotal())
                .put("wait_ms_max", stats.waitedMillisMax());
        send(ctx, draining ? HttpStatuses.UNAVAILABLE : 200, JSON.writeValueAsString(root));
    }

    /**
     * {@code GET /metrics}: the queue's state in Prometheus' text format, as llama-server's {@code /metrics} reports
     * its requests processing and deferred; open like {@code /health}.
     */
    void metrics(Context ctx) {
        RequestQueue.Stats stats = admission.stats();
        StringBuilder text = new StringBuilder();
        metric(text, "pagantic_requests_processing", "gauge", "Inference requests running on a slot.",
                stats.running());
        metric(text, "pagantic_requests_deferred", "gauge", "Inference requests waiting in the queue.",
                stats.waiting());
        metric(text, "pagantic_requests_admitted_total", "counter", "Inference requests that reached a slot.",
                stats.admitted());
        metric(text, "pagantic_requests_refused_total", "counter",
                "Inference requests refused by the queue (full, timed out, client gone, shutting down).",
                stats.refused());
        metric(text, "pagantic_queue_wait_seconds_total", "counter", "Time admitted requests waited in the queue.",
                stats.waitedMillisTotal() / 1000.0);
        metric(text, "pagantic_queue_wait_seconds_max", "gauge", "The longest wait of an admitted request.",
                stats.waitedMillisMax() / 1000.0);
        ctx.status(200).contentType("text/plain; version=0.0.4; charset=utf-8").result(text.toString());
    }

    private static void metric(StringBuilder text, String name, String type, String help, Number value) {
        text.append("# HELP ").append(name).append(' ').append(help).append('\n')
                .append("# TYPE ").append(name).append(' ').append(type).append('\n')
                .append(name).append(' ').append(value).append('\n');
    }

    /**
     * {@code GET /}: the playground page, which chats through the native endpoint's event stream
     * ({@code POST /v1/requests} with {@code "stream": true}), draws each agent event in its timeline as it arrives,
     * then the request's timeline from {@code /v1/requests/{id}/events}. It is open like {@code /health}; the page
     * sends the bearer token the user types in.
     */
    void playground(Context ctx) {
        if (playgroundPage == null) {
            send(ctx, HttpStatuses.NOT_FOUND, nativeError("NOT_FOUND", "the playground page is not packaged"));
            return;
        }
        ctx.contentType("text/html; charset=utf-8").result(playgroundPage);
    }

    private static byte @Nullable [] readPlayground() {
        try (InputStream page = ApiServer.class.getResourceAsStream(PLAYGROUND)) {
            return page == null ? null : page.readAllBytes();
        } catch (IOException unreadable) {
            throw new UncheckedIOException(unreadable);
        }
    }

    /** Any path no route serves: OpenAI's 404 document ({@code unknown_url}). */
    void routeNotFound(Context ctx) {
        if (!ctx.res().isCommitted()) {
            send(ctx, HttpStatuses.NOT_FOUND, OpenAiError.document(HttpStatuses.NOT_FOUND, "unknown_url", null,
                    "Invalid URL (" + ctx.method() + " " + shorten(ctx.path()) + ")", ErrorCode.CONFIG_INVALID));
        }
    }

    /** A served path with another method: OpenAI's 405 document, with the {@code Allow} header Javalin set. */
    void methodNotAllowed(Context ctx) {
        if (!ctx.res().isCommitted()) {
            send(ctx, HttpStatuses.METHOD_NOT_ALLOWED, OpenAiError.document(HttpStatuses.METHOD_NOT_ALLOWED,
                    "method_not_allowed", null, ctx.method() + " is not allowed on " + shorten(ctx.path()),
                    ErrorCode.CONFIG_INVALID));
        }
    }
}
