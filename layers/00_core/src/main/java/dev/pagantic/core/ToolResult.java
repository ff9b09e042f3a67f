package dev.pagantic.core;

import java.util.Objects;
import java.util.Optional;

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

    /**
     * Why a failed result failed: the error code its text starts with ({@code "TOOL_TIMEOUT: ..."}, as the tool
     * executor writes it), or {@code TOOL_EXECUTION_FAILED} when it names none; empty for a success. For telemetry,
     * which sees only the result.
     */
    public Optional<ErrorCode> errorCode() {
        if (!isError) {
            return Optional.empty();
        }
        int colon = content.indexOf(':');
        String prefix = colon > 0 ? content.substring(0, colon) : "";
        for (ErrorCode code : ErrorCode.values()) {
            if (code.name().equals(prefix)) {
                return Optional.of(code);
            }
        }
        return Optional.of(ErrorCode.TOOL_EXECUTION_FAILED);
    }

    /** The tool message that feeds this result back to the model. */
    public Message toMessage() {
        return Message.toolResult(callId, name, content);
    }
}
