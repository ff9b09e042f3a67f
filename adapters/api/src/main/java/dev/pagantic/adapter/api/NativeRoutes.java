package dev.pagantic.adapter.api;

import static dev.pagantic.adapter.api.Responses.JSON;
import static dev.pagantic.adapter.api.Responses.LOG;
import static dev.pagantic.adapter.api.Responses.nativeError;
import static dev.pagantic.adapter.api.Responses.send;

import dev.pagantic.core.Cancellation;
import dev.pagantic.core.Message;
import dev.pagantic.inference.StreamHandler;
import dev.pagantic.orchestrate.agent.AgentEventListener;
import dev.pagantic.orchestrate.facade.FacadeJson;
import dev.pagantic.orchestrate.facade.Orchestrator;
import dev.pagantic.orchestrate.facade.SystemRequest;
import dev.pagantic.orchestrate.facade.SystemResponse;
import io.javalin.http.Context;
import java.util.List;
import org.jspecify.annotations.Nullable;
import tools.jackson.core.JacksonException;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.node.ObjectNode;

/**
 * pagantic's own endpoints: {@code POST /v1/requests} (a {@code SystemRequest} in {@link FacadeJson}'s wire form, its
 * {@code SystemResponse} out) and {@code GET /v1/requests/{id}/events} (a request's event timeline).
 */
final class NativeRoutes {

    private final Admission admission;
    private final Inference inference;
    private final Orchestrator orchestrator;
    private final RequestIds ids;
    private final ApiLimits limits;
    private final @Nullable EventTimeline timeline;

    /**
     * @param orchestrator the default model's, which native requests run on
     * @param timeline     the recorded timelines; null when no event log is wired (then the events route is 404)
     */
    NativeRoutes(Admission admission, Inference inference, Orchestrator orchestrator, RequestIds ids, ApiLimits limits,
                 @Nullable EventTimeline timeline) {
        this.admission = admission;
        this.inference = inference;
        this.orchestrator = orchestrator;
        this.ids = ids;
        this.limits = limits;
        this.timeline = timeline;
    }

    /** {@code POST /v1/requests}: a native {@code SystemRequest} in, its {@code SystemResponse} out. */
    void request(Context ctx) {
        admission.serve(ctx, Dialect.NATIVE, raw -> {
            JsonNode body = RequestBodies.parse(raw); // syntax errors reported as for the OpenAI endpoint
            SystemRequest parsed = read(raw);
            checkLimits(parsed.messages());
            String requestId = ids.reserve(parsed.requestId().isEmpty() ? RequestIds.wanted(ctx)
                    : parsed.requestId());
            SystemRequest request = inference.withDefaultTimeout(parsed.toBuilder().requestId(requestId)
                    .traceId(parsed.traceId().isEmpty() ? RequestIds.traceId(ctx) : parsed.traceId())
                    .traceContext(RequestIds.traceContext(ctx))
                    .build());
            return new Admission.Admitted(() -> run(ctx, body, request), () -> ids.release(requestId));
        });
    }

    private static SystemRequest read(String raw) {
        try {
            return FacadeJson.requestFromJson(raw);
        } catch (JacksonException malformed) {
            // a value of the wrong JSON type that the wire format reads without checking: the client's mistake.
            // Jackson's text names Java types, so it is not echoed.
            LOG.debug("malformed native request: {}", malformed.getOriginalMessage());
            throw ApiFailure.badRequest("the request body is not a valid request: a field has the wrong JSON type");
        }
    }

    /** Runs the request; its agent events stream as SSE when the client asked ({@link RequestEventStream}). */
    private void run(Context ctx, JsonNode body, SystemRequest request) {
        ctx.res().setHeader(RequestIds.HEADER, request.requestId());
        Cancellation cancellation = new Cancellation();
        @Nullable RequestEventStream events = RequestEventStream.requested(ctx.req(), body)
                ? new RequestEventStream(ctx.res(), cancellation) : null;
        SystemResponse response = inference.execute(orchestrator, request, StreamHandler.NOOP,
                events == null ? AgentEventListener.NOOP : events, cancellation);
        if (events != null && events.end(response)) {
            return;
        }
        int status = response.error().map(error -> HttpStatuses.of(error.code())).orElse(200);
        response.error().ifPresent(error -> Responses.retryAfter(ctx, error.code()));
        send(ctx, status, FacadeJson.toJson(response));
    }

    private void checkLimits(List<Message> messages) {
        if (messages.size() > limits.maxMessages()) {
            throw ApiFailure.badParam("messages", "array_above_max_length", "too many messages: " + messages.size()
                    + " (the limit is " + limits.maxMessages() + ")");
        }
        for (int i = 0; i < messages.size(); i++) {
            int length = messages.get(i).content().length();
            if (length > limits.maxMessageChars()) {
                throw ApiFailure.badParam("messages[" + i + "].content", "string_above_max_length", "messages[" + i
                        + "] is too long: " + length + " characters (the limit is " + limits.maxMessageChars() + ")");
            }
        }
    }

    /** {@code GET /v1/requests/{id}/events}: the request's event timeline. */
    void events(Context ctx) {
        String requestId = ctx.pathParam("id");
        if (timeline == null) {
            send(ctx, HttpStatuses.NOT_FOUND, nativeError("NOT_FOUND", "no event log is wired to this server"));
            return;
        }
        ObjectNode document = timeline.of(requestId);
        if (document.path("events").isEmpty()) {
            send(ctx, HttpStatuses.NOT_FOUND,
                    nativeError("NOT_FOUND", "no events are recorded for request '" + requestId + "'"));
            return;
        }
        send(ctx, 200, JSON.writeValueAsString(document));
    }
}
