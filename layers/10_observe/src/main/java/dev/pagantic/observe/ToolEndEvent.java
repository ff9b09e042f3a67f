package dev.pagantic.observe;

import java.time.Duration;
import java.util.Objects;

/**
 * A tool call has ended (the specification's {@code ToolEndEvent}). As a generic event: layer {@code tool}, action
 * {@value #ACTION}, the duration, data {@code tool_name}, {@code tool_call_id}, {@code duration_ms},
 * {@code success}, {@code error_code}; a failed call's event also carries an {@link EventError} with that code.
 *
 * @param context    where and when (the end); carries the correlation ids
 * @param toolName   the tool the model called; not blank
 * @param toolCallId the id of the model's tool call; required, so a blank one is refused
 * @param durationMs milliseconds the call took
 * @param success    whether the tool returned normally
 * @param errorCode  the failure's code from the taxonomy ({@code TOOL_TIMEOUT}, ...): required when the call failed,
 *                   empty when it succeeded
 */
public record ToolEndEvent(EventContext context, String toolName, String toolCallId, long durationMs,
                           boolean success, String errorCode) implements SchemaEvent {

    /** The generic event's action. */
    public static final String ACTION = "tool_end";

    public ToolEndEvent {
        Objects.requireNonNull(context, "context");
        Checks.requireNonBlank(toolName, "tool_name");
        Checks.requireNonBlank(toolCallId, "tool_call_id");
        Checks.requireNonNegative(durationMs, "duration_ms");
        Objects.requireNonNull(errorCode, "error_code");
        if (success && !errorCode.isEmpty()) {
            throw Checks.invalid("error_code", "a successful tool call has no error_code, got " + errorCode);
        }
        if (!success && errorCode.isBlank()) {
            throw Checks.invalid("error_code", "a failed tool call must carry an error_code");
        }
    }

    /** The end of a successful call. */
    public static ToolEndEvent succeeded(EventContext context, String toolName, String toolCallId, long durationMs) {
        return new ToolEndEvent(context, toolName, toolCallId, durationMs, true, "");
    }

    /** The end of a failed call. */
    public static ToolEndEvent failed(EventContext context, String toolName, String toolCallId, long durationMs,
                                      String errorCode) {
        return new ToolEndEvent(context, toolName, toolCallId, durationMs, false, errorCode);
    }

    @Override
    public String layer() {
        return "tool";
    }

    @Override
    public String action() {
        return ACTION;
    }

    @Override
    public Event toEvent() {
        Event.Builder builder = context.eventBuilder(layer(), action())
                .duration(Duration.ofMillis(durationMs))
                .data("tool_name", toolName)
                .data("tool_call_id", toolCallId)
                .data("duration_ms", durationMs)
                .data("success", success)
                .data("error_code", errorCode);
        if (!success) {
            builder.error(new EventError(errorCode, "tool '" + toolName + "' failed"));
        }
        return builder.build();
    }
}
