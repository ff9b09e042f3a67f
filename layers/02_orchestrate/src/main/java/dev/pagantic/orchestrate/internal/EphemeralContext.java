package dev.pagantic.orchestrate.internal;

import dev.pagantic.core.CallContext;
import dev.pagantic.core.FailureCategory;
import dev.pagantic.core.Message;
import dev.pagantic.core.PaganticException;
import dev.pagantic.observe.Event;
import dev.pagantic.observe.EventLog;
import dev.pagantic.orchestrate.ports.ContextProvider;
import java.time.Instant;
import java.util.List;
import org.jspecify.annotations.Nullable;

/**
 * Retrieval of ephemeral context for the loops: a provider that fails degrades the call to "no context" and is
 * recorded as a {@code context} event with {@code degraded = true}; only a cancellation of the call itself propagates.
 */
public final class EphemeralContext {

    private EphemeralContext() {
    }

    /** The context for the query; empty when there is no provider or it failed. */
    public static List<Message> fetch(@Nullable ContextProvider provider, EventLog eventLog, CallContext ctx,
            String query) {
        if (provider == null) {
            return List.of();
        }
        ctx.throwIfDone();
        Instant started = ctx.now();
        try {
            List<Message> found = provider.build(ctx, query);
            List<Message> context = found == null ? List.of() : List.copyOf(found);
            if (eventLog.isEnabled()) {
                eventLog.record(event(ctx, started, query, context.size()).build());
            }
            return context;
        } catch (PaganticException failure) {
            if (failure.category() == FailureCategory.CANCELLATION && ctx.isDone()) {
                throw failure;
            }
            recordFailure(eventLog, ctx, query, started, failure);
            return List.of();
        } catch (RuntimeException failure) {
            recordFailure(eventLog, ctx, query, started, failure);
            return List.of();
        }
    }

    private static void recordFailure(EventLog eventLog, CallContext ctx, String query, Instant started,
                                      RuntimeException failure) {
        if (eventLog.isEnabled()) {
            eventLog.record(event(ctx, started, query, 0).data("degraded", true).error(failure).build());
        }
    }

    private static Event.Builder event(CallContext ctx, Instant started, String query, int messages) {
        return Event.builder(ctx, Timing.LAYER, "context").timestamp(started)
                .data("query", query)
                .data("messages", messages)
                .duration(Timing.elapsed(ctx, started));
    }

}
