package dev.pagantic.orchestrate.agent;

import dev.pagantic.core.Message;
import java.util.List;

/**
 * Messages the caller has queued for a running {@link AgentLoop} turn: the {@link TurnOptions#steering() steering}
 * queue, polled between tool calls, and the {@link TurnOptions#followUp() follow-up} queue, consulted when the model
 * would stop. Called on the turn's thread.
 */
@FunctionalInterface
public interface MessageQueue {

    /**
     * Takes the queued messages, removing them from the queue.
     *
     * @return the messages, oldest first; empty (or null) when none are queued
     */
    List<Message> drain();
}
