package dev.pagantic.orchestrate;

import dev.pagantic.core.CallContext;
import dev.pagantic.inference.Request;
import dev.pagantic.inference.Result;
import dev.pagantic.observe.EventContext;
import dev.pagantic.observe.EventLog;
import dev.pagantic.observe.InferenceEndEvent;
import dev.pagantic.observe.InferenceOutcome;
import dev.pagantic.observe.InferenceStartEvent;
import dev.pagantic.observe.ToolEndEvent;
import dev.pagantic.observe.ToolStartEvent;
import dev.pagantic.tool.ToolExecutor;
import dev.pagantic.tool.ToolObserver;
import java.time.Duration;

/**
 * The seed 001 event schemas ({@code inference_start}, {@code inference_end}, {@code tool_start}, {@code tool_end}),
 * recorded next to the loops' own {@code infer}, {@code tool} and {@code context} events. Orchestrate is where both
 * the tool layer's records and the observe layer's schemas are visible, so the conversion lives here.
 */
public final class SchemaEvents {

    private SchemaEvents() {
    }

    /**
     * A tool observer that records the tool layer's start and end records as the observe layer's
     * {@code tool_start} and {@code tool_end} events, for {@code ToolExecutor.builder().observer(...)}; the no-op
     * observer for a log that is not {@link EventLog#isEnabled() enabled}, so that no record is built.
     */
    public static ToolObserver toolObserver(EventLog eventLog) {
        if (!eventLog.isEnabled()) {
            return ToolObserver.NOOP;
        }
        return ToolObserver.of(
                start -> eventLog.record(new ToolStartEvent(EventContext.of(start.correlation(), start.timestamp()),
                        start.toolName(), start.toolCallId(), start.argsHash()).toEvent()),
                end -> {
                    EventContext where = EventContext.of(end.correlation(), end.timestamp());
                    eventLog.record((end.success()
                            ? ToolEndEvent.succeeded(where, end.toolName(), end.toolCallId(), end.durationMs())
                            : ToolEndEvent.failed(where, end.toolName(), end.toolCallId(), end.durationMs(),
                            end.errorCode())).toEvent());
                });
    }

    /** A tool executor with the default settings whose tool calls are recorded in the log. */
    static ToolExecutor observedExecutor(EventLog eventLog) {
        return ToolExecutor.builder().observer(toolObserver(eventLog)).build();
    }

    static void inferenceStarted(EventLog eventLog, CallContext ctx, Request request) {
        if (!eventLog.isEnabled()) {
            return;
        }
        eventLog.record(new InferenceStartEvent(where(ctx), request.messages().size(), request.tools().size(),
                request.schema().isPresent(), request.hasGrammar(), request.temperature().orElse(InferenceStartEvent.ENGINE_DEFAULT_TEMPERATURE)).toEvent());
    }

    static void inferenceEnded(EventLog eventLog, CallContext ctx, Duration elapsed, Result result) {
        if (!eventLog.isEnabled()) {
            return;
        }
        eventLog.record(new InferenceEndEvent(where(ctx), elapsed.toMillis(), result.usage().promptTokens(),
                result.usage().outputTokens(), result.hasToolCalls() ? InferenceOutcome.TOOL
                : InferenceOutcome.of(result.finishReason()), result.toolCalls().size()).toEvent());
    }

    static void inferenceFailed(EventLog eventLog, CallContext ctx, Duration elapsed) {
        if (!eventLog.isEnabled()) {
            return;
        }
        eventLog.record(new InferenceEndEvent(where(ctx), elapsed.toMillis(), 0, 0, InferenceOutcome.ERROR, 0)
                .toEvent());
    }

    private static EventContext where(CallContext ctx) {
        EventContext where = EventContext.of(ctx);
        return ctx.sessionId().isBlank() ? where : where.inConversation();
    }
}
