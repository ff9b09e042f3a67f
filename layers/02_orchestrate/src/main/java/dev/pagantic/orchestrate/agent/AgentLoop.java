package dev.pagantic.orchestrate.agent;

import static dev.pagantic.core.Preconditions.requireNonNull;

import dev.pagantic.constraint.SchemaValidator;
import dev.pagantic.constraint.ValidationReport;
import dev.pagantic.core.CallContext;
import dev.pagantic.core.ErrorCode;
import dev.pagantic.core.FinishReason;
import dev.pagantic.core.Message;
import dev.pagantic.core.PaganticException;
import dev.pagantic.core.Role;
import dev.pagantic.core.Schema;
import dev.pagantic.core.ToolDefinition;
import dev.pagantic.inference.Capability;
import dev.pagantic.inference.InferenceSettings;
import dev.pagantic.inference.Result;
import dev.pagantic.inference.grammar.GbnfGrammar;
import dev.pagantic.memory.ConversationBuffer;
import dev.pagantic.memory.ConversationSnapshot;
import dev.pagantic.orchestrate.internal.EphemeralContext;
import dev.pagantic.orchestrate.internal.InferenceCall;
import dev.pagantic.orchestrate.internal.Phases;
import dev.pagantic.orchestrate.internal.StructuredOutput;
import dev.pagantic.orchestrate.lifecycle.ExecutionLifecycle;
import dev.pagantic.orchestrate.lifecycle.PatternPath;
import dev.pagantic.orchestrate.lifecycle.TransitionListener;
import dev.pagantic.orchestrate.loop.LoopBuilder;
import dev.pagantic.orchestrate.loop.LoopSettings;
import dev.pagantic.orchestrate.ports.ContextProvider;
import dev.pagantic.orchestrate.spi.Interceptor;
import dev.pagantic.orchestrate.spi.Invocation;
import dev.pagantic.orchestrate.spi.InvocationKind;
import dev.pagantic.orchestrate.spi.Observer;
import dev.pagantic.tool.ToolExecutor;
import dev.pagantic.tool.ToolRegistry;
import dev.pagantic.types.OutputType;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.function.BiConsumer;
import org.jspecify.annotations.Nullable;

/**
 * The stateful multi-turn pattern: a conversational agent that keeps its history across {@link #chat} calls and runs a
 * bounded tool loop inside each turn.
 *
 * <h2>A turn</h2>
 * <ol>
 *   <li>the user message is appended to the conversation history;</li>
 *   <li>if a {@link ContextProvider} is configured, context is retrieved for the user message; it is
 *       <em>ephemeral</em>: inserted into the request just before the turn's user message (in every inference of the
 *       turn, tool rounds included) and never stored in the history. A provider that fails does not fail the turn:
 *       the loop proceeds without context and records the failure as a {@code context} event;</li>
 *   <li>the history (plus the ephemeral context) and the tool definitions are sent to the engine, through the
 *       orchestrate's one inference path: the configured {@link Interceptor} as an {@link InvocationKind#INFERENCE}
 *       invocation, with an {@code inference_start} and an {@code inference_end} event;</li>
 *   <li>when the model calls tools, the calls are executed (each through the interceptor as an
 *       {@link InvocationKind#TOOL_CALL} invocation when one is configured), the assistant's tool-call message and then
 *       the tool results, in call order, are appended to the history, and the loop goes back to step 3. A tool that
 *       fails, times out, is unknown or gets invalid arguments comes back as an error tool message, so the model can
 *       correct itself;</li>
 *   <li>the final text is stored as an assistant message and returned; the returned {@link Result}'s usage is the sum
 *       over every inference of the turn, and its messages are those the turn added after the user message;</li>
 *   <li>at most {@code maxToolIterations} tool rounds (default 20) run per turn; a model that calls tools again after
 *       the last one fails the turn with {@code ORCHESTRATION_ITERATION_LIMIT} (those calls do not run).</li>
 * </ol>
 * Cancellation and the deadline of the {@link CallContext} are checked before every inference and between tool rounds:
 * a cancelled turn fails with {@code CANCELLED_SIGNAL} or {@code CANCELLED_TIMEOUT}. Every inference of a turn uses
 * the loop's {@linkplain LoopBuilder#settings inference settings} with the turn's laid over them.
 *
 * <h2>Failed turns are rolled back</h2>
 * When a turn fails, the history is restored to exactly what it was before the turn, so the caller can retry the same
 * message without duplicating it, and the history never holds a tool call without the answer that followed it. Tool
 * calls that already ran are not undone; their effects are visible in the events and the {@code onToolResult} hook.
 *
 * <h2>Structured output</h2>
 * {@link #chatStructured(CallContext, String, Schema)} runs a turn whose answer must be JSON following a schema: at
 * temperature {@value #STRUCTURED_TEMPERATURE} unless the loop's or the turn's settings say otherwise, with thinking
 * disabled, with the configured GBNF grammar (or one derived from the schema when the engine declares
 * {@link Capability#GRAMMAR}), with the schema when the engine declares {@link Capability#SCHEMA}, and then the strict
 * constraint pipeline. A structured turn offers no tools, ignores the turn's hooks but the lifecycle, and is not
 * retried here (the {@code SpecializedLoop} retries). An answer cut off at the token limit is returned as it is, with
 * finish reason {@code LENGTH}, unvalidated. {@link #chatStructured(CallContext, String, OutputType)} asks for a Java
 * type ({@link OutputType}) and returns the answer converted to it.
 *
 * <h2>Events</h2>
 * Next to the inference events, the loop records a {@code tool} event per tool execution (tool, {@code tool_call_id},
 * arguments, {@code is_error}, in the tool call's span) and a {@code context} event per retrieval, each with the call
 * context's correlation ids. A chat turn given an {@linkplain TurnOptions#eventListener() event listener} also pushes
 * seed 004's {@link AgentEvent}s to it, in this order: {@code turn_start}; for each inference its decision as soon as
 * it is known ({@code steering_mode respond} then {@code thinking} and every streamed content delta as a
 * {@code text_delta}, or {@code steering_mode steer} with the call count, {@code thinking}, and per call
 * {@code tool_call} before it runs and {@code tool_result} after it); {@code turn_end} with the answer and the time
 * since
 * the matching {@code turn_start}. With a listener or a {@linkplain TurnOptions#steering() steering} queue the tool
 * calls of a round run one at a time; steering after a call skips the round's remaining calls (each gets the error
 * result {@link #SKIPPED_FOR_STEERING}) and reports {@code steering_mode interrupt}; a
 * {@linkplain TurnOptions#followUp() follow-up} queue continues the turn after an answer with a new {@code turn_start}.
 * A failed turn has no {@code turn_end}: the failure is thrown. The order is documented in
 * {@code docs/layers/02-orchestrate-events.md}.
 *
 * <h2>Lifecycle and threading</h2>
 * A turn can drive seed 001's lifecycle on the {@link PatternPath#AGENT_LOOP} path (INIT → PREPARE → EXECUTE →
 * (VALIDATE) → COMPLETE, or ERROR / CANCELLED): configure a transition listener for a lifecycle per turn, or pass one
 * in the {@link TurnOptions}. A loop serves one caller at a time: a turn started while another runs on the same loop
 * is refused with {@code ORCHESTRATION_CONCURRENT_USE}; {@link #messages()} may be read from any thread.
 *
 * <pre>{@code
 * try (AgentLoop agent = AgentLoop.builder()
 *         .engine(engine)
 *         .tools(ToolRegistry.of(searchTool, calcTool))
 *         .systemPrompt("You are a helpful assistant with access to tools.")
 *         .build()) {
 *     Result paris = agent.chat(ctx, "What is the weather in Paris?");
 *     Result london = agent.chat(ctx, "How about London?");
 * }
 * }</pre>
 */
public final class AgentLoop implements AutoCloseable {

    /** The default temperature of {@link #chatStructured}. */
    public static final double STRUCTURED_TEMPERATURE = 0.3;

    /** The error text of a tool call skipped because a steering queue interrupted its round. */
    public static final String SKIPPED_FOR_STEERING =
            "skipped: the user steered the conversation before this tool call ran; it was not executed";

    private final LoopSettings settings;
    private final boolean ownsExecutor;
    private final Optional<GbnfGrammar> grammar;
    private final @Nullable TransitionListener transitionListener;
    private final InferenceCall inference;
    private final ToolRound round;
    private @Nullable SchemaValidator validator; // made by the first structured turn: chat turns need none
    private final ConversationBuffer memory;
    private final AtomicBoolean busy = new AtomicBoolean();
    private final AtomicBoolean closed = new AtomicBoolean();

    private AgentLoop(Builder builder, LoopSettings settings, boolean ownsExecutor) {
        this.settings = settings;
        this.ownsExecutor = ownsExecutor;
        this.grammar = Optional.ofNullable(builder.grammar);
        this.transitionListener = builder.transitionListener;
        this.inference = InferenceCall.of(settings.engine(), settings.interceptor(), settings.eventLog());
        this.round = new ToolRound(settings.toolExecutor().orElse(null), settings.interceptor(), settings.eventLog(),
                builder.onToolResult);
        this.memory = builder.memory != null ? builder.memory : new ConversationBuffer();
        if (this.memory.isEmpty()) {
            settings.systemMessage().ifPresent(this.memory::append);
        }
    }

    /** Starts building a loop; an engine is required. */
    public static Builder builder() {
        return new Builder();
    }

    // ------------------------------------------------------------------------------------------------------ chat

    /**
     * Runs one conversational turn: appends the user message, runs the tool loop, stores and returns the final answer.
     *
     * @return the final answer, with the usage summed over the turn's inferences
     * @throws PaganticException {@code ORCHESTRATION_CONCURRENT_USE} when another turn is running on this loop;
     *                           {@code ORCHESTRATION_ITERATION_LIMIT} when the model keeps calling tools;
     *                           {@code CANCELLED_*}; the engine's {@code INFERENCE_*} or {@code CONFIG_*} failures. The
     *                           history is rolled back on every failure.
     */
    public Result chat(CallContext ctx, String userMessage) {
        return chatTurn(ctx, userMessage, TurnOptions.DEFAULTS).result();
    }

    /** Runs one conversational turn in a {@linkplain CallContext#background() background context}. */
    public Result chat(String userMessage) {
        return chat(CallContext.background(), userMessage);
    }

    /**
     * Runs one conversational turn like {@link #chat(CallContext, String)} with per-turn hooks, and returns with its
     * result the tool executions of the turn.
     */
    public AgentTurn chatTurn(CallContext ctx, String userMessage, TurnOptions options) {
        requireNonNull(userMessage, "userMessage");
        return chatTurn(ctx, List.of(Message.user(userMessage)), InferenceSettings.DEFAULTS, options);
    }

    /** Runs one conversational turn of several new messages with the loop's own inference settings. */
    public AgentTurn chatTurn(CallContext ctx, List<Message> newMessages, TurnOptions options) {
        return chatTurn(ctx, newMessages, InferenceSettings.DEFAULTS, options);
    }

    /**
     * Runs one conversational turn that appends several messages before the tool loop starts (typically the results
     * of caller-executed tools the previous turn handed back, and a user message), with the turn's inference settings
     * laid over the loop's and the turn's hooks. Ephemeral context is retrieved for the last user message among them.
     *
     * @throws PaganticException {@code CONFIG_INVALID} when there are no messages, the options' lifecycle is past INIT
     *                           and PLAN, a caller tool has the name of a registered tool or the whitelist names a tool
     *                           that is not registered; otherwise as {@link #chat(CallContext, String)}
     */
    public AgentTurn chatTurn(CallContext ctx, List<Message> newMessages, InferenceSettings turnSettings,
                              TurnOptions options) {
        requireNonNull(ctx, "ctx");
        requireNonNull(turnSettings, "settings");
        requireNonNull(options, "options");
        List<Message> turnMessages = List.copyOf(newMessages);
        if (turnMessages.isEmpty()) {
            throw PaganticException.of(ErrorCode.CONFIG_INVALID, "a turn needs at least one new message");
        }
        ToolRegistry tools = settings.tools().orElse(null);
        for (ToolDefinition callerTool : options.callerTools()) {
            if (tools != null && tools.contains(callerTool.name())) {
                throw PaganticException.of(ErrorCode.CONFIG_INVALID, "caller tool '" + callerTool.name()
                        + "' has the name of a registered tool");
            }
        }
        ToolRegistry registry = tools == null ? null : options.allowedTools().map(tools::allowOnly).orElse(tools);
        return turn(ctx, turnMessages, options, phases -> {
            int lastUser = lastIndexOf(turnMessages, Role.USER);
            List<Message> context = lastUser < 0 ? List.of() : EphemeralContext.fetch(
                    settings.contextProvider().orElse(null), settings.eventLog(), ctx,
                    turnMessages.get(lastUser).content());
            ContextInjection injection = new ContextInjection(context, settings.contextPlacement().orElse(null),
                    turnMessages.size() - lastUser);
            return new ToolLoop(ctx, memory, inference, settings.inference().overrideWith(turnSettings), options,
                    round, registry, injection, settings.maxToolIterations(), settings.stream()).run(phases);
        });
    }

    /**
     * Runs one turn whose answer must be JSON conforming to the schema (see the class comment). The result's content
     * is the validated (possibly repaired and normalised) JSON, and that JSON is what the history stores.
     *
     * @throws PaganticException {@code CONSTRAINT_*} when the output does not conform after repair; otherwise as
     *                           {@link #chat}. The history is rolled back on every failure.
     */
    public Result chatStructured(CallContext ctx, String userMessage, Schema schema) {
        return chatStructured(ctx, userMessage, schema, InferenceSettings.DEFAULTS, TurnOptions.DEFAULTS);
    }

    /** Runs a structured turn in a {@linkplain CallContext#background() background context}. */
    public Result chatStructured(String userMessage, Schema schema) {
        return chatStructured(CallContext.background(), userMessage, schema);
    }

    /**
     * Runs one structured turn like {@link #chatStructured(CallContext, String, Schema)} with the turn's settings laid
     * over the loop's (a temperature there replaces {@value #STRUCTURED_TEMPERATURE}; {@code enable_thinking} stays
     * {@code false}) and a lifecycle in the options driven through PREPARE, EXECUTE, VALIDATE and COMPLETE.
     */
    public Result chatStructured(CallContext ctx, String userMessage, Schema schema, InferenceSettings turnSettings,
                                 TurnOptions options) {
        return structuredTurn(ctx, userMessage, schema, turnSettings, options).result();
    }

    /**
     * Runs one structured turn for a Java type: the type's schema, then the validated JSON converted to the type (one
     * parse of the output, shared by validation and conversion).
     *
     * <pre>{@code
     * Invoice invoice = loop.chatStructured(ctx, "Extract the invoice: ...", OutputType.of(Invoice.class));
     * }</pre>
     *
     * @throws PaganticException as {@link #chatStructured(CallContext, String, Schema)}; also
     *                           {@code CONSTRAINT_SCHEMA_INVALID} when the output does not convert to the type, and
     *                           {@code CONSTRAINT_JSON_INVALID} (not retryable) when it was cut off at the token limit
     */
    public <T> T chatStructured(CallContext ctx, String userMessage, OutputType<T> type) {
        requireNonNull(type, "type");
        StructuredTurn turn = structuredTurn(ctx, userMessage, type.schema(), InferenceSettings.DEFAULTS,
                TurnOptions.DEFAULTS);
        return StructuredOutput.convert(type, turn.report(), turn.result());
    }

    /** A structured turn's result and the constraint pipeline's report on it. */
    private record StructuredTurn(Result result, ValidationReport report) {
    }

    private StructuredTurn structuredTurn(CallContext ctx, String userMessage, Schema schema,
                                          InferenceSettings turnSettings, TurnOptions options) {
        requireNonNull(ctx, "ctx");
        requireNonNull(userMessage, "userMessage");
        requireNonNull(schema, "schema");
        requireNonNull(turnSettings, "settings");
        requireNonNull(options, "options");
        ValidationReport[] report = new ValidationReport[1];
        Result result = turn(ctx, List.of(Message.user(userMessage)), options, phases -> {
            List<Message> context = EphemeralContext.fetch(settings.contextProvider().orElse(null),
                    settings.eventLog(), ctx, userMessage);
            List<Message> messages = new ContextInjection(context, settings.contextPlacement().orElse(null), 1)
                    .place(memory.messages(), 0);
            phases.execute("structured inference");
            StructuredOutput.Constrained answer = StructuredOutput.infer(inference, ctx, messages, schema,
                    StructuredOutput.grammarFor(inference.model(), schema, grammar),
                    StructuredOutput.settings(STRUCTURED_TEMPERATURE,
                            settings.inference().overrideWith(turnSettings)),
                    options.stream().orElse(settings.stream()));
            ctx.throwIfDone();
            if (answer.result().finishReason() == FinishReason.LENGTH) {
                phases.validate("the answer was cut off at the token limit: returned unvalidated");
                report[0] = ValidationReport.cutOff(answer.result().content());
            } else {
                phases.validate("constraint pipeline: JSON check, repair, enum normalisation, schema validation");
                if (validator == null) {
                    validator = new SchemaValidator();
                }
                report[0] = StructuredOutput.pipeline(schema, answer.grammar(), true, true, validator)
                        .process(answer.result().content());
            }
            Message stored = Message.assistant(report[0].json());
            memory.append(stored);
            phases.complete(report[0].isCutOff() ? "structured output cut off" : "structured output valid");
            return new AgentTurn(answer.result().toBuilder().content(report[0].json()).toolCalls(List.of())
                    .messages(List.of(stored)).build(), List.of(), List.of());
        }).result();
        return new StructuredTurn(result, report[0]);
    }

    /**
     * The conversation history as an immutable copy, oldest first: the system prompt (when configured) first, then
     * the turns' messages. Ephemeral context is never part of it.
     */
    public List<Message> messages() {
        return memory.messages();
    }

    /** The loop's settings. */
    public LoopSettings settings() {
        return settings;
    }

    /**
     * Closes the tool executor if this loop created it; an executor given to the builder, and the engine, belong to
     * the caller and stay open. Closing twice is harmless.
     */
    @Override
    public void close() {
        if (closed.compareAndSet(false, true) && ownsExecutor) {
            settings.toolExecutor().ifPresent(ToolExecutor::close);
        }
    }

    @Override
    public String toString() {
        return "AgentLoop[model=" + inference.name() + ", tools=" + settings.tools().map(ToolRegistry::size).orElse(0)
                + ", messages=" + memory.size() + "]";
    }

    // ------------------------------------------------------------------------------------------------------ turns

    /** The work of a turn, run with the new messages already in the history. */
    @FunctionalInterface
    private interface TurnBody {
        AgentTurn run(Phases phases);
    }

    /** Guards a turn against concurrent use, appends the new messages, and rolls the history back on failure. */
    private AgentTurn turn(CallContext ctx, List<Message> newMessages, TurnOptions options, TurnBody body) {
        Observer observer = settings.observer();
        if (observer == Observer.NONE) {
            return guardedTurn(ctx, newMessages, options, body);
        }
        return observer.intercept(Invocation.of(InvocationKind.AGENT_TURN, inference.name(), ctx, newMessages,
                () -> guardedTurn(ctx, newMessages, options, body)));
    }

    private AgentTurn guardedTurn(CallContext ctx, List<Message> newMessages, TurnOptions options, TurnBody body) {
        ExecutionLifecycle given = Phases.requireStartable(options.lifecycle()).orElse(null);
        if (!busy.compareAndSet(false, true)) {
            PaganticException refused = PaganticException.builder(ErrorCode.ORCHESTRATION_CONCURRENT_USE,
                            "this AgentLoop is already running a turn; a loop serves one caller at a time")
                    .detail("request_id", ctx.requestId()).build();
            new Phases(given).fail(refused);
            throw refused;
        }
        try {
            ExecutionLifecycle lifecycle = given != null ? given : transitionListener != null
                    ? ExecutionLifecycle.start(ctx, PatternPath.AGENT_LOOP, transitionListener) : null;
            Phases phases = new Phases(lifecycle);
            ConversationSnapshot before = memory.snapshot();
            try {
                phases.prepare("turn started: assembling history, context and tools");
                ctx.throwIfDone();
                memory.appendAll(newMessages);
                return body.run(phases);
            } catch (RuntimeException | Error failure) {
                memory.restore(before);
                phases.fail(failure);
                throw failure;
            }
        } finally {
            busy.set(false);
        }
    }

    private static int lastIndexOf(List<Message> messages, Role role) {
        for (int i = messages.size() - 1; i >= 0; i--) {
            if (messages.get(i).role() == role) {
                return i;
            }
        }
        return -1;
    }

    // ------------------------------------------------------------------------------------------------------ builder

    /**
     * Builds an {@link AgentLoop}: the specification's {@code LoopConfig}, with the setters every loop shares
     * ({@link LoopBuilder}) and the agent loop's own. Validated at {@link #build()}: no engine is
     * {@code CONFIG_NO_ENGINE}; other invalid settings are {@code CONFIG_INVALID}.
     */
    public static final class Builder extends LoopBuilder<Builder> {
        private @Nullable GbnfGrammar grammar;
        private @Nullable BiConsumer<String, String> onToolResult;
        private @Nullable TransitionListener transitionListener;
        private @Nullable ConversationBuffer memory;

        private Builder() {
        }

        /**
         * A GBNF grammar applied only by {@link AgentLoop#chatStructured}, never by {@link AgentLoop#chat}. An engine
         * that does not declare {@link Capability#GRAMMAR} refuses it ({@code CONFIG_UNSUPPORTED_CAPABILITY}).
         */
        public Builder grammar(@Nullable GbnfGrammar value) {
            this.grammar = value;
            return this;
        }

        /**
         * Called after each tool execution with the tool's name and its output (for a failed call, the error text the
         * model sees), on the turn's thread; an exception it throws fails the turn.
         */
        public Builder onToolResult(@Nullable BiConsumer<String, String> hook) {
            this.onToolResult = hook;
            return this;
        }

        /**
         * When set, every turn drives its own {@link ExecutionLifecycle} on the {@link PatternPath#AGENT_LOOP} path and
         * reports each transition here; none by default. A caller that drives a lifecycle itself passes it in the
         * turn's {@link TurnOptions#lifecycle()} instead.
         */
        public Builder transitionListener(@Nullable TransitionListener value) {
            this.transitionListener = value;
            return this;
        }

        /**
         * The conversation buffer to keep the history in (one restored from a store, or one bounded by a message or
         * token budget); a new unbounded buffer by default. The system prompt is added only when the buffer is empty.
         */
        public Builder memory(@Nullable ConversationBuffer value) {
            this.memory = value;
            return this;
        }

        /** The loop; see {@link Builder} for validation. */
        public AgentLoop build() {
            LoopSettings settings = loopSettings("AgentLoop");
            return new AgentLoop(this, settings, createdExecutor());
        }
    }
}
