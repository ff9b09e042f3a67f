package dev.pagantic.tool;

import dev.pagantic.core.Correlation;
import java.time.Instant;
import java.util.Objects;

/**
 * A tool call has ended (the specification's {@code ToolEndEvent}); every {@link ToolStartEvent} is followed by
 * exactly one of these, also when the call fails or the caller cancels.
 *
 * @param correlation the tool's span, as in the start event
 * @param toolName    the name the model called
 * @param toolCallId  the id of the model's tool call
 * @param durationMs  milliseconds from start to end, by the call context's clock
 * @param success     whether the tool returned normally
 * @param errorCode   the failure's code from the taxonomy ({@code TOOL_TIMEOUT}, {@code CANCELLED_SIGNAL}, ...);
 *                    empty on success
 * @param timestamp   when the call ended, by the call context's clock
 */
public record ToolEndEvent(Correlation correlation, String toolName, String toolCallId, long durationMs,
                           boolean success, String errorCode, Instant timestamp) {

    public ToolEndEvent {
        Objects.requireNonNull(correlation, "correlation");
        Objects.requireNonNull(toolName, "toolName");
        Objects.requireNonNull(toolCallId, "toolCallId");
        Objects.requireNonNull(errorCode, "errorCode");
        Objects.requireNonNull(timestamp, "timestamp");
    }

    /** The request id of the correlation. */
    public String requestId() {
        return correlation.requestId();
    }

    /** The session id of the correlation; empty outside conversations. */
    public String sessionId() {
        return correlation.sessionId();
    }

    /** The trace id of the correlation. */
    public String traceId() {
        return correlation.traceId();
    }

    /** The tool's span id. */
    public String spanId() {
        return correlation.spanId();
    }

    /** The caller's span id. */
    public String parentSpanId() {
        return correlation.parentSpanId();
    }

    /** The causal link: the tool call id. */
    public String causedBy() {
        return correlation.causedBy();
    }
}
