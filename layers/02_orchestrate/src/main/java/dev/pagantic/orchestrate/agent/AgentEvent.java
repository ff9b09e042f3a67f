package dev.pagantic.orchestrate.agent;

import dev.pagantic.core.Correlation;
import dev.pagantic.core.Message;
import java.time.Duration;
import java.time.Instant;
import java.util.Map;
import java.util.Objects;

/**
 * An event of the streamed agent protocol (seed 004): what an {@link AgentLoop} chat turn pushes to the
 * {@link AgentEventListener} of its {@link TurnOptions}, in this order:
 *
 * <pre>
 * turn_start
 * steering_mode {steer, queueSize: n}   (thinking)   tool_call tool_result ... (repeated per inference that steers)
 * steering_mode {respond}   (thinking)   text_delta ...   turn_end
 * (turn_start ... again for each follow-up)
 * </pre>
 *
 * See {@link AgentLoop}'s class comment for the exact rules. {@link #eventType()} is the protocol's wire name of the
 * event; {@link #correlation()} the correlation ids of the turn's call context (request, session, trace), so that an
 * adapter serving several requests at once can tell whose event it is.
 */
public sealed interface AgentEvent {

    /** The correlation ids of the call the event belongs to. */
    Correlation correlation();

    /** The protocol's name of the event: {@code turn_start}, {@code steering_mode}, {@code thinking} and so on. */
    String eventType();

    /** What the model decided after an inference, or that the caller interrupted a tool round. */
    enum Mode {
        /** The model answers with text: text deltas and turn_end follow. */
        RESPOND("respond"),
        /** The model calls tools: queueSize tool calls follow. */
        STEER("steer"),
        /** A steering supplier injected queueSize messages and the remaining tool calls of the round were skipped. */
        INTERRUPT("interrupt");

        private final String wireName;

        Mode(String wireName) {
            this.wireName = wireName;
        }

        /** The protocol's name of the mode. */
        public String wireName() {
            return wireName;
        }
    }

    /**
     * The start of a turn, and again of each follow-up iteration.
     *
     * @param correlation the turn's correlation ids
     * @param timestamp when it started, on the call context's clock
     */
    record TurnStart(Correlation correlation, Instant timestamp) implements AgentEvent {
        public TurnStart {
            Objects.requireNonNull(correlation, "correlation");
            Objects.requireNonNull(timestamp, "timestamp");
        }

        @Override
        public String eventType() {
            return "turn_start";
        }
    }

    /**
     * A decision: respond (queueSize 0), steer (queueSize tool calls queued) or interrupt (queueSize steering messages
     * injected).
     */
    record SteeringMode(Correlation correlation, Mode mode, int queueSize) implements AgentEvent {
        public SteeringMode {
            Objects.requireNonNull(correlation, "correlation");
            Objects.requireNonNull(mode, "mode");
        }

        @Override
        public String eventType() {
            return "steering_mode";
        }
    }

    /** The model's reasoning ("thinking") text of the inference that just decided. */
    record Thinking(Correlation correlation, String text) implements AgentEvent {
        public Thinking {
            Objects.requireNonNull(correlation, "correlation");
            Objects.requireNonNull(text, "text");
        }

        @Override
        public String eventType() {
            return "thinking";
        }
    }

    /** A tool call about to run. */
    record ToolCallEvent(Correlation correlation, String toolCallId, String toolName, Map<String, Object> args)
            implements AgentEvent {
        public ToolCallEvent {
            Objects.requireNonNull(correlation, "correlation");
            Objects.requireNonNull(toolCallId, "toolCallId");
            Objects.requireNonNull(toolName, "toolName");
            args = java.util.Collections.unmodifiableMap(new java.util.LinkedHashMap<>(args));
        }

        @Override
        public String eventType() {
            return "tool_call";
        }
    }

    /**
     * A tool call's result.
     *
     * @param correlation the turn's correlation ids
     * @param result the tool's output, or for a failed call the error text the model sees
     * @param error  whether the call failed
     */
    record ToolResultEvent(Correlation correlation, String toolCallId, String toolName, String result, boolean error)
            implements AgentEvent {
        public ToolResultEvent {
            Objects.requireNonNull(correlation, "correlation");
            Objects.requireNonNull(toolCallId, "toolCallId");
            Objects.requireNonNull(toolName, "toolName");
            Objects.requireNonNull(result, "result");
        }

        @Override
        public String eventType() {
            return "tool_result";
        }
    }

    /**
     * A piece of the assistant's answer, as the engine streamed it.
     *
     * @param correlation the turn's correlation ids
     * @param index the delta's position among the deltas of this answer, from 0
     */
    record TextDelta(Correlation correlation, String text, int index) implements AgentEvent {
        public TextDelta {
            Objects.requireNonNull(correlation, "correlation");
            Objects.requireNonNull(text, "text");
        }

        @Override
        public String eventType() {
            return "text_delta";
        }
    }

    /**
     * The end of a turn (or of a follow-up iteration) with its assistant message.
     *
     * @param correlation the turn's correlation ids
     * @param message  the final assistant message (the tool-call message when caller tools were handed back)
     * @param duration the time since the matching turn_start
     */
    record TurnEnd(Correlation correlation, Message message, Duration duration) implements AgentEvent {
        public TurnEnd {
            Objects.requireNonNull(correlation, "correlation");
            Objects.requireNonNull(message, "message");
            Objects.requireNonNull(duration, "duration");
        }

        @Override
        public String eventType() {
            return "turn_end";
        }
    }
}
