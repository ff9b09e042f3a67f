package dev.pagantic.orchestrate.facade;

import dev.pagantic.core.CallContext;
import dev.pagantic.core.PaganticException;
import dev.pagantic.core.TokenUsage;
import dev.pagantic.inference.grammar.GbnfGrammar;
import dev.pagantic.orchestrate.agent.TurnOptions;
import dev.pagantic.orchestrate.lifecycle.ExecutionLifecycle;
import dev.pagantic.tool.ToolExecution;
import java.util.List;
import java.util.Optional;

/**
 * One request on its way through a mode, as INIT and PREPARE left it: the request with its ids, its call context and
 * lifecycle, its execution context, the per-call hooks (tool whitelist, caller tools, stream, lifecycle) and the
 * grammar of its output contract, loaded and parsed.
 */
record RequestCall(SystemRequest request, CallContext ctx, ExecutionLifecycle lifecycle, ExecutionContext execution,
                   TurnOptions options, Optional<GbnfGrammar> grammar) {

    /** A response for the request's correlation ids. */
    SystemResponse.Builder response() {
        return SystemResponse.builder().correlation(request);
    }

    /**
     * The response of a failed request: the lifecycle ends in ERROR (or CANCELLED), and what the request still
     * produced (its usage and tool calls) is kept.
     */
    SystemResponse failed(PaganticException failure, TokenUsage usage, List<ToolExecution> toolExecutions) {
        if (!lifecycle.state().current().isTerminal()) {
            lifecycle.fail(failure);
        }
        SystemResponse.Builder response = response().error(SystemError.from(failure)).tokenUsage(usage);
        toolExecutions.forEach(execution -> response.toolCallMade(ToolCallRecord.from(execution)));
        return response.build();
    }
}
