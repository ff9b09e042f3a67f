package dev.pagantic.orchestrate;

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
 */
public record AgentTurn(Result result, List<ToolExecution> toolExecutions) {

    public AgentTurn {
        Objects.requireNonNull(result, "result");
        toolExecutions = List.copyOf(toolExecutions);
    }
}
