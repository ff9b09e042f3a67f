package dev.pagantic.orchestrate.agent;

import dev.pagantic.core.ToolCall;
import dev.pagantic.inference.Result;
import dev.pagantic.tool.ToolExecution;
import java.util.List;
import java.util.Objects;

/**
 * What one {@link AgentLoop} turn produced: the final result and the tool executions that ran on the way to it.
 *
 * @param result         the final answer; its usage is the sum over the turn's inferences and its messages are those
 *                       the turn added to the history after the user message
 * @param toolExecutions every tool call of the turn in the order it was made (call, result, error code, duration,
 *                       span), failed ones included; empty when the model called no tools
 * @param pendingCalls   calls of caller-executed tools ({@link TurnOptions#callerTools()}) that the turn hands back:
 *                       the history ends with the assistant message that made them, and the caller continues the
 *                       conversation with their results; empty when the turn ended with a final answer
 */
public record AgentTurn(Result result, List<ToolExecution> toolExecutions, List<ToolCall> pendingCalls) {

    public AgentTurn {
        Objects.requireNonNull(result, "result");
        toolExecutions = List.copyOf(toolExecutions);
        pendingCalls = List.copyOf(pendingCalls);
    }

    /** Whether the turn ended by handing caller-tool calls back rather than with a final answer. */
    public boolean hasPendingCalls() {
        return !pendingCalls.isEmpty();
    }
}
