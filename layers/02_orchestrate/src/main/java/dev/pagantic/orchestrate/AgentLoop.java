package dev.pagantic.orchestrate;

import dev.pagantic.constraint.ConstraintPipeline;
import dev.pagantic.constraint.ValidationReport;
import dev.pagantic.core.CallContext;
import dev.pagantic.core.ErrorCode;
import dev.pagantic.core.Message;
import dev.pagantic.core.PaganticException;
import dev.pagantic.core.Role;
import dev.pagantic.core.Schema;
import dev.pagantic.core.TokenUsage;
import dev.pagantic.core.ToolCall;
import dev.pagantic.core.ToolDefinition;
import dev.pagantic.core.ToolResult;
import dev.pagantic.inference.Capability;
import dev.pagantic.inference.Engine;
import dev.pagantic.inference.ModelInfo;
import dev.pagantic.inference.Request;
import dev.pagantic.inference.Result;
import dev.pagantic.inference.StreamHandler;
import dev.pagantic.inference.grammar.GbnfGrammar;
import dev.pagantic.memory.ConversationBuffer;
import dev.pagantic.memory.ConversationSnapshot;
import dev.pagantic.observe.Event;
import dev.pagantic.observe.EventError;
import dev.pagantic.observe.EventLog;
import dev.pagantic.orchestrate.lifecycle.ExecutionLifecycle;
import dev.pagantic.orchestrate.lifecycle.PatternPath;
import dev.pagantic.orchestrate.lifecycle.TransitionListener;
import dev.pagantic.orchestrate.spi.Interceptor;
import dev.pagantic.orchestrate.spi.Invocation;
import dev.pagantic.orchestrate.spi.InvocationKind;
import dev.pagantic.tool.ToolExecution;
import dev.pagantic.tool.ToolExecutor;
import dev.pagantic.tool.ToolRegistry;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Objects;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicReference;
import java.util.function.BiConsumer;

/**
 * The stateful multi-turn pattern: a conversational agent that keeps its history across {@link #chat} calls and
 * runs a bounded tool loop inside each turn.
 *
 * <h2>A turn</h2>
 * Every {@link #chat(CallContext, String)} call follows the specification's sequence:
 * <ol>
 *   <li>the user message is appended to the conversation history;</li>
 *   <li>if a {@link ContextProvider} is configured, context is retrieved for the user message; it is
 *       <em>ephemeral</em>: inserted into the request just before the turn's user message (in every inference of
 *       the turn, tool rounds included) and never stored in the history. A provider that fails does not fail the
 *       turn: the loop proceeds without context and records the failure as a {@code context} event;</li>
 *   <li>the history (plus the ephemeral context) and the tool definitions are sent to the engine, through the
 *       configured {@link Interceptor} as an {@link InvocationKind#INFERENCE} invocation;</li>
 *   <li>when the model calls tools, the calls are executed by the {@link ToolExecutor} (each through the
 *       interceptor as an {@link InvocationKind#TOOL_CALL} invocation when one is configured), the assistant's
 *       tool-call message and then the tool results, in call order, are appended to the history (so later turns
 *       know what the tools returned), and the loop goes back to step 3. A tool that fails, times out, is unknown or
 *       gets invalid arguments comes back as an error tool message, so the model can correct itself and retry;</li>
 *   <li>the final text is stored as an assistant message and returned; the returned {@link Result}'s usage is the
 *       sum over every inference of the turn ({@link TokenUsage#plus}), and its messages are those the turn added
 *       after the user message;</li>
 *   <li>at most {@link Builder#maxToolIterations(int) maxToolIterations} tool rounds (default 20) run per turn; the
 *       inference after the last round may still answer, but a model that calls tools again fails the turn with
 *       {@code ORCHESTRATION_ITERATION_LIMIT} (those calls do not run).</li>
 * </ol>
 * Cancellation and the deadline of the {@link CallContext} are checked before every inference and between tool
 * rounds (and the tool executor and engines check them while working): a cancelled turn fails with
 * {@code CANCELLED_SIGNAL} or {@code CANCELLED_TIMEOUT}.
 *
 * <h2>Failed turns are rolled back</h2>
 * When a turn fails (an inference error, a cancellation, the iteration limit, a constraint failure in
 * {@link #chatStructured}), the history is restored to exactly what it was before the turn: the user message and any
 * tool exchange of the failed turn are removed. This is a deliberate choice: the caller can retry the same message
 * without duplicating it, and the history never holds a tool call without the answer that followed it. Tool calls
 * that already ran are not undone, of course; their effects are visible in the events and the
 * {@link Builder#onToolResult onToolResult} hook.
 *
 * <h2>Structured output</h2>
 * {@link #chatStructured(CallContext, String, Schema)} runs a turn whose answer must be JSON following a schema: at
 * temperature 0.3 with thinking disabled ({@code enable_thinking = false}), with the configured GBNF grammar (or,
 * when none is configured and the engine declares {@link Capability#GRAMMAR}, one derived from the schema), with the
 * schema in the request when the engine declares {@link Capability#SCHEMA}, and then the constraint pipeline (JSON
 * check, repair, enum normalisation, schema validation). The grammar is never used by {@link #chat}. A structured turn
 * offers no tools; failures are {@code CONSTRAINT_*} errors and are not retried here (the {@code SpecializedLoop}
 * retries).
 *
 * <h2>Events</h2>
 * With an {@link EventLog} configured, the loop records an {@code orchestrate}-layer event for every inference
 * ({@code infer}: model, round, message and tool counts, tool calls requested, finish reason, token counts), every
 * tool execution ({@code tool}: tool name, {@code tool_call_id}, arguments, {@code is_error}; in the tool call's span,
 * its caused-by being the tool call id from the inference that asked for it) and every context retrieval
 * ({@code context}: query, message count, {@code degraded} when the provider failed), each with its duration and the
 * call context's correlation ids (the session id when the context has one) and, when the work failed, its error.
 *
 * <h2>Streamed agent events, steering and follow-up (seed 004)</h2>
 * A chat turn given an {@link TurnOptions#eventListener() event listener} pushes the {@link AgentEvent}s of seed 004's
 * protocol to it, on the turn's thread, in this order:
 * <ol>
 *   <li>{@code turn_start} when the tool loop starts (and again for each follow-up iteration, below);</li>
 *   <li>for each inference, its decision as soon as it is known: the first content delta of an inference that has
 *       not called a tool announces {@code steering_mode {respond, 0}}, followed by the reasoning so far as one
 *       {@code thinking} event, and every content delta the engine streams is passed on as a {@code text_delta}
 *       (numbered from 0). An inference that ends with tool calls announces {@code steering_mode {steer, n}} for
 *       its n calls, then its reasoning as {@code thinking}, then for each call {@code tool_call} before it runs and
 *       {@code tool_result} after it (a failed call has {@code error} set). An answer that did not stream (an engine
 *       without streaming, an interceptor that answered itself) is announced from the result, as one
 *       {@code text_delta}. A model that writes text <em>before</em> calling tools shows as
 *       {@code steering_mode respond}, its text deltas, then {@code steering_mode steer}: the text is the content of
 *       the tool-call message;</li>
 *   <li>{@code turn_end} with the answer's assistant message and the time since the matching {@code turn_start}
 *       (when caller tools are handed back, with the tool-call message). A failed turn has no {@code turn_end}: the
 *       failure is thrown.</li>
 * </ol>
 * The caller's {@link StreamHandler} (the options' or the loop's) still receives every delta. With a listener, the
 * tool calls of a round run one at a time (so each {@code tool_call} is followed by its own {@code tool_result}),
 * never in parallel; a listener that throws fails the turn.
 * <p>A {@link TurnOptions#steering() steering} queue is polled after each tool call of a round (the round's calls
 * then run one at a time, listener or not). When it returns messages, the round's remaining calls do not run: each
 * gets an error tool result {@link #SKIPPED_FOR_STEERING} so that every call in the history is answered (caller-tool
 * calls of that round too, which are then not handed back), the messages are appended, {@code steering_mode
 * {interrupt, k}} reports the k injected messages, and the model infers again. Skipped calls are not in
 * {@link AgentTurn#toolExecutions()}. A {@link TurnOptions#followUp() follow-up} queue is consulted when the model
 * answers: when it returns messages, the answer stays in the history, the messages are appended after it, a new
 * {@code turn_start} is emitted and the loop goes on; the turn's result is the last answer, its messages all that the
 * turn added. Tool rounds are counted over the whole turn, follow-ups included. Structured turns
 * ({@link #chatStructured}) ignore the listener and both queues.
 *
 * <h2>Lifecycle</h2>
 * A turn can drive the execution lifecycle of seed 001 on the {@link PatternPath#AGENT_LOOP} path: INIT → PREPARE
 * (history, context and tools assembled) → EXECUTE (the inferences and the tool loop, which stays within EXECUTE) →
 * COMPLETE, with VALIDATE before COMPLETE in a structured turn (the constraint pipeline), or ERROR / CANCELLED when the
 * turn fails. Configure a {@link Builder#transitionListener(TransitionListener) transition listener} to get a lifecycle
 * per turn, or pass one the caller started in the {@link TurnOptions} of
 * {@link #chatTurn(CallContext, String, TurnOptions)}.
 *
 * <h2>Threading</h2>
 * A loop holds one conversation and is meant to be driven by one caller at a time. It is safe to share between
 * threads in the sense that misuse fails fast instead of corrupting the history: a {@code chat} or
 * {@code chatStructured} call made while another is running on the same instance is refused at once with
 * {@code ORCHESTRATION_CONCURRENT_USE}, and the running turn is unaffected. {@link #messages()} may be called from any
 * thread at any time and returns a consistent copy (during a turn, it includes the turn's messages so far).
 *
 * <pre>{@code
 * try (AgentLoop agent = AgentLoop.builder()
 *         .engine(engine)
 *         .tools(ToolRegistry.of(searchTool, calcTool))
 *         .systemPrompt("You are a helpful assistant with access to tools.")
 *         .contextProvider(contextBuilder::build)
 *         .eventLog(EventLog.inMemory())
 *         .build()) {
 *     Result paris = agent.chat(ctx, "What is the weather in Paris?");
 *     Result london = agent.chat(ctx, "How about London?");
 *     List<Message> history = agent.messages(); // system, user, (tool exchange), assistant, user, assistant
 * }
 * }</pre>
 */
public final class AgentLoop implements AutoCloseable {

    /** The default of {@link Builder#maxTokens(int)}. */
    public static final int DEFAULT_MAX_TOKENS = 2048;
    /** The default of {@link Builder#maxToolIterations(int)}. */
    public static final int DEFAULT_MAX_TOOL_ITERATIONS = 20;
    /** The temperature of {@link #chatStructured}. */
    public static final double STRUCTURED_TEMPERATURE = 0.3;
    /** The engine option that {@link #chatStructured} sets to {@code false}. */
    public static final String ENABLE_THINKING_OPTION = "enable_thinking";

    /** The error text of a tool call skipped because a steering queue interrupted its round. */
    public static final String SKIPPED_FOR_STEERING =
            "skipped: the user steered the conversation before this tool call ran; it was not executed";

    static final String LAYER = "orchestrate";

    private final Engine engine;
    private final ToolRegistry tools; // null: no tools
    private final ToolExecutor executor; // null when there are no tools
    private final boolean ownsExecutor;
    private final GbnfGrammar grammar; // null: none configured
    private final int maxTokens;
    private final int maxToolIterations;
    private final StreamHandler stream; // null: no streaming
    private final BiConsumer<String, String> onToolResult; // null: none
    private final EventLog eventLog;
    private final ContextProvider contextProvider; // null: none
    private final ContextPlacement contextPlacement; // null: before the turn's user message
    private final Interceptor interceptor;
    private final TransitionListener transitionListener; // null: no lifecycle per turn
    private final ConversationBuffer memory;
    private final AtomicBoolean busy = new AtomicBoolean();
    private final AtomicBoolean closed = new AtomicBoolean();

    private AgentLoop(Builder builder, ToolExecutor executor, boolean ownsExecutor, GbnfGrammar grammar,
                      Message systemMessage) {
        this.engine = builder.engine;
        this.tools = builder.tools;
        this.executor = executor;
        this.ownsExecutor = ownsExecutor;
        this.grammar = grammar;
        this.maxTokens = builder.maxTokens;
        this.maxToolIterations = builder.maxToolIterations;
        this.stream = builder.stream;
        this.onToolResult = builder.onToolResult;
        this.eventLog = builder.eventLog;
        this.contextProvider = builder.contextProvider;
        this.contextPlacement = builder.contextPlacement;
        this.interceptor = builder.interceptor;
        this.transitionListener = builder.transitionListener;
        this.memory = builder.memory != null ? builder.memory : new ConversationBuffer();
        if (systemMessage != null && this.memory.isEmpty()) {
            this.memory.append(systemMessage);
        }
    }

    /** Starts building a loop; an engine is required. */
    public static Builder builder() {
        return new Builder();
    }

    // ------------------------------------------------------------------------------------------------------ chat

    /**
     * Runs one conversational turn: appends the user message, runs the tool loop, stores and returns the final
     * answer. See the class comment for the sequence.
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
     * Runs one conversational turn like {@link #chat(CallContext, String)}, with per-turn settings (execution hints,
     * a tool whitelist, a lifecycle to drive), and returns with its result the tool executions of the turn (call,
     * result, error code, duration), for callers that report them (the facade's {@code ToolCallsMade}).
     *
     * @throws PaganticException {@code CONFIG_INVALID} when the options' lifecycle is past INIT and PLAN or the
     *                           whitelist names a tool that is not registered; otherwise as
     *                           {@link #chat(CallContext, String)}
     */
    public AgentTurn chatTurn(CallContext ctx, String userMessage, TurnOptions options) {
        Objects.requireNonNull(userMessage, "userMessage");
        return chatTurn(ctx, List.of(Message.user(userMessage)), options);
    }

    /**
     * Runs one conversational turn that appends several messages before the tool loop starts: typically the results
     * of caller-executed tools that the previous turn handed back ({@link AgentTurn#pendingCalls()}), or a user
     * message with them. Ephemeral context is retrieved for the last user message among them, and inserted just
     * before it; without a user message no context is retrieved.
     *
     * @throws PaganticException {@code CONFIG_INVALID} when there are no messages or a caller tool has the name of a
     *                           registered tool; otherwise as {@link #chatTurn(CallContext, String, TurnOptions)}
     */
    public AgentTurn chatTurn(CallContext ctx, List<Message> newMessages, TurnOptions options) {
        Objects.requireNonNull(ctx, "ctx");
        Objects.requireNonNull(options, "options");
        List<Message> turnMessages = List.copyOf(newMessages);
        if (turnMessages.isEmpty()) {
            throw PaganticException.of(ErrorCode.CONFIG_INVALID, "a turn needs at least one new message");
        }
        for (ToolDefinition callerTool : options.callerTools()) {
            if (tools != null && tools.contains(callerTool.name())) {
                throw PaganticException.of(ErrorCode.CONFIG_INVALID, "caller tool '" + callerTool.name()
                        + "' has the name of a registered tool");
            }
        }
        return turn(ctx, turnMessages, options, phases -> runToolLoop(ctx, turnMessages, options, phases));
    }

    /**
     * Runs one turn whose answer must be JSON conforming to the schema (see the class comment). The result's content
     * is the validated (possibly repaired and normalised) JSON, and that JSON is what the history stores.
     *
     * @throws PaganticException {@code CONSTRAINT_JSON_INVALID}, {@code CONSTRAINT_SCHEMA_INVALID},
     *                           {@code CONSTRAINT_ENUM_UNRECOGNIZED} or {@code CONSTRAINT_GRAMMAR_REJECTED} when the
     *                           output does not conform after repair; otherwise as {@link #chat}. The history is
     *                           rolled back on every failure.
     */
    public Result chatStructured(CallContext ctx, String userMessage, Schema schema) {
        return chatStructured(ctx, userMessage, schema, TurnOptions.DEFAULTS);
    }

    /** Runs a structured turn in a {@linkplain CallContext#background() background context}. */
    public Result chatStructured(String userMessage, Schema schema) {
        return chatStructured(CallContext.background(), userMessage, schema);
    }

    /**
     * Runs one structured turn like {@link #chatStructured(CallContext, String, Schema)} with per-turn settings: a
     * temperature in the options replaces 0.3, other options are passed through ({@code enable_thinking} stays
     * {@code false}), the tool whitelist does not apply (a structured turn offers no tools), and a lifecycle in the
     * options is driven through PREPARE, EXECUTE, VALIDATE (the constraint pipeline) and COMPLETE, or ERROR /
     * CANCELLED.
     */
    public Result chatStructured(CallContext ctx, String userMessage, Schema schema, TurnOptions options) {
        Objects.requireNonNull(ctx, "ctx");
        Objects.requireNonNull(userMessage, "userMessage");
        Objects.requireNonNull(schema, "schema");
        Objects.requireNonNull(options, "options");
        return turn(ctx, List.of(Message.user(userMessage)), options, phases -> runStructured(ctx, userMessage, schema, options, phases,
                (result, grammar) -> {
                    phases.validate("constraint pipeline: JSON check, repair, enum normalisation, schema validation");
                    return strictPipeline(schema, grammar).process(result.content());
                })).result();
    }

    /**
     * A structured turn whose output is judged by the caller's check instead of the strict pipeline, for the
     * {@link SpecializedLoop}, which drives its own lifecycle, applies the output contract's repair and strictness
     * settings and its rules, and needs the validation report.
     */
    AgentTurn structuredTurn(CallContext ctx, String userMessage, Schema schema, TurnOptions options,
                             StructuredCheck check) {
        return turn(ctx, List.of(Message.user(userMessage)), options, phases -> runStructured(ctx, userMessage, schema, options, phases,
                check));
    }

    /** Judges the output of a structured inference; throws to fail the turn. */
    @FunctionalInterface
    interface StructuredCheck {
        /**
         * @param result  the inference's result
         * @param grammar the grammar the output was generated under; null when none
         * @return the validation report, whose JSON becomes the turn's answer
         */
        ValidationReport check(Result result, GbnfGrammar grammar);
    }

    private static ConstraintPipeline strictPipeline(Schema schema, GbnfGrammar grammar) {
        ConstraintPipeline.Builder pipeline = ConstraintPipeline.builder().schema(schema).repairAllowed(true)
                .strict(true);
        if (grammar != null) {
            pipeline.grammar(grammar);
        }
        return pipeline.build();
    }

    /**
     * The conversation history as an immutable copy, oldest first: the system prompt (when configured) first, then
     * user messages, the assistant's tool-call messages with their tool results, and the assistant's answers.
     * Ephemeral context is never part of it.
     */
    public List<Message> messages() {
        return memory.messages();
    }

    /** The configured most tokens per inference call. */
    public int maxTokens() {
        return maxTokens;
    }

    /** The configured most tool rounds per turn. */
    public int maxToolIterations() {
        return maxToolIterations;
    }

    /**
     * Closes the tool executor if this loop created it; an executor given to the builder, and the engine, belong to
     * the caller and stay open. Closing twice is harmless.
     */
    @Override
    public void close() {
        if (closed.compareAndSet(false, true) && ownsExecutor && executor != null) {
            executor.close();
        }
    }

    // ------------------------------------------------------------------------------------------------------ turns

    /** The work of a turn, run with the user message already in the history. */
    @FunctionalInterface
    private interface TurnBody {
        AgentTurn run(Phases phases);
    }

    /** Guards a turn against concurrent use, appends the new messages, and rolls the history back on failure. */
    private AgentTurn turn(CallContext ctx, List<Message> newMessages, TurnOptions options, TurnBody body) {
        ExecutionLifecycle given = Phases.requireStartable(options.lifecycle()).orElse(null);
        if (!busy.compareAndSet(false, true)) {
            PaganticException refused = PaganticException.builder(ErrorCode.ORCHESTRATION_CONCURRENT_USE,
                            "this AgentLoop is already running a turn; a loop serves one caller at a time")
                    .detail("request_id", ctx.requestId()).build();
            new Phases(given).fail(refused);
            throw refused;
        }
        try {
            ExecutionLifecycle lifecycle = given != null ? given
                    : transitionListener != null
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

    /** Steps 2 to 6 of a chat turn. */
    private AgentTurn runToolLoop(CallContext ctx, List<Message> newMessages, TurnOptions options, Phases phases) {
        ToolRegistry registry = tools == null ? null
                : options.allowedTools().map(tools::allowOnly).orElse(tools);
        int lastUser = lastUserIndex(newMessages);
        List<Message> context = lastUser < 0 ? List.of()
                : EphemeralContext.fetch(contextProvider, eventLog, ctx, newMessages.get(lastUser).content());
        int userFromEnd = newMessages.size() - lastUser; // the user message's distance from the end, before the loop
        List<ToolDefinition> definitions = new ArrayList<>(registry == null ? List.of() : registry.definitions());
        definitions.addAll(options.callerTools());
        Set<String> callerNames = new HashSet<>();
        options.callerTools().forEach(tool -> callerNames.add(tool.name()));
        StreamHandler handler = options.stream().orElse(stream);
        TurnEvents events = TurnEvents.of(options);
        // one call at a time when the caller watches each call or may interrupt between them
        boolean oneByOne = events.active() || options.steering().isPresent();
        phases.execute("running the tool loop");
        events.turnStart(ctx);
        List<Message> added = new ArrayList<>();
        List<ToolExecution> executed = new ArrayList<>();
        TokenUsage usage = TokenUsage.ZERO;
        int rounds = 0;
        while (true) {
            ctx.throwIfDone();
            Request request = requestBuilder(options)
                    .messages(placeContext(memory.messages(), added.size() + userFromEnd - 1, context))
                    .tools(definitions)
                    .build();
            TurnEvents.Inference inference = events.active() ? events.inference(handler) : null;
            Result result = infer(ctx, request, rounds, inference == null ? handler : inference.handler());
            if (inference != null) {
                inference.finish(result);
            }
            usage = usage.plus(result.usage());
            if (!result.hasToolCalls()) {
                Message answer = Message.assistant(result.content());
                memory.append(answer);
                added.add(answer);
                events.turnEnd(ctx, answer);
                List<Message> followUps = drain(options.followUp());
                if (!followUps.isEmpty()) {
                    // the caller continues the turn: the answer stays, the follow-up messages come after it
                    memory.appendAll(followUps);
                    added.addAll(followUps);
                    events.turnStart(ctx);
                    continue;
                }
                phases.complete("final answer after " + rounds + " tool round(s)");
                return new AgentTurn(result.toBuilder().messages(added).usage(usage).build(), executed, List.of());
            }
            if (rounds >= maxToolIterations) {
                throw PaganticException.builder(ErrorCode.ORCHESTRATION_ITERATION_LIMIT,
                                "the model still calls tools after " + maxToolIterations
                                        + " tool rounds (maxToolIterations)")
                        .detail("max_tool_iterations", maxToolIterations)
                        .detail("request_id", ctx.requestId()).build();
            }
            ctx.throwIfDone();
            Message call = Message.assistant(result.content(), result.toolCalls());
            memory.append(call);
            added.add(call);
            List<ToolCall> serverCalls = new ArrayList<>();
            List<ToolCall> callerCalls = new ArrayList<>();
            result.toolCalls().forEach(c -> (callerNames.contains(c.name()) ? callerCalls : serverCalls).add(c));
            if (!oneByOne) {
                for (ToolExecution execution : executeTools(ctx, registry, serverCalls)) {
                    Message message = execution.result().toMessage();
                    memory.append(message);
                    added.add(message);
                    executed.add(execution);
                }
            } else {
                List<Message> steering = List.of();
                int next = 0;
                while (next < serverCalls.size() && steering.isEmpty()) {
                    ToolCall toolCall = serverCalls.get(next++);
                    events.toolCall(toolCall);
                    ToolExecution execution = executeTools(ctx, registry, List.of(toolCall)).get(0);
                    events.toolResult(execution.result());
                    Message message = execution.result().toMessage();
                    memory.append(message);
                    added.add(message);
                    executed.add(execution);
                    steering = drain(options.steering());
                }
                if (!steering.isEmpty()) {
                    // the caller steers: every call that did not run still gets a result, so that the history
                    // stays well-formed (each tool call answered), and caller calls are not handed back
                    List<ToolCall> skipped = new ArrayList<>(serverCalls.subList(next, serverCalls.size()));
                    skipped.addAll(callerCalls);
                    for (ToolCall skip : skipped) {
                        Message message = ToolResult.error(skip.id(), skip.name(), SKIPPED_FOR_STEERING).toMessage();
                        memory.append(message);
                        added.add(message);
                    }
                    memory.appendAll(steering);
                    added.addAll(steering);
                    events.interrupted(steering.size());
                    rounds++;
                    continue;
                }
            }
            if (!callerCalls.isEmpty()) {
                events.turnEnd(ctx, call);
                phases.complete("handing " + callerCalls.size() + " caller tool call(s) back");
                return new AgentTurn(result.toBuilder().messages(added).usage(usage).build(), executed, callerCalls);
            }
            rounds++;
        }
    }

    private static List<Message> drain(Optional<MessageQueue> queue) {
        if (queue.isEmpty()) {
            return List.of();
        }
        List<Message> messages = queue.get().drain();
        return messages == null ? List.of() : List.copyOf(messages);
    }

    /** Steps 2 to 5 of a structured turn: one inference without tools, then the constraint pipeline. */
    private AgentTurn runStructured(CallContext ctx, String userMessage, Schema schema, TurnOptions options,
                                    Phases phases, StructuredCheck check) {
        List<Message> context = EphemeralContext.fetch(contextProvider, eventLog, ctx, userMessage);
        ModelInfo model = engine.modelInfo();
        GbnfGrammar applied = grammar;
        if (applied == null && model.supports(Capability.GRAMMAR)) {
            applied = GbnfGrammar.fromSchema(schema);
        }
        Request.Builder request = requestBuilder(options)
                .messages(placeContext(memory.messages(), 0, context))
                .temperature(options.temperature().orElse(STRUCTURED_TEMPERATURE))
                .option(ENABLE_THINKING_OPTION, false);
        if (applied != null) {
            request.grammar(applied.text());
        }
        if (model.supports(Capability.SCHEMA)) {
            request.schema(schema);
        }
        phases.execute("structured inference");
        ctx.throwIfDone();
        Result result = infer(ctx, request.build(), 0, options.stream().orElse(stream));
        ctx.throwIfDone();
        ValidationReport report = check.check(result, applied);
        Message answer = Message.assistant(report.json());
        memory.append(answer);
        phases.complete("structured output valid");
        return new AgentTurn(Result.builder()
                .content(report.json())
                .reasoning(result.reasoning())
                .messages(List.of(answer))
                .usage(result.usage())
                .finishReason(result.finishReason())
                .build(), List.of(), List.of());
    }

    // ------------------------------------------------------------------------------------------------------ steps

    private static int lastUserIndex(List<Message> messages) {
        for (int i = messages.size() - 1; i >= 0; i--) {
            if (messages.get(i).role() == Role.USER) {
                return i;
            }
        }
        return -1;
    }

    /** The history with the context placed by the configured placement, or just before the turn's user message. */
    private List<Message> placeContext(List<Message> history, int addedSince, List<Message> context) {
        if (context.isEmpty() || contextPlacement == null) {
            return withContext(history, addedSince, context);
        }
        return contextPlacement.place(history, context);
    }

    /**
     * The history with the context inserted just before the turn's user message, which is followed by the
     * {@code addedSince} messages the turn has added so far. Counting from the end keeps the position right when a
     * bounded buffer evicts older messages during the turn.
     */
    private static List<Message> withContext(List<Message> history, int addedSince, List<Message> context) {
        if (context.isEmpty()) {
            return history;
        }
        int userIndex = Math.max(0, history.size() - 1 - addedSince);
        List<Message> messages = new ArrayList<>(history.size() + context.size());
        messages.addAll(history.subList(0, userIndex));
        messages.addAll(context);
        messages.addAll(history.subList(userIndex, history.size()));
        return messages;
    }

    /** One inference through the interceptor, streamed when a handler is configured, recorded as an event. */
    private Result infer(CallContext ctx, Request request, int round, StreamHandler handler) {
        String model = engine.modelInfo().name();
        boolean recording = eventLog.isEnabled();
        Instant started = recording ? ctx.now() : null;
        if (recording) {
            SchemaEvents.inferenceStarted(eventLog, ctx, request);
        }
        try {
            Result result = interceptor.intercept(Invocation.of(InvocationKind.INFERENCE, model, ctx, request,
                    () -> handler == null ? engine.infer(ctx, request) : engine.infer(ctx, request, handler)));
            if (result == null) {
                throw PaganticException.of(ErrorCode.INFERENCE_MALFORMED_RESPONSE,
                        "the inference returned no result (an interceptor returned null)");
            }
            if (recording) {
                Duration elapsed = EphemeralContext.elapsed(ctx, started);
                eventLog.record(inferEvent(ctx, started, model, request, round)
                        .data("tool_calls", result.toolCalls().size())
                        .data("finish_reason", result.finishReason().name())
                        .data("prompt_tokens", result.usage().promptTokens())
                        .data("output_tokens", result.usage().outputTokens())
                        .duration(elapsed).build());
                SchemaEvents.inferenceEnded(eventLog, ctx, elapsed, result);
            }
            return result;
        } catch (RuntimeException failure) {
            if (recording) {
                Duration elapsed = EphemeralContext.elapsed(ctx, started);
                eventLog.record(inferEvent(ctx, started, model, request, round).duration(elapsed).error(failure)
                        .build());
                SchemaEvents.inferenceFailed(eventLog, ctx, elapsed);
            }
            throw failure;
        }
    }

    private static Event.Builder inferEvent(CallContext ctx, Instant started, String model, Request request,
                                            int round) {
        return Event.builder(ctx, LAYER, "infer").timestamp(started)
                .data("model", model)
                .data("round", round)
                .data("messages", request.messages().size())
                .data("tools", request.tools().size())
                .data("structured", request.schema().isPresent() || request.hasGrammar()
                        || request.options().containsKey(ENABLE_THINKING_OPTION));
    }

    /** A request builder with the turn's sampling settings and token limit. */
    private Request.Builder requestBuilder(TurnOptions options) {
        Request.Builder builder = Request.builder()
                .maxTokens(options.maxTokens() > 0 ? options.maxTokens() : maxTokens);
        options.temperature().ifPresent(builder::temperature);
        options.topP().ifPresent(builder::topP);
        options.seed().ifPresent(builder::seed);
        options.options().forEach(builder::option);
        return builder;
    }

    /** Runs one round of tool calls; the executions are in call order, failures as error results. */
    private List<ToolExecution> executeTools(CallContext ctx, ToolRegistry registry, List<ToolCall> calls) {
        List<ToolExecution> executions = new ArrayList<>(calls.size());
        if (registry == null) {
            for (ToolCall call : calls) {
                ToolResult result = ToolResult.error(call.id(), call.name(),
                        ErrorCode.TOOL_NOT_FOUND + ": no tools are configured; tool '" + call.name()
                                + "' does not exist");
                executions.add(finishTool(ctx.now(), new ToolExecution(call, result,
                        Optional.of(ErrorCode.TOOL_NOT_FOUND), false, Duration.ZERO,
                        ctx.childSpan(call.id()).correlation())));
            }
            return executions;
        }
        if (interceptor == Interceptor.NONE) {
            Instant started = eventLog.isEnabled() ? ctx.now() : null; // only events need it
            for (ToolExecution execution : executor.executeAll(ctx, registry, calls)) {
                executions.add(finishTool(started, execution));
            }
            return executions;
        }
        for (ToolCall call : calls) {
            ctx.throwIfDone();
            Instant started = ctx.now();
            CallContext toolCtx = ctx.childSpan(call.id());
            AtomicReference<ToolExecution> ran = new AtomicReference<>();
            ToolResult result = interceptor.intercept(Invocation.of(InvocationKind.TOOL_CALL, call.name(), toolCtx,
                    call, () -> {
                        ToolExecution execution = executor.execute(ctx, registry, call);
                        ran.set(execution);
                        return execution.result();
                    }));
            if (result == null) {
                result = ToolResult.error(call.id(), call.name(),
                        ErrorCode.TOOL_EXECUTION_FAILED + ": the tool call returned no result");
            }
            ToolExecution execution = ran.get();
            if (execution == null || !execution.result().equals(result)) {
                // the interceptor answered itself (a replayed result) or replaced the result
                Optional<ErrorCode> code = execution != null && execution.result().isError() == result.isError()
                        ? execution.errorCode()
                        : result.isError() ? Optional.of(ErrorCode.TOOL_EXECUTION_FAILED) : Optional.empty();
                execution = new ToolExecution(call, result, code, false,
                        execution != null ? execution.duration() : EphemeralContext.elapsed(ctx, started),
                        execution != null ? execution.correlation() : toolCtx.correlation());
            }
            executions.add(finishTool(started, execution));
        }
        return executions;
    }

    /** Records the tool event and calls the onToolResult hook; returns the execution. */
    private ToolExecution finishTool(Instant started, ToolExecution execution) {
        ToolCall call = execution.call();
        ToolResult result = execution.result();
        if (eventLog.isEnabled()) {
            recordTool(started, execution);
        }
        if (onToolResult != null) {
            onToolResult.accept(call.name(), result.content());
        }
        return execution;
    }

    private void recordTool(Instant started, ToolExecution execution) {
        ToolCall call = execution.call();
        ToolResult result = execution.result();
        Event.Builder event = Event.builder(execution.correlation(), started, LAYER, "tool")
                .data("tool", call.name())
                .data("tool_call_id", call.id())
                .data("arguments", call.arguments())
                .data("is_error", result.isError())
                .duration(execution.duration());
        if (result.isError()) {
            event.error(new EventError(execution.errorCode().map(ErrorCode::name)
                    .orElse(ErrorCode.TOOL_EXECUTION_FAILED.name()), result.content()));
        }
        eventLog.record(event.build());
    }

    @Override
    public String toString() {
        return "AgentLoop[model=" + engine.modelInfo().name() + ", tools=" + (tools == null ? 0 : tools.size())
                + ", messages=" + memory.size() + "]";
    }

    // ------------------------------------------------------------------------------------------------------ builder

    /**
     * Builds an {@link AgentLoop}: the specification's {@code LoopConfig}. Validated at {@link #build()}: no engine
     * is {@code CONFIG_NO_ENGINE}; other invalid settings are {@code CONFIG_INVALID} (or {@code CONFIG_GRAMMAR_INVALID}
     * for a grammar that does not parse).
     */
    public static final class Builder {
        private Engine engine;
        private ToolRegistry tools;
        private ToolExecutor toolExecutor;
        private String systemPrompt;
        private PromptProvider promptProvider;
        private String grammar;
        private int maxTokens = DEFAULT_MAX_TOKENS;
        private int maxToolIterations = DEFAULT_MAX_TOOL_ITERATIONS;
        private StreamHandler stream;
        private BiConsumer<String, String> onToolResult;
        private EventLog eventLog = EventLog.noOp();
        private ContextProvider contextProvider;
        private ContextPlacement contextPlacement;
        private Interceptor interceptor = Interceptor.NONE;
        private TransitionListener transitionListener;
        private ConversationBuffer memory;

        private Builder() {
        }

        /** The inference backend (required). */
        public Builder engine(Engine value) {
            this.engine = value;
            return this;
        }

        /** The tools the model may call; none by default (the model is then offered no tools). */
        public Builder tools(ToolRegistry value) {
            this.tools = value;
            return this;
        }

        /**
         * The executor that runs tool calls, usually shared by the application's loops and closed by it. When tools
         * are configured and no executor is given, the loop creates one with the default settings and closes it in
         * {@link AgentLoop#close()}.
         */
        public Builder toolExecutor(ToolExecutor value) {
            this.toolExecutor = value;
            return this;
        }

        /**
         * The system prompt, stored as the first message of the history when the loop is built; none by default (a
         * blank prompt means none). Exclusive with {@link #promptProvider}.
         */
        public Builder systemPrompt(String value) {
            this.systemPrompt = value;
            return this;
        }

        /**
         * Where the system message comes from (the structured alternative to {@link #systemPrompt(String)}); called
         * once, at {@link #build()}, and must return a system message. Exclusive with {@link #systemPrompt(String)}.
         */
        public Builder promptProvider(PromptProvider value) {
            this.promptProvider = value;
            return this;
        }

        /**
         * A GBNF grammar applied only by {@link AgentLoop#chatStructured}, never by {@link AgentLoop#chat}; parsed at
         * {@link #build()}. An engine that does not declare {@link Capability#GRAMMAR} refuses it
         * ({@code CONFIG_UNSUPPORTED_CAPABILITY}) rather than ignoring it.
         */
        public Builder grammar(String value) {
            this.grammar = value;
            return this;
        }

        /** The most tokens per inference call; {@value AgentLoop#DEFAULT_MAX_TOKENS} by default. */
        public Builder maxTokens(int value) {
            this.maxTokens = value;
            return this;
        }

        /** The most tool rounds per turn; {@value AgentLoop#DEFAULT_MAX_TOOL_ITERATIONS} by default. */
        public Builder maxToolIterations(int value) {
            this.maxToolIterations = value;
            return this;
        }

        /** Receives the output of every inference as it is generated; none by default. */
        public Builder stream(StreamHandler value) {
            this.stream = value;
            return this;
        }

        /**
         * Called after each tool execution with the tool's name and its output (for a failed call, the error text the
         * model sees), on the turn's thread; an exception it throws fails the turn.
         */
        public Builder onToolResult(BiConsumer<String, String> hook) {
            this.onToolResult = hook;
            return this;
        }

        /** Where the {@code infer}, {@code tool} and {@code context} events go; a no-op log by default. */
        public Builder eventLog(EventLog value) {
            this.eventLog = value;
            return this;
        }

        /** Retrieves ephemeral context for each turn; none by default. */
        public Builder contextProvider(ContextProvider value) {
            this.contextProvider = value;
            return this;
        }

        /**
         * Where the ephemeral context goes, for example {@code ContextPlacement.of(contextPolicy)}; by default just
         * before the turn's user message (the specification's placement).
         */
        public Builder contextPlacement(ContextPlacement value) {
            this.contextPlacement = value;
            return this;
        }

        /**
         * Wraps every inference ({@link InvocationKind#INFERENCE}) and tool call ({@link InvocationKind#TOOL_CALL});
         * {@link Interceptor#NONE} by default. With an interceptor other than {@code NONE}, the tool calls of a
         * round run one after another, each through the interceptor; with {@code NONE}, they run through
         * {@link ToolExecutor#executeAll}, in parallel where the tools allow.
         */
        public Builder interceptor(Interceptor value) {
            this.interceptor = value;
            return this;
        }

        /**
         * When set, every turn drives its own {@link ExecutionLifecycle} on the {@link PatternPath#AGENT_LOOP} path
         * (INIT, PREPARE, EXECUTE, VALIDATE for structured turns, then COMPLETE, ERROR or CANCELLED) and reports each
         * transition here; none by default. A caller that drives a lifecycle itself passes it to
         * {@link AgentLoop#chatTurn(CallContext, String, TurnOptions)} in {@link TurnOptions#lifecycle()}
         * instead.
         */
        public Builder transitionListener(TransitionListener value) {
            this.transitionListener = value;
            return this;
        }

        /**
         * The conversation buffer to keep the history in (for example one restored from a store, or one bounded by
         * a message or token budget); a new unbounded buffer by default. The system prompt is added only when the
         * buffer is empty: a restored conversation already carries its own.
         */
        public Builder memory(ConversationBuffer value) {
            this.memory = value;
            return this;
        }

        /** The loop; see the class comment of {@link Builder} for validation. */
        public AgentLoop build() {
            if (engine == null) {
                throw PaganticException.of(ErrorCode.CONFIG_NO_ENGINE, "an AgentLoop needs an inference engine");
            }
            require(maxTokens > 0, "maxTokens must be positive: ", maxTokens);
            require(maxToolIterations > 0, "maxToolIterations must be positive: ", maxToolIterations);
            require(eventLog != null, "eventLog must not be null (use EventLog.noOp())");
            require(interceptor != null, "interceptor must not be null (use Interceptor.NONE)");
            boolean hasPrompt = systemPrompt != null && !systemPrompt.isBlank();
            require(!(hasPrompt && promptProvider != null),
                    "configure either a systemPrompt or a promptProvider, not both");
            Message systemMessage = null;
            if (hasPrompt) {
                systemMessage = Message.system(systemPrompt);
            } else if (promptProvider != null) {
                systemMessage = promptProvider.buildSystemPrompt();
                require(systemMessage != null && systemMessage.role() == Role.SYSTEM,
                        "the promptProvider must return a system message");
            }
            GbnfGrammar parsed = grammar == null || grammar.isBlank() ? null : GbnfGrammar.parse(grammar);
            ToolExecutor executor = null;
            boolean owns = false;
            if (tools != null) {
                if (toolExecutor != null) {
                    executor = toolExecutor;
                } else {
                    executor = SchemaEvents.observedExecutor(eventLog);
                    owns = true;
                }
            }
            return new AgentLoop(this, executor, owns, parsed, systemMessage);
        }

        private static void require(boolean condition, String message) {
            if (!condition) {
                throw PaganticException.of(ErrorCode.CONFIG_INVALID, "invalid AgentLoop configuration: " + message);
            }
        }

        private static void require(boolean condition, String message, Object value) {
            if (!condition) {
                require(false, message + value);
            }
        }
    }
}
