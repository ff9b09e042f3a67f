package dev.pagantic.core;

import java.util.Objects;

/**
 * The correlation identifiers every event carries, linking it to its request, conversation and place in the span
 * tree. Absent identifiers are empty strings.
 *
 * @param requestId    stable per request
 * @param sessionId    stable per conversation; empty for single-shot requests
 * @param traceId      the distributed tracing root
 * @param spanId       the current unit of work
 * @param parentSpanId the parent span; empty at the root
 * @param causedBy     the causal link: a tool call id, a step name; empty when none
 */
public record Correlation(String requestId, String sessionId, String traceId, String spanId, String parentSpanId,
                          String causedBy) {

    public Correlation {
        Objects.requireNonNull(requestId, "requestId");
        Objects.requireNonNull(sessionId, "sessionId");
        Objects.requireNonNull(traceId, "traceId");
        Objects.requireNonNull(spanId, "spanId");
        Objects.requireNonNull(parentSpanId, "parentSpanId");
        Objects.requireNonNull(causedBy, "causedBy");
    }
}
