package dev.pagantic.orchestrate;

import dev.pagantic.core.ErrorCode;
import dev.pagantic.core.PaganticException;
import dev.pagantic.core.ToolDefinition;
import dev.pagantic.inference.StreamHandler;
import dev.pagantic.orchestrate.lifecycle.ExecutionLifecycle;
import java.util.ArrayList;
import java.util.Collection;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.OptionalDouble;
import java.util.OptionalLong;
import java.util.Set;

/**
 * Per-turn settings of an {@link AgentLoop} turn, for callers (the facade) that apply a request's execution hints and
 * tool whitelist to a loop that outlives the request. Every field is optional; {@link #DEFAULTS} changes nothing.
 *
 * @param maxTokens    the most tokens per inference of this turn; 0 for the loop's configured value
 * @param temperature  the sampling temperature; empty for the engine's default in {@code chat} and 0.3 in
 *                     {@code chatStructured}; 0.0 is greedy
 * @param topP         the nucleus sampling threshold; empty for the engine's default
 * @param seed         the sampling seed; empty for none
 * @param options      engine-specific options passed through unchanged (JSON values); in {@code chatStructured},
 *                     {@code enable_thinking} is always {@code false}
 * @param allowedTools when present, the only registered tools offered to the model and executed in this turn; a call
 *                     of another tool comes back to the model as {@code TOOL_NOT_FOUND} and nothing runs. Every name
 *                     must be a tool of the loop's registry ({@code CONFIG_INVALID} otherwise, so that a typo does
 *                     not silently remove a tool)
 * @param lifecycle    a lifecycle the caller started in INIT or PLAN, which the turn drives to COMPLETE, ERROR or
 *                     CANCELLED; empty for none (or the loop's own, when it has a transition listener)
 * @param callerTools  tools the <em>caller</em> executes (OpenAI-protocol clients): offered to the model with the
 *                     registered tools, but when the model calls one the turn ends and hands the calls back
 *                     ({@link AgentTurn#pendingCalls()}) instead of executing them; names must not clash with
 *                     registered tools
 * @param stream       receives this turn's output as it is generated, instead of the loop's handler; empty for the
 *                     loop's
 * @param eventListener receives the turn's {@link AgentEvent}s (seed 004's streamed protocol, see {@link AgentLoop});
 *                     empty for none. With a listener, the tool calls of a round run one at a time, so that each
 *                     tool_call is followed by its tool_result
 * @param steering     polled after each tool call of a round; when it returns messages, the round's remaining calls
 *                     are skipped (each gets an error tool result), the messages are appended and the model infers
 *                     again. With a steering queue, the tool calls of a round run one at a time. Empty for none
 * @param followUp     consulted when the model would stop with an answer; when it returns messages, they are appended
 *                     and the turn continues. Empty for none
 */
public record TurnOptions(int maxTokens, OptionalDouble temperature, OptionalDouble topP, OptionalLong seed,
                          Map<String, Object> options, Optional<Set<String>> allowedTools,
                          Optional<ExecutionLifecycle> lifecycle, List<ToolDefinition> callerTools,
                          Optional<StreamHandler> stream, Optional<AgentEventListener> eventListener,
                          Optional<MessageQueue> steering, Optional<MessageQueue> followUp) {

    /** No per-turn settings: the loop's configuration applies. */
    public static final TurnOptions DEFAULTS = builder().build();

    public TurnOptions {
        if (maxTokens < 0) {
            throw PaganticException.of(ErrorCode.CONFIG_INVALID, "maxTokens must not be negative: " + maxTokens);
        }
        Objects.requireNonNull(temperature, "temperature");
        Objects.requireNonNull(topP, "topP");
        Objects.requireNonNull(seed, "seed");
        options = Collections.unmodifiableMap(new LinkedHashMap<>(Objects.requireNonNull(options, "options")));
        allowedTools = Objects.requireNonNull(allowedTools, "allowedTools")
                .map(names -> Collections.unmodifiableSet(new LinkedHashSet<>(names)));
        Objects.requireNonNull(lifecycle, "lifecycle");
        callerTools = List.copyOf(callerTools);
        Objects.requireNonNull(stream, "stream");
        Objects.requireNonNull(eventListener, "eventListener");
        Objects.requireNonNull(steering, "steering");
        Objects.requireNonNull(followUp, "followUp");
    }

    /** Starts building options; nothing is set. */
    public static Builder builder() {
        return new Builder();
    }

    /** A builder starting from these options. */
    public Builder toBuilder() {
        Builder builder = new Builder();
        builder.maxTokens = maxTokens;
        builder.temperature = temperature;
        builder.topP = topP;
        builder.seed = seed;
        builder.options.putAll(options);
        builder.allowedTools = allowedTools.orElse(null);
        builder.lifecycle = lifecycle.orElse(null);
        builder.callerTools.addAll(callerTools);
        builder.stream = stream.orElse(null);
        builder.eventListener = eventListener.orElse(null);
        builder.steering = steering.orElse(null);
        builder.followUp = followUp.orElse(null);
        return builder;
    }

    /** Builds {@link TurnOptions}. */
    public static final class Builder {
        private int maxTokens;
        private OptionalDouble temperature = OptionalDouble.empty();
        private OptionalDouble topP = OptionalDouble.empty();
        private OptionalLong seed = OptionalLong.empty();
        private final Map<String, Object> options = new LinkedHashMap<>();
        private Set<String> allowedTools;
        private ExecutionLifecycle lifecycle;
        private final List<ToolDefinition> callerTools = new ArrayList<>();
        private StreamHandler stream;
        private AgentEventListener eventListener;
        private MessageQueue steering;
        private MessageQueue followUp;

        private Builder() {
        }

        /** The most tokens per inference of the turn; 0 (the default) for the loop's value. */
        public Builder maxTokens(int value) {
            this.maxTokens = value;
            return this;
        }

        /** The sampling temperature; 0.0 is greedy. */
        public Builder temperature(double value) {
            this.temperature = OptionalDouble.of(value);
            return this;
        }

        /** The nucleus sampling threshold. */
        public Builder topP(double value) {
            this.topP = OptionalDouble.of(value);
            return this;
        }

        /** The sampling seed. */
        public Builder seed(long value) {
            this.seed = OptionalLong.of(value);
            return this;
        }

        /** An engine-specific option (a JSON value), passed through unchanged. */
        public Builder option(String key, Object value) {
            options.put(Objects.requireNonNull(key, "key"), value);
            return this;
        }

        /** Engine-specific options, passed through unchanged. */
        public Builder options(Map<String, ?> values) {
            Objects.requireNonNull(values, "values").forEach(this::option);
            return this;
        }

        /** The tool whitelist of the turn. */
        public Builder allowedTools(Collection<String> names) {
            this.allowedTools = new LinkedHashSet<>(Objects.requireNonNull(names, "names"));
            return this;
        }

        /** A lifecycle in INIT or PLAN for the turn to drive; null for none. */
        public Builder lifecycle(ExecutionLifecycle value) {
            this.lifecycle = value;
            return this;
        }

        /** Tools the caller executes itself (see {@link TurnOptions#callerTools()}). */
        public Builder callerTools(List<ToolDefinition> values) {
            callerTools.addAll(Objects.requireNonNull(values, "callerTools"));
            return this;
        }

        /** The stream handler of this turn; null for the loop's. */
        public Builder stream(StreamHandler value) {
            this.stream = value;
            return this;
        }

        /** Receives the turn's {@link AgentEvent}s; null for none. */
        public Builder eventListener(AgentEventListener value) {
            this.eventListener = value;
            return this;
        }

        /** The steering queue polled between tool calls (see {@link TurnOptions#steering()}); null for none. */
        public Builder steering(MessageQueue value) {
            this.steering = value;
            return this;
        }

        /** The follow-up queue consulted when the model would stop (see {@link TurnOptions#followUp()}); null for none. */
        public Builder followUp(MessageQueue value) {
            this.followUp = value;
            return this;
        }

        /** The options; {@code CONFIG_INVALID} for a negative token limit. */
        public TurnOptions build() {
            return new TurnOptions(maxTokens, temperature, topP, seed, options, Optional.ofNullable(allowedTools),
                    Optional.ofNullable(lifecycle), callerTools, Optional.ofNullable(stream),
                    Optional.ofNullable(eventListener), Optional.ofNullable(steering), Optional.ofNullable(followUp));
        }
    }
}
