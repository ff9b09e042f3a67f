package dev.pagantic.orchestrate.loop;

import dev.pagantic.observe.EventContext;
import dev.pagantic.observe.EventLog;
import dev.pagantic.observe.ToolEndEvent;
import dev.pagantic.observe.ToolStartEvent;
import dev.pagantic.tool.ToolExecutor;
import dev.pagantic.tool.ToolObserver;

/**
 * The seed 001 tool events ({@code tool_start}, {@code tool_end}) from the tool layer's records. Orchestrate is where
 * both the tool layer's records and the observe layer's schemas are visible, so the conversion lives here; give the
 * observer to a {@link ToolExecutor} that is shared by several loops or orchestrators.
 */
public final class ToolEvents {

    private ToolEvents() {
    }

    /**
     * A tool observer that records the tool layer's start and end records as the observe layer's
     * {@code tool_start} and {@code tool_end} events, for {@code ToolExecutor.builder().observer(...)}; the no-op
     * observer for a log that is not {@link EventLog#isEnabled() enabled}, so that no record is built.
     */
    public static ToolObserver observer(EventLog eventLog) {
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
    public static ToolExecutor observedExecutor(EventLog eventLog) {
        return ToolExecutor.builder().observer(observer(eventLog)).build();
    }
}
