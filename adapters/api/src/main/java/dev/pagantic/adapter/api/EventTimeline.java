package dev.pagantic.adapter.api;

import dev.pagantic.orchestrate.facade.RequestTimelines;
import dev.pagantic.orchestrate.facade.RequestTimelines.TimelineEvent;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Objects;
import tools.jackson.databind.json.JsonMapper;
import tools.jackson.databind.node.ArrayNode;
import tools.jackson.databind.node.ObjectNode;

/**
 * The event timeline of one request as JSON, for {@code GET /v1/requests/{id}/events}:
 *
 * <pre>{@code
 * {"request_id": "r-1", "events": [
 *   {"timestamp": "2026-01-01T00:00:00.000Z", "offset_ms": 0, "layer": "orchestrate",
 *    "action": "lifecycle_transition", "data": {"from_state": "INIT", "to_state": "PREPARE", ...}, "duration_ms": 0,
 *    "error": null, "correlation": {"request_id": "r-1", "session_id": "", "trace_id": "...", "span_id": "...",
 *    "parent_span_id": "", "caused_by": ""}}, ...]}
 * }</pre>
 * {@code offset_ms} is the time since the request's first event. The events come from the facade's
 * {@link RequestTimelines}, which the orchestrator writes to.
 */
final class EventTimeline {

    private static final JsonMapper JSON = JsonMapper.builder().build();

    private final RequestTimelines timelines;

    EventTimeline(RequestTimelines timelines) {
        this.timelines = Objects.requireNonNull(timelines, "timelines");
    }

    /** Whether events are recorded for the request id. */
    boolean has(String requestId) {
        return !timelines.of(requestId).isEmpty();
    }

    /** The timeline document of the request; empty events when nothing was recorded for it. */
    ObjectNode of(String requestId) {
        ObjectNode root = JSON.createObjectNode().put("request_id", requestId);
        ArrayNode array = root.putArray("events");
        List<TimelineEvent> events = timelines.of(requestId);
        Instant first = events.isEmpty() ? Instant.EPOCH : events.get(0).timestamp();
        for (TimelineEvent event : events) {
            ObjectNode node = array.addObject().put("timestamp", event.timestamp().toString())
                    .put("offset_ms", Duration.between(first, event.timestamp()).toMillis())
                    .put("layer", event.layer())
                    .put("action", event.action());
            node.set("data", JSON.valueToTree(event.data()));
            node.put("duration_ms", event.duration().toMillis());
            if (event.errorCode().isPresent()) {
                node.putObject("error").put("code", event.errorCode().get())
                        .put("message", event.errorMessage().orElse(""));
            } else {
                node.putNull("error");
            }
            node.putObject("correlation").put("request_id", event.requestId()).put("session_id", event.sessionId())
                    .put("trace_id", event.traceId()).put("span_id", event.spanId())
                    .put("parent_span_id", event.parentSpanId()).put("caused_by", event.causedBy());
        }
        return root;
    }
}
