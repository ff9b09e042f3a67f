package dev.pagantic.orchestrate.agent;

import dev.pagantic.core.CallContext;
import dev.pagantic.core.Correlation;
import dev.pagantic.core.Message;
import dev.pagantic.core.ToolCall;
import dev.pagantic.core.ToolResult;
import dev.pagantic.inference.Result;
import dev.pagantic.inference.StreamHandler;
import dev.pagantic.orchestrate.internal.EphemeralContext;
import dev.pagantic.orchestrate.internal.Timing;
import java.time.Instant;

/**
 * Emits the {@link AgentEvent}s of one {@link AgentLoop} chat turn to its listener (seed 004's protocol). Without a
 * listener it emits nothing and leaves the stream handler untouched. One instance per turn.
 */
final class TurnEvents {

    private static final TurnEvents NONE = new TurnEvents(null, null);

    private final AgentEventListener listener; // null for NONE
    private final Correlation correlation; // null for NONE
    private Instant turnStarted;

    private TurnEvents(AgentEventListener listener, Correlation correlation) {
        this.listener = listener;
        this.correlation = correlation;
    }

    /** The events of a turn on the call context, with its correlation ids. */
    static TurnEvents of(TurnOptions options, CallContext ctx) {
        return options.eventListener().map(listener -> new TurnEvents(listener, ctx.correlation())).orElse(NONE);
    }

    boolean active() {
        return listener != null;
    }

    void turnStart(CallContext ctx) {
        if (listener != null) {
            turnStarted = ctx.now();
            listener.onEvent(new AgentEvent.TurnStart(correlation, turnStarted));
        }
    }

    void turnEnd(CallContext ctx, Message message) {
        if (listener != null) {
            listener.onEvent(new AgentEvent.TurnEnd(correlation, message, Timing.elapsed(ctx, turnStarted)));
        }
    }

    void toolCall(ToolCall call) {
        if (listener != null) {
            listener.onEvent(new AgentEvent.ToolCallEvent(correlation, call.id(), call.name(), call.arguments()));
        }
    }

    void toolResult(ToolResult result) {
        if (listener != null) {
            listener.onEvent(new AgentEvent.ToolResultEvent(correlation, result.callId(), result.name(), result.content(),
                    result.isError()));
        }
    }

    void interrupted(int injected) {
        if (listener != null) {
            listener.onEvent(new AgentEvent.SteeringMode(correlation, AgentEvent.Mode.INTERRUPT, injected));
        }
    }

    /** The events of one inference: wraps the caller's handler; {@link Inference#finish} after it. */
    Inference inference(StreamHandler caller) {
        return new Inference(caller);
    }

    /**
     * One inference. The decision is announced as soon as it is known: the first content delta, before any tool
     * call, announces RESPOND (with the reasoning so far as one thinking event) and every content delta is then
     * passed on as a text delta; an inference that ends with tool calls announces STEER with their count (and its
     * reasoning, when it was not announced yet). An inference whose output did not stream (a non-streaming engine,
     * an interceptor that answered itself) is announced from its result when it finishes.
     */
    final class Inference implements StreamHandler {
        private final StreamHandler caller;
        private StringBuilder reasoning; // created by the first reasoning delta before the decision
        private boolean responded;
        private boolean toolCallSeen;
        private int deltas;

        private Inference(StreamHandler caller) {
            this.caller = caller;
        }

        @Override
        public void onContent(String delta) {
            caller.onContent(delta);
            if (toolCallSeen || delta.isEmpty()) {
                return;
            }
            if (!responded) {
                respond();
            }
            listener.onEvent(new AgentEvent.TextDelta(correlation, delta, deltas++));
        }

        @Override
        public void onReasoning(String delta) {
            caller.onReasoning(delta);
            if (responded) {
                listener.onEvent(new AgentEvent.Thinking(correlation, delta));
            } else {
                reasoning().append(delta);
            }
        }

        @Override
        public void onToolCall(ToolCall call) {
            caller.onToolCall(call);
            toolCallSeen = true;
        }

        private StringBuilder reasoning() {
            if (reasoning == null) {
                reasoning = new StringBuilder();
            }
            return reasoning;
        }

        /** Takes the result's reasoning when none streamed. */
        private void keepReasoning(Result result) {
            if (reasoning().isEmpty() && !result.reasoning().isEmpty()) {
                reasoning.append(result.reasoning());
            }
        }

        private void respond() {
            responded = true;
            listener.onEvent(new AgentEvent.SteeringMode(correlation, AgentEvent.Mode.RESPOND, 0));
            flushReasoning();
        }

        private void flushReasoning() {
            if (reasoning != null && !reasoning.isEmpty()) {
                listener.onEvent(new AgentEvent.Thinking(correlation, reasoning.toString()));
                reasoning.setLength(0);
            }
        }

        /** Announces what the streamed deltas did not: the STEER decision, or an answer that did not stream. */
        void finish(Result result) {
            if (listener == null) {
                return;
            }
            if (result.hasToolCalls()) {
                listener.onEvent(new AgentEvent.SteeringMode(correlation, AgentEvent.Mode.STEER,
                        result.toolCalls().size()));
                if (!responded) {
                    keepReasoning(result);
                }
                flushReasoning();
            } else if (!responded) {
                keepReasoning(result);
                respond();
                if (!result.content().isEmpty()) {
                    listener.onEvent(new AgentEvent.TextDelta(correlation, result.content(), deltas++));
                }
            }
        }
    }
}
