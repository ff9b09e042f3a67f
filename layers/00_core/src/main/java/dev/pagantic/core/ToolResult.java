package dev.pagantic.core;

import java.util.Objects;

/**
 * What a tool returned, fed back to the model as a tool message.
 *
 * @param callId  the id of the {@link ToolCall} this answers
 * @param name    the tool's name
 * @param content the output (or, when {@code isError}, the error description the model sees)
 * @param isError whether the tool failed; a failed result is still fed back, so that the model can retry
 */
public record ToolResult(String callId, String name, String content, boolean isError) {

    public ToolResult {
        ToolCall.requireText(callId, "callId");
        ToolCall.requireText(name, "name");
        Objects.requireNonNull(content, "content");
    }

    /** A successful result. */
    public static ToolResult success(String callId, String name, String content) {
        return new ToolResult(callId, name, content, false);
    }

    /** A failed result, carrying the error text the model will see. */
    public static ToolResult error(String callId, String name, String errorText) {
        return new ToolResult(callId, name, errorText, true);
    }

    /** The tool message that feeds this result back to the model. */
    public Message toMessage() {
        return Message.toolResult(callId, name, content);
    }
}
