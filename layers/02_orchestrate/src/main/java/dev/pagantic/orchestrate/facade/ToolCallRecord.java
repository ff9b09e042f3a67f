package dev.pagantic.orchestrate.facade;

import static dev.pagantic.core.Preconditions.jsonObject;
import static dev.pagantic.core.Preconditions.require;
import static dev.pagantic.core.Preconditions.requireNonNull;
import static dev.pagantic.core.Preconditions.requireText;

import dev.pagantic.core.ErrorCode;
import dev.pagantic.core.Preconditions;
import dev.pagantic.core.ToolCall;
import dev.pagantic.tool.ToolExecution;
import java.time.Duration;
import java.util.Map;
import java.util.Optional;

/**
 * One tool invocation that ran during a request, an entry of {@link SystemResponse#toolCallsMade()} (seed 001's
 * {@code ToolCallsMade}: "each record includes tool name, arguments, result, and duration"). Failed invocations are
 * recorded too (with {@code isError} and the code), since the model saw their error text as the tool's result.
 *
 * @param id        the tool call id the model gave (correlates with the tool events)
 * @param name      the tool's name
 * @param arguments the arguments as the model gave them (an immutable JSON object)
 * @param result    the result content the model saw: the tool's output, or the error text
 * @param isError   whether the invocation failed
 * @param errorCode the failure's code ({@code TOOL_NOT_FOUND}, {@code TOOL_TIMEOUT}, ...); empty when it succeeded
 * @param duration  how long the invocation took
 */
public record ToolCallRecord(String id, String name, Map<String, Object> arguments, String result, boolean isError,
                             Optional<ErrorCode> errorCode, Duration duration) {

    public ToolCallRecord {
        requireText(id, "id");
        requireText(name, "name");
        arguments = jsonObject(arguments, "arguments");
        requireNonNull(result, "result");
        requireNonNull(errorCode, "errorCode");
        require(errorCode.isEmpty() || isError, "a tool call with an error code must be marked as an error");
        requireNonNull(duration, "duration");
        require(!duration.isNegative(), "duration must not be negative: ", duration);
    }

    /** The record of a tool execution: its call, its result's content and error flag, its code and duration. */
    public static ToolCallRecord from(ToolExecution execution) {
        requireNonNull(execution, "execution");
        ToolCall call = execution.call();
        return new ToolCallRecord(call.id(), call.name(), call.arguments(), execution.result().content(),
                execution.result().isError() || execution.errorCode().isPresent(), execution.errorCode(),
                execution.duration());
    }

    /** The call the model made, as core's {@link ToolCall}. */
    public ToolCall toolCall() {
        return new ToolCall(id, name, arguments);
    }
}
