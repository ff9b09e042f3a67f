package dev.pagantic.tool;

import dev.pagantic.core.Correlation;
import java.time.Instant;
import java.util.Objects;

/**
 * A tool call is about to run (the specification's {@code ToolStartEvent}). Emitted for every call the executor
 * receives, also for one that then fails without running (unknown tool, unavailable, invalid arguments).
 *
 * @param correlation the tool's span: request, session and trace of the caller, a new span whose parent is the
 *                    caller's span, and {@code causedBy} = the tool call id
 * @param toolName    the name the model called
 * @param toolCallId  the id of the model's tool call, linking to the inference response that requested it
 * @param argsHash    the deterministic hash of the arguments ({@link ArgsHash})
 * @param timestamp   when the call started, by the call context's clock
 */
public record ToolStartEvent(Correlation correlation, String toolName, String toolCallId, String argsHash,
                             Instant timestamp) {

    public ToolStartEvent {
        Objects.requireNonNull(correlation, "correlation");
        Objects.requireNonNull(toolName, "toolName");
        Objects.requireNonNull(toolCallId, "toolCallId");
        Objects.requireNonNull(argsHash, "argsHash");
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
