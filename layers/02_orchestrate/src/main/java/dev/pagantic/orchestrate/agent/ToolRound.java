package dev.pagantic.orchestrate.agent;

import dev.pagantic.core.CallContext;
import dev.pagantic.core.ErrorCode;
import dev.pagantic.core.ToolCall;
import dev.pagantic.core.ToolResult;
import dev.pagantic.observe.Event;
import dev.pagantic.observe.EventError;
import dev.pagantic.observe.EventLog;
import dev.pagantic.orchestrate.internal.Timing;
import dev.pagantic.orchestrate.spi.Interceptor;
import dev.pagantic.orchestrate.spi.Invocation;
import dev.pagantic.orchestrate.spi.InvocationKind;
import dev.pagantic.tool.ToolExecution;
import dev.pagantic.tool.ToolExecutor;
import dev.pagantic.tool.ToolRegistry;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.atomic.AtomicReference;
import java.util.function.BiConsumer;
import org.jspecify.annotations.Nullable;

/**
 * Runs the tool calls of one round: without an interceptor through {@link ToolExecutor#executeAll} (in parallel where
 * the tools allow), with one call by call, each through the interceptor as an {@link InvocationKind#TOOL_CALL}
 * invocation. Every execution is recorded as a {@code tool} event and reported to the loop's
 * {@code onToolResult} hook. A call that cannot run comes back as an error result, never as an exception.
 */
final class ToolRound {

    private final @Nullable ToolExecutor executor;
    private final Interceptor interceptor;
    private final EventLog eventLog;
    private final @Nullable BiConsumer<String, String> onToolResult;

    ToolRound(@Nullable ToolExecutor executor, Interceptor interceptor, EventLog eventLog,
              @Nullable BiConsumer<String, String> onToolResult) {
        this.executor = executor;
        this.interceptor = interceptor;
        this.eventLog = eventLog;
        this.onToolResult = onToolResult;
    }

    /** Runs the calls on the registry (none: every call is {@code TOOL_NOT_FOUND}); the executions in call order. */
    List<ToolExecution> run(CallContext ctx, @Nullable ToolRegistry registry, List<ToolCall> calls) {
        List<ToolExecution> executions = new ArrayList<>(calls.size());
        if (registry == null || executor == null) {
            for (ToolCall call : calls) {
                ToolResult result = ToolResult.error(call.id(), call.name(), ErrorCode.TOOL_NOT_FOUND
                        + ": no tools are configured; tool '" + call.name() + "' does not exist");
                executions.add(finish(ctx.now(), new ToolExecution(call, result, Optional.of(ErrorCode.TOOL_NOT_FOUND),
                        false, Duration.ZERO, ctx.childSpan(call.id()).correlation())));
            }
            return executions;
        }
        if (interceptor == Interceptor.NONE) {
            Instant started = eventLog.isEnabled() ? ctx.now() : null; // only events need it
            for (ToolExecution execution : executor.executeAll(ctx, registry, calls)) {
                executions.add(finish(started, execution));
            }
            return executions;
        }
        for (ToolCall call : calls) {
            ctx.throwIfDone();
            executions.add(intercepted(ctx, registry, executor, call));
        }
        return executions;
    }

    private ToolExecution intercepted(CallContext ctx, ToolRegistry registry, ToolExecutor tools, ToolCall call) {
        Instant started = ctx.now();
        CallContext toolCtx = ctx.childSpan(call.id());
        AtomicReference<ToolExecution> ran = new AtomicReference<>();
        ToolResult result = interceptor.intercept(Invocation.of(InvocationKind.TOOL_CALL, call.name(), toolCtx, call,
                () -> {
                    ToolExecution execution = tools.execute(ctx, registry, call);
                    ran.set(execution);
                    return execution.result();
                }));
        if (result == null) {
            result = ToolResult.error(call.id(), call.name(),
                    ErrorCode.TOOL_EXECUTION_FAILED + ": the tool call returned no result");
        }
        ToolExecution execution = ran.get();
        if (execution == null || !execution.result().equals(result)) {
            // the interceptor answered itself (a replayed result) or replaced the result
            Optional<ErrorCode> code = execution != null && execution.result().isError() == result.isError()
                    ? execution.errorCode()
                    : result.isError() ? Optional.of(ErrorCode.TOOL_EXECUTION_FAILED) : Optional.empty();
            execution = new ToolExecution(call, result, code, false,
                    execution != null ? execution.duration() : Timing.elapsed(ctx, started),
                    execution != null ? execution.correlation() : toolCtx.correlation());
        }
        return finish(started, execution);
    }

    /** Records the tool event and calls the onToolResult hook; returns the execution. */
    private ToolExecution finish(@Nullable Instant started, ToolExecution execution) {
        ToolCall call = execution.call();
        ToolResult result = execution.result();
        if (eventLog.isEnabled()) {
            Event.Builder event = Event.builder(execution.correlation(), started, Timing.LAYER, "tool")
                    .data("tool", call.name())
                    .data("tool_call_id", call.id())
                    .data("arguments", call.arguments())
                    .data("is_error", result.isError())
                    .duration(execution.duration());
            if (result.isError()) {
                event.error(new EventError(execution.errorCode().map(ErrorCode::name)
                        .orElse(ErrorCode.TOOL_EXECUTION_FAILED.name()), result.content()));
            }
            eventLog.record(event.build());
        }
        if (onToolResult != null) {
            onToolResult.accept(call.name(), result.content());
        }
        return execution;
    }
}
