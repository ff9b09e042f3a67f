package dev.pagantic.engine.llamacpp;

import dev.pagantic.core.ErrorCode;
import dev.pagantic.core.PaganticException;
import dev.pagantic.core.ToolDefinition;
import java.util.List;

/**
 * What a tool-calling request asks of the answer, whatever the format: the tools the grammar lets the model call,
 * whether a call is forced ({@code tool_choice} {@code required} or a named tool), and how many calls one answer may
 * hold ({@code parallel_tool_calls}).
 *
 * @param callable the tools a call may name: every offered tool, or the one {@code tool_choice} names
 * @param forced   whether the answer must be tool calls (no text)
 * @param maxCalls the most calls in one answer (1 without parallel calls)
 */
record ToolSpec(List<ToolDefinition> callable, boolean forced, int maxCalls) {

    /** The most calls one answer may hold when parallel calls are allowed. */
    static final int MAX_PARALLEL_CALLS = 8;

    ToolSpec {
        callable = List.copyOf(callable);
        if (callable.isEmpty()) {
            throw PaganticException.of(ErrorCode.CONFIG_INVALID, "a tool-call grammar needs at least one tool");
        }
        if (maxCalls < 1 || maxCalls > MAX_PARALLEL_CALLS) {
            throw PaganticException.of(ErrorCode.CONFIG_INVALID, "maxCalls must be within [1, "
                    + MAX_PARALLEL_CALLS + "]: " + maxCalls);
        }
    }
}
