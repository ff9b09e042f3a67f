package dev.pagantic.tool;

import java.util.Objects;
import java.util.function.Consumer;

/**
 * Receives the start and end of every tool call a {@link ToolExecutor} handles. This layer declares it so that the
 * observe layer (a sibling it must not import) plugs in by method reference:
 * {@code ToolObserver.of(eventLog::toolStarted, eventLog::toolEnded)}.
 *
 * <p>Events are delivered on the thread that called the executor, start before end for each call. An observer must be
 * quick and thread-safe (several threads may share an executor); what it throws is logged and otherwise ignored.
 */
public interface ToolObserver {

    /** The observer that ignores everything. */
    ToolObserver NOOP = new ToolObserver() {
    };

    /** A tool call is starting. */
    default void onToolStart(ToolStartEvent event) {
    }

    /** A tool call has ended. */
    default void onToolEnd(ToolEndEvent event) {
    }

    /** An observer from two callbacks, for wiring by method reference. */
    static ToolObserver of(Consumer<? super ToolStartEvent> onStart, Consumer<? super ToolEndEvent> onEnd) {
        Objects.requireNonNull(onStart, "onStart");
        Objects.requireNonNull(onEnd, "onEnd");
        return new ToolObserver() {
            @Override
            public void onToolStart(ToolStartEvent event) {
                onStart.accept(event);
            }

            @Override
            public void onToolEnd(ToolEndEvent event) {
                onEnd.accept(event);
            }
        };
    }
}
