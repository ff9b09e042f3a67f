package dev.pagantic.observe;

import java.util.Objects;

/**
 * A tool call is starting (the specification's {@code ToolStartEvent}). The tool layer declares a mirror of this
 * type (band layers cannot import each other); orchestrate converts it at the call site. As a generic event: layer
 * {@code tool}, action {@value #ACTION}, data {@code tool_name}, {@code tool_call_id}, {@code args_hash}.
 *
 * @param context    where and when; by convention its correlation is the tool's span, caused by the tool call id
 * @param toolName   the tool the model called; not blank
 * @param toolCallId the id of the model's tool call, linking to the inference response that requested it; a
 *                   required field on tool events, so a blank one is refused
 * @param argsHash   the deterministic hash of the arguments, for de-duplication; may be empty
 */
public record ToolStartEvent(EventContext context, String toolName, String toolCallId, String argsHash)
        implements SchemaEvent {

    /** The generic event's action. */
    public static final String ACTION = "tool_start";

    public ToolStartEvent {
        Objects.requireNonNull(context, "context");
        Checks.requireNonBlank(toolName, "tool_name");
        Checks.requireNonBlank(toolCallId, "tool_call_id");
        Objects.requireNonNull(argsHash, "args_hash");
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
        return context.eventBuilder(layer(), action())
                .data("tool_name", toolName)
                .data("tool_call_id", toolCallId)
                .data("args_hash", argsHash)
                .build();
    }
}
