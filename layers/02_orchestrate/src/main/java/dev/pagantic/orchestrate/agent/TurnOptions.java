package dev.pagantic.orchestrate.agent;

import static dev.pagantic.core.Preconditions.requireNonNull;

import dev.pagantic.core.ToolDefinition;
import dev.pagantic.inference.StreamHandler;
import dev.pagantic.orchestrate.lifecycle.ExecutionLifecycle;
import java.util.ArrayList;
import java.util.Collection;
import java.util.Collections;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import org.jspecify.annotations.Nullable;

/**
 * The per-turn hooks of a turn (or of a specialized or redundant call): what the caller wants to watch, steer or scope
 * in this one call, for callers (the facade) that drive a loop outliving the request. How to sample is not here: a
 * turn's {@link dev.pagantic.inference.InferenceSettings} are a parameter of their own. Every hook is optional;
 * {@link #DEFAULTS} changes nothing.
 *
 * @param allowedTools  when present, the only registered tools offered to the model and executed in this turn; a call
 *                      of another tool comes back to the model as {@code TOOL_NOT_FOUND} and nothing runs. Every name
 *                      must be a tool of the loop's registry ({@code CONFIG_INVALID} otherwise, so that a typo does
 *                      not silently remove a tool)
 * @param lifecycle     a lifecycle the caller started in INIT or PLAN, which the turn drives to COMPLETE, ERROR or
 *                      CANCELLED; empty for none (or the loop's own, when it has a transition listener)
 * @param callerTools   tools the <em>caller</em> executes (OpenAI-protocol clients): offered to the model with the
 *                      registered tools, but when the model calls one the turn ends and hands the calls back
 *                      ({@link AgentTurn#pendingCalls()}) instead of executing them; names must not clash with
 *                      registered tools
 * @param stream        receives this turn's output as it is generated, instead of the loop's handler; empty for the
 *                      loop's
 * @param eventListener receives the turn's {@link AgentEvent}s (seed 004's streamed protocol, see {@link AgentLoop});
 *                      empty for none. With a listener, the tool calls of a round run one at a time, so that each
 *                      tool_call is followed by its tool_result
 * @param steering      polled after each tool call of a round; when it returns messages, the round's remaining calls
 *                      are skipped (each gets an error tool result), the messages are appended and the model infers
 *                      again. With a steering queue, the tool calls of a round run one at a time. Empty for none
 * @param followUp      consulted when the model would stop with an answer; when it returns messages, they are appended
 *                      and the turn continues. Empty for none
 */
public record TurnOptions(Optional<Set<String>> allowedTools, Optional<ExecutionLifecycle> lifecycle,
                          List<ToolDefinition> callerTools, Optional<StreamHandler> stream,
                          Optional<AgentEventListener> eventListener, Optional<MessageQueue> steering,
                          Optional<MessageQueue> followUp) {

    /** No per-turn hooks: the loop's configuration applies. */
    public static final TurnOptions DEFAULTS = builder().build();

    public TurnOptions {
        allowedTools = requireNonNull(allowedTools, "allowedTools")
                .map(names -> Collections.unmodifiableSet(new LinkedHashSet<>(names)));
        requireNonNull(lifecycle, "lifecycle");
        callerTools = List.copyOf(callerTools);
        requireNonNull(stream, "stream");
        requireNonNull(eventListener, "eventListener");
        requireNonNull(steering, "steering");
        requireNonNull(followUp, "followUp");
    }

    /** Starts building options; nothing is set. */
    public static Builder builder() {
        return new Builder();
    }

    /** A builder starting from these options. */
    public Builder toBuilder() {
        Builder builder = new Builder();
        builder.allowedTools = allowedTools.orElse(null);
        builder.lifecycle = lifecycle.orElse(null);
        builder.callerTools.addAll(callerTools);
        builder.stream = stream.orElse(null);
        builder.eventListener = eventListener.orElse(null);
        builder.steering = steering.orElse(null);
        builder.followUp = followUp.orElse(null);
        return builder;
    }

    /** These options without a lifecycle (for the inner calls of a pattern that drives the lifecycle itself). */
    public TurnOptions withoutLifecycle() {
        return lifecycle.isEmpty() ? this : toBuilder().lifecycle(null).build();
    }

    /** Builds {@link TurnOptions}. */
    public static final class Builder {
        private @Nullable Set<String> allowedTools;
        private @Nullable ExecutionLifecycle lifecycle;
        private final List<ToolDefinition> callerTools = new ArrayList<>();
        private @Nullable StreamHandler stream;
        private @Nullable AgentEventListener eventListener;
        private @Nullable MessageQueue steering;
        private @Nullable MessageQueue followUp;

        private Builder() {
        }

        /** The tool whitelist of the turn. */
        public Builder allowedTools(Collection<String> names) {
            this.allowedTools = new LinkedHashSet<>(requireNonNull(names, "names"));
            return this;
        }

        /** A lifecycle in INIT or PLAN for the turn to drive; null for none. */
        public Builder lifecycle(@Nullable ExecutionLifecycle value) {
            this.lifecycle = value;
            return this;
        }

        /** Tools the caller executes itself (see {@link TurnOptions#callerTools()}). */
        public Builder callerTools(List<ToolDefinition> values) {
            callerTools.addAll(requireNonNull(values, "callerTools"));
            return this;
        }

        /** The stream handler of this turn; null for the loop's. */
        public Builder stream(@Nullable StreamHandler value) {
            this.stream = value;
            return this;
        }

        /** Receives the turn's {@link AgentEvent}s; null for none. */
        public Builder eventListener(@Nullable AgentEventListener value) {
            this.eventListener = value;
            return this;
        }

        /** The steering queue polled between tool calls (see {@link TurnOptions#steering()}); null for none. */
        public Builder steering(@Nullable MessageQueue value) {
            this.steering = value;
            return this;
        }

        /** The follow-up queue consulted when the model would stop (see {@link TurnOptions#followUp()}); null for none.
        * */
        public Builder followUp(@Nullable MessageQueue value) {
            this.followUp = value;
            return this;
        }

        /** The options. */
        public TurnOptions build() {
            return new TurnOptions(Optional.ofNullable(allowedTools), Optional.ofNullable(lifecycle), callerTools,
                    Optional.ofNullable(stream), Optional.ofNullable(eventListener), Optional.ofNullable(steering),
                    Optional.ofNullable(followUp));
        }
    }
}
