package dev.pagantic.orchestrate.agent;

/**
 * Receives the {@link AgentEvent}s of one {@link AgentLoop} turn, given in {@link TurnOptions#eventListener()}.
 * Called on the turn's thread (text and thinking deltas on the engine's generating thread), in protocol order; an
 * exception it throws fails the turn.
 */
@FunctionalInterface
public interface AgentEventListener {

    /** A listener that ignores every event: a turn given it emits none. */
    AgentEventListener NOOP = event -> {
    };

    /** One event of the turn. */
    void onEvent(AgentEvent event);
}
