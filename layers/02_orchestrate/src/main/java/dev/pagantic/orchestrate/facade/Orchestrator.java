package dev.pagantic.orchestrate.facade;

import dev.pagantic.constraint.SchemaValidator;
import dev.pagantic.constraint.ValidationReport;
import dev.pagantic.core.CallContext;
import dev.pagantic.core.Cancellation;
import dev.pagantic.core.ErrorCode;
import dev.pagantic.core.IdGenerator;
import dev.pagantic.core.Message;
import dev.pagantic.core.PaganticException;
import dev.pagantic.core.Role;
import dev.pagantic.core.TokenUsage;
import dev.pagantic.core.ToolCall;
import dev.pagantic.core.ToolDefinition;
import dev.pagantic.core.ToolResult;
import dev.pagantic.inference.Engine;
import dev.pagantic.inference.StreamHandler;
import dev.pagantic.inference.grammar.GbnfGrammar;
import dev.pagantic.memory.ConversationBuffer;
import dev.pagantic.memory.ConversationStore;
import dev.pagantic.memory.InMemoryConversationStore;
import dev.pagantic.observe.EventContext;
import dev.pagantic.observe.EventLog;
import dev.pagantic.observe.LifecycleTransitionEvent;
import dev.pagantic.orchestrate.AgentLoop;
import dev.pagantic.orchestrate.AgentTurn;
import dev.pagantic.orchestrate.CandidateIR;
import dev.pagantic.orchestrate.ContextPlacement;
import dev.pagantic.orchestrate.ContextProvider;
import dev.pagantic.orchestrate.ExecutionPlan;
import dev.pagantic.orchestrate.MajorityVoting;
import dev.pagantic.orchestrate.PlanExecutor;
import dev.pagantic.orchestrate.PlanPolicy;
import dev.pagantic.orchestrate.PlanResult;
import dev.pagantic.orchestrate.PromptProvider;
import dev.pagantic.orchestrate.RedundantLoop;
import dev.pagantic.orchestrate.RedundantOutcome;
import dev.pagantic.orchestrate.RedundantResult;
import dev.pagantic.orchestrate.SchemaEvents;
import dev.pagantic.orchestrate.SpecializedLoop;
import dev.pagantic.orchestrate.SpecializedOutcome;
import dev.pagantic.orchestrate.SpecializedResult;
import dev.pagantic.orchestrate.Step;
import dev.pagantic.orchestrate.StepData;
import dev.pagantic.orchestrate.StepHandler;
import dev.pagantic.orchestrate.StepHandlers;
import dev.pagantic.orchestrate.StepInput;
import dev.pagantic.orchestrate.StepOutput;
import dev.pagantic.orchestrate.StepType;
import dev.pagantic.orchestrate.TurnOptions;
import dev.pagantic.orchestrate.VotingStrategy;
import dev.pagantic.orchestrate.lifecycle.ExecutionLifecycle;
import dev.pagantic.orchestrate.lifecycle.PatternPath;
import dev.pagantic.orchestrate.lifecycle.Transition;
import dev.pagantic.orchestrate.lifecycle.TransitionListener;
import dev.pagantic.orchestrate.multimodel.AdversarialResult;
import dev.pagantic.orchestrate.multimodel.EngineCatalogue;
import dev.pagantic.orchestrate.multimodel.EngineEntry;
import dev.pagantic.orchestrate.multimodel.ModeSettings;
import dev.pagantic.orchestrate.multimodel.MultiModel;
import dev.pagantic.orchestrate.multimodel.RefineResult;
import dev.pagantic.orchestrate.multimodel.VoteResult;
import dev.pagantic.orchestrate.spi.Interceptor;
import dev.pagantic.tool.ToolExecution;
import dev.pagantic.tool.ToolExecutor;
import dev.pagantic.tool.ToolRegistry;
import dev.pagantic.validate.RetryPolicy;
import dev.pagantic.validate.RuleValidator;
import java.time.Duration;
import java.time.InstantSource;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Set;
import java.util.concurrent.Executor;
import java.util.function.Consumer;
import java.util.stream.Collectors;
import tools.jackson.core.JacksonException;
import tools.jackson.databind.json.JsonMapper;

/**
 * The one entry point of pagantic (seed 001): a {@link SystemRequest} goes in, a {@link SystemResponse} comes out, and
 * in between the request's lifecycle is driven from INIT to COMPLETE, ERROR or CANCELLED. Adapters talk to nothing
 * else.
 *
 * <h2>Routing by mode</h2>
 * <ul>
 *   <li>{@link Mode#CHAT} → an {@link AgentLoop}: content, tool calls made, usage. With a session id, the loop of
 *       that session is kept (and its history persisted in the {@link ConversationStore}) and the request's messages
 *       are appended to it; without one, the request's messages are the whole history (the messages after the last
 *       assistant message are the new turn) and nothing is kept.</li>
 *   <li>{@link Mode#STRUCTURED} → a {@link SpecializedLoop}: content (the raw model output), structured output, the
 *       validation result, usage, and with {@linkplain Builder#rules rules} their pass rate as the confidence (source
 *       {@code validation}). The prompt is the last user message; system messages in the request replace the
 *       configured system prompt. With registered tools, the call has a tool phase first.</li>
 *   <li>{@link Mode#PLAN} → the configured {@link Planner} (in PLAN) and a {@link PlanExecutor} with the configured
 *       handlers and policy: content (the last step's output as text), structured output (each step's output as text,
 *       by step name), the tool calls of tool steps, usage.</li>
 *   <li>{@link Mode#REDUNDANT} → a {@link RedundantLoop}: content (the winner), structured output, confidence with
 *       source {@code voting}, usage.</li>
 *   <li>{@link Mode#ADVERSARIAL}, {@link Mode#VOTE}, {@link Mode#REFINE} → {@link MultiModel} on the configured
 *       {@linkplain Builder#catalogue catalogue} (or the orchestrator's engine alone), steered by the request's {@link Directive}: content (the refined
 *       plan, the selected response, the final refinement), structured output (the mode's result object), usage
 *       summed over every call.</li>
 * </ul>
 *
 * <h2>INIT and the contract</h2>
 * Missing request and trace ids are generated; the envelope is validated ({@link SystemRequest#validate()}); a grammar
 * in the output contract is loaded and parsed ({@code CONFIG_GRAMMAR_NOT_FOUND}, {@code CONFIG_GRAMMAR_INVALID}); every
 * name of the tool whitelist must be a registered or caller tool ({@code CONFIG_INVALID}: a typo never silently
 * removes a tool). The hints apply to every inference: max tokens (0 for the configured default), temperature (unset
 * for the engine's default, 0.0 greedy), top-p, options passed through, and the timeout as the request's deadline
 * ({@code CANCELLED_TIMEOUT}).
 *
 * <h2>Tools</h2>
 * Registered tools run here; caller tools ({@link SystemRequest#callerTools()}) are offered to the model in chat mode,
 * and when the model calls one the response hands the calls back ({@link FinishReason#TOOL_CALLS}) with nothing
 * executed; the caller's next request carries the results as tool messages. A model asking for a tool outside the
 * whitelist gets {@code TOOL_NOT_FOUND} as the tool's result and nothing runs; arguments are checked against the
 * tool's parameter schema before it runs. The whitelist also scopes the built-in tool handler of plan mode: a tool
 * step calling a tool outside it fails with {@code TOOL_NOT_FOUND} without running it.
 *
 * <p>Nothing here retries a tool that is not {@linkplain dev.pagantic.tool.ToolSafety#idempotent() idempotent}: a
 * structured retry repeats only the structured turn, keeping the tool phase's results; redundant replicas are offered
 * idempotent tools only (a whitelist naming another is {@code CONFIG_INVALID}); plan steps are never retried on a tool
 * failure.
 *
 * <h2>Failures and events</h2>
 * Every failure comes back as a response whose {@link SystemResponse#error()} holds the code, category and retryable
 * flag; the lifecycle ends in ERROR, or in CANCELLED for a cancellation. Every lifecycle transition is a
 * {@code lifecycle_transition} event in the configured {@link EventLog}, next to the loops' {@code infer},
 * {@code tool}, {@code context} and {@code vote} events and the plan's step events, all carrying the request id (and
 * the session id in chat), so the whole timeline of a request can be rebuilt from the log.
 *
 * <p>Thread-safe: requests may run concurrently; two concurrent requests of one session are refused
 * ({@code ORCHESTRATION_CONCURRENT_USE}) rather than interleaved.
 */
public final class Orchestrator implements AutoCloseable {

    /** The catalogue id of the orchestrator's own engine when no catalogue is configured. */
    public static final String DEFAULT_ENGINE_ID = "default";

    /** The default most live chat sessions. */
    public static final int DEFAULT_MAX_SESSIONS = 1024;
    /** The default idle time after which a live session is evicted (it stays in the store). */
    public static final Duration DEFAULT_SESSION_TTL = Duration.ofMinutes(30);

    private static final JsonMapper JSON = JsonMapper.builder().build();

    private final Engine engine;
    private final ToolRegistry tools; // null: none
    private final ToolExecutor executor; // null when there are no tools
    private final boolean ownsExecutor;
    private final Message systemMessage; // null: none
    private final ContextProvider contextProvider; // null: none
    private final ContextPlacement contextPlacement; // null: the loops' default
    private final Planner planner; // null: plan mode unavailable
    private final Map<StepType, StepHandler> handlers;
    private final boolean builtInToolHandler; // the tool step handler is the built-in one on `tools`
    private final PlanPolicy planPolicy;
    private final VotingStrategy voting;
    private final int replicas;
    private final Executor replicaExecutor; // null: sequential
    private final RetryPolicy retryPolicy;
    private final RuleValidator rules; // null: none
    private final EventLog eventLog;
    private final Interceptor interceptor;
    private final SchemaValidator validator = new SchemaValidator(); // one cache of compiled schemas for every request
    private final ConversationStore store;
    private final boolean ownsStore;
    private final IdGenerator ids;
    private final InstantSource clock;
    private final int maxTokens;
    private final int maxToolIterations;
    private final Consumer<ExecutionContext> executionListener;
    private final Sessions sessions;
    private final MultiModel multiModel; // null: the multi-model modes are unavailable

    private Orchestrator(Builder b, Message systemMessage, ToolExecutor executor, boolean ownsExecutor,
                         ConversationStore store, boolean ownsStore) {
        this.engine = b.engine;
        this.tools = b.tools;
        this.executor = executor;
        this.ownsExecutor = ownsExecutor;
        this.systemMessage = systemMessage;
        this.contextProvider = b.contextProvider;
        this.contextPlacement = b.contextPlacement;
        this.planner = b.planner;
        this.handlers = planHandlers(b, executor);
        this.builtInToolHandler = b.tools != null && !b.handlers.containsKey(StepType.TOOL);
        this.planPolicy = b.planPolicy;
        this.voting = b.voting;
        this.replicas = b.replicas;
        this.replicaExecutor = b.replicaExecutor;
        this.retryPolicy = b.retryPolicy;
        this.rules = b.rules;
        this.eventLog = b.eventLog;
        this.interceptor = b.interceptor;
        this.store = store;
        this.ownsStore = ownsStore;
        this.ids = b.ids;
        this.clock = b.clock;
        this.maxTokens = b.maxTokens;
        this.maxToolIterations = b.maxToolIterations;
        this.executionListener = b.executionListener;
        this.sessions = new Sessions(store, b.maxSessions, b.sessionTtl, b.clock, systemMessage, this::agentLoop);
        this.multiModel = multiModel(b, systemMessage);
    }

    /**
     * The built-in handlers for what the orchestrator has (infer on its engine, tool on its tools, retrieve on its
     * context provider), then the configured handlers, which replace built-in ones of the same type.
     */
    private static Map<StepType, StepHandler> planHandlers(Builder b, ToolExecutor executor) {
        Map<StepType, StepHandler> handlers = new LinkedHashMap<>();
        handlers.put(StepType.INFER, StepHandlers.infer(b.engine));
        if (b.tools != null) {
            handlers.put(StepType.TOOL, StepHandlers.tool(b.tools, executor));
        }
        if (b.contextProvider != null) {
            handlers.put(StepType.RETRIEVE, StepHandlers.retrieve(b.contextProvider));
        }
        handlers.putAll(b.handlers);
        return Map.copyOf(handlers);
    }

    /** The multi-model modes on the catalogue, or, without one, on the orchestrator's engine alone. */
    private static MultiModel multiModel(Builder b, Message systemMessage) {
        EngineCatalogue catalogue = b.catalogue != null ? b.catalogue
                : EngineCatalogue.builder().add(EngineEntry.of(DEFAULT_ENGINE_ID, b.engine, 1)).build();
        MultiModel.Builder modes = MultiModel.builder().catalogue(catalogue).maxTokens(b.maxTokens)
                .executor(b.replicaExecutor).interceptor(b.interceptor);
        if (systemMessage != null) {
            modes.systemPrompt(systemMessage.content());
        }
        return modes.build();
    }

    /** Starts building an orchestrator; an engine is required. */
    public static Builder builder() {
        return new Builder();
    }

    /** Executes the request. Never throws for a failed request: the failure is the response's error. */
    public SystemResponse execute(SystemRequest request) {
        return execute(request, null, null);
    }

    /** Executes the request, streaming the model's output to the handler as it is generated. */
    public SystemResponse execute(SystemRequest request, StreamHandler stream) {
        return execute(request, stream, null);
    }

    /**
     * Executes the request.
     *
     * @param request      the request
     * @param stream       receives the model's output as it is generated; null for none
     * @param cancellation cancels the request from outside (a disconnected client); null for none. A cancelled
     *                     request ends with {@code CANCELLED_SIGNAL}
     * @return the response; its error is set when the request failed
     */
    public SystemResponse execute(SystemRequest request, StreamHandler stream, Cancellation cancellation) {
        Objects.requireNonNull(request, "request");
        SystemRequest req = request.withMissingIds(ids);
        CallContext ctx = callContext(req, cancellation);
        ExecutionLifecycle lifecycle = ExecutionLifecycle.start(ctx, pathOf(req.mode()),
                eventLog.isEnabled() ? this::recordTransition : TransitionListener.NOOP);
        ExecutionContext execution = new ExecutionContext(req, ctx.now(), lifecycle);
        SystemResponse response;
        try {
            req.validate();
            String grammar = loadGrammar(req.output());
            TurnOptions options = turnOptions(req, stream, lifecycle, execution);
            response = switch (req.mode()) {
                case CHAT -> chat(ctx, req, options);
                case STRUCTURED -> structured(ctx, req, options, grammar);
                case PLAN -> plan(ctx, req, lifecycle, execution);
                case REDUNDANT -> redundant(ctx, req, options, grammar, execution);
                case ADVERSARIAL, VOTE, REFINE -> multiModel(ctx, req, lifecycle);
            };
        } catch (PaganticException failure) {
            response = failed(req, lifecycle, failure, TokenUsage.ZERO, List.of());
        }
        if (executionListener != null) {
            executionListener.accept(execution);
        }
        return response;
    }

    /** The number of chat sessions whose loop is live (not counting those only in the store). */
    public int liveSessions() {
        return sessions.liveCount();
    }

    /** Closes the tool executor and the default store if this orchestrator created them. */
    @Override
    public void close() {
        if (ownsExecutor) {
            executor.close();
        }
        if (ownsStore) {
            store.close();
        }
    }

    // ------------------------------------------------------------------------------------------------------ modes

    private SystemResponse chat(CallContext ctx, SystemRequest req, TurnOptions options) {
        if (req.hasSession()) {
            Sessions.Live session = sessions.acquire(req.sessionId());
            AgentTurn turn = session.loop.chatTurn(ctx, req.messages(), options);
            sessions.persist(req.sessionId(), session);
            return chatResponse(req, turn);
        }
        int lastAssistant = lastIndexOf(req.messages(), Role.ASSISTANT);
        List<Message> history = req.messages().subList(0, lastAssistant + 1);
        List<Message> turnMessages = req.messages().subList(lastAssistant + 1, req.messages().size());
        if (turnMessages.isEmpty()) {
            throw PaganticException.of(ErrorCode.CONFIG_INVALID,
                    "a chat request must end with a message to answer, not an assistant message");
        }
        ConversationBuffer memory = new ConversationBuffer();
        if (systemMessage != null && lastIndexOf(req.messages(), Role.SYSTEM) < 0) {
            memory.append(systemMessage);
        }
        memory.appendAll(history);
        AgentLoop loop = agentLoop(memory);
        return chatResponse(req, loop.chatTurn(ctx, turnMessages, options));
    }

    private SystemResponse chatResponse(SystemRequest req, AgentTurn turn) {
        SystemResponse.Builder response = SystemResponse.builder().correlation(req)
                .content(turn.result().content())
                .tokenUsage(turn.result().usage());
        turn.toolExecutions().forEach(e -> response.toolCallMade(ToolCallRecord.from(e)));
        if (turn.hasPendingCalls()) {
            turn.pendingCalls().forEach(response::toolCallRequested);
        } else {
            response.finishReason(FinishReason.from(turn.result().finishReason()));
        }
        return response.build();
    }

    private SystemResponse structured(CallContext ctx, SystemRequest req, TurnOptions options, String grammar) {
        SpecializedLoop.Builder loop = specialized(req, grammar)
                .retryPolicy(retryPolicy)
                .repairAllowed(req.output().repairAllowed())
                .strictValidation(req.output().strictValidation());
        if (rules != null) {
            loop.rules(rules);
        }
        SpecializedOutcome outcome = loop.build().run(ctx, lastUserMessage(req), options);
        if (outcome.failure().isPresent()) {
            return failed(req, options.lifecycle().orElseThrow(), outcome.failure().get(), outcome.usage(),
                    outcome.toolExecutions());
        }
        SpecializedResult result = outcome.orElseThrow();
        ValidationReport report = result.validation();
        SystemResponse.Builder response = SystemResponse.builder().correlation(req)
                .content(report.output())
                .validationResult(ValidationResult.from(report))
                .tokenUsage(outcome.usage())
                .finishReason(FinishReason.from(result.result().finishReason()));
        JsonTrees.fromJsonNode(report.value()).ifPresent(response::structuredOutput);
        outcome.toolExecutions().forEach(e -> response.toolCallMade(ToolCallRecord.from(e)));
        result.rules().ifPresent(rules -> response.confidence(rules.passRate(), ConfidenceSource.VALIDATION));
        return response.build();
    }

    private SystemResponse redundant(CallContext ctx, SystemRequest req, TurnOptions options, String grammar,
                                     ExecutionContext execution) {
        RedundantLoop.Builder loop = RedundantLoop.builder()
                .replica(replica -> configure(replica, req, grammar).repairAllowed(req.output().repairAllowed()))
                .n(replicas)
                .voting(voting)
                .eventLog(eventLog);
        if (replicaExecutor != null) {
            loop.executor(replicaExecutor);
        }
        RedundantOutcome outcome = loop.build().run(ctx, lastUserMessage(req), replicaTools(req, options));
        if (outcome.failure().isPresent()) {
            return failed(req, options.lifecycle().orElseThrow(), outcome.failure().get(), outcome.usage(),
                    outcome.toolExecutions());
        }
        RedundantResult result = outcome.orElseThrow();
        execution.candidates(result.candidates().stream()
                .map(candidate -> CandidateIR.of(candidate, "replica", candidate.equals(result.content()) ? 1 : 0))
                .toList());
        SystemResponse.Builder response = SystemResponse.builder().correlation(req)
                .content(result.content())
                .confidence(result.confidence(), ConfidenceSource.VOTING)
                .tokenUsage(outcome.usage());
        parse(result.content()).ifPresent(response::structuredOutput);
        outcome.toolExecutions().forEach(e -> response.toolCallMade(ToolCallRecord.from(e)));
        return response.build();
    }

    /**
     * The tools of redundant replicas. Every replica runs the tool phase again, so a tool that is not idempotent
     * would run once per replica: replicas are offered the idempotent tools only (a call of another one is
     * {@code TOOL_NOT_FOUND}, not allowed), and a whitelist that names a non-idempotent tool is refused with
     * {@code CONFIG_INVALID} rather than silently narrowed.
     */
    private TurnOptions replicaTools(SystemRequest req, TurnOptions options) {
        if (tools == null) {
            return options;
        }
        List<String> allowed = tools.names().stream().filter(req::allowsTool).toList();
        List<String> repeatable = allowed.stream()
                .filter(name -> tools.lookup(name).map(tool -> tool.safety().idempotent()).orElse(false)).toList();
        if (repeatable.size() == allowed.size()) {
            return options;
        }
        if (!req.tools().isEmpty()) {
            List<String> unsafe = allowed.stream().filter(name -> !repeatable.contains(name)).toList();
            throw PaganticException.builder(ErrorCode.CONFIG_INVALID, "redundant mode runs the tools once per "
                            + "replica, so it cannot offer tools that are not idempotent: " + String.join(", ", unsafe))
                    .detail("tools", String.join(",", unsafe)).build();
        }
        return options.toBuilder().allowedTools(repeatable).build();
    }

    /**
     * The multi-model modes on the catalogue's engines, the directive picking engines and rounds and the hints giving
     * max tokens and temperature; the prompt is the last user message.
     */
    private SystemResponse multiModel(CallContext ctx, SystemRequest req, ExecutionLifecycle lifecycle) {
        String task = lastUserMessage(req);
        Directive directive = req.directive();
        ModeSettings.Builder settings = ModeSettings.builder()
                .iterations(directive.iterations())
                .primary(directive.primary().orElse(null))
                .review(directive.review().orElse(null))
                .voters(directive.voters())
                .minWeight(directive.minWeight())
                .maxTokens(req.hints().maxTokens());
        req.hints().temperature().ifPresent(settings::temperature);
        ModeSettings knobs = settings.build();
        lifecycle.prepare("selecting engines from the catalogue");
        lifecycle.execute(req.mode().wireName() + " orchestration");
        SystemResponse.Builder response = SystemResponse.builder().correlation(req);
        switch (req.mode()) {
            case ADVERSARIAL -> {
                AdversarialResult result = multiModel.adversarial(ctx, task, knobs);
                response.content(result.refinedPlan()).structuredOutput(result.toMap()).tokenUsage(result.usage());
            }
            case VOTE -> {
                VoteResult result = multiModel.vote(ctx, task, knobs);
                response.content(result.content()).structuredOutput(result.toMap()).tokenUsage(result.usage());
            }
            default -> {
                RefineResult result = multiModel.refine(ctx, task, knobs);
                response.content(result.refinedResponse()).structuredOutput(result.toMap())
                        .tokenUsage(result.usage());
            }
        }
        lifecycle.complete(req.mode().wireName() + "-orchestration");
        return response.build();
    }

    private SystemResponse plan(CallContext ctx, SystemRequest req, ExecutionLifecycle lifecycle,
                                ExecutionContext execution) {
        if (planner == null) {
            throw PaganticException.of(ErrorCode.CONFIG_INVALID, "plan mode needs a planner (Builder.planner)");
        }
        lifecycle.plan("creating the plan");
        ExecutionPlan plan = planner.createPlan(ctx, req);
        PlanExecutor executor = PlanExecutor.builder().handlers(planHandlersFor(req)).policy(planPolicy)
                .interceptor(interceptor).eventLog(eventLog).build();
        PlanResult result = executor.execute(ctx, plan, lifecycle);
        Map<String, Object> outputs = new LinkedHashMap<>();
        List<ToolCallRecord> toolCalls = new ArrayList<>();
        for (Step step : result.steps()) {
            step.output().ifPresent(output -> outputs.put(step.name(), render(output)));
            step.output().filter(output -> output.is(StepData.Kind.CANDIDATES))
                    .ifPresent(output -> execution.candidates(output.candidates()));
            toolCalls.addAll(toolCallsOf(step));
        }
        if (result.error().isPresent()) {
            SystemResponse failed = failed(req, lifecycle, result.error().get(), result.usage(), List.of());
            return failed.toBuilder().structuredOutput(outputs).toolCallsMade(toolCalls).build();
        }
        return SystemResponse.builder().correlation(req)
                .content(result.lastOutput().map(Orchestrator::render).orElse(""))
                .structuredOutput(outputs)
                .toolCallsMade(toolCalls)
                .tokenUsage(result.usage())
                .build();
    }

    /**
     * The plan handlers of one request: with a tool whitelist, the built-in tool handler runs on the whitelisted view
     * of the registry, so that a tool step (a planned call, or a model's output chained into the step) can no more
     * run a hidden tool than a chat turn can ({@code TOOL_NOT_FOUND}). A configured tool handler is the
     * application's own and is left as it is.
     */
    private Map<StepType, StepHandler> planHandlersFor(SystemRequest req) {
        if (!builtInToolHandler || req.tools().isEmpty()) {
            return handlers;
        }
        Map<StepType, StepHandler> scoped = new LinkedHashMap<>(handlers);
        scoped.put(StepType.TOOL, StepHandlers.tool(tools.allowOnly(
                tools.names().stream().filter(req::allowsTool).toList()), executor));
        return scoped;
    }

    /**
     * The tool calls a completed tool step made: its input's calls paired with its output's results. A step records
     * no per-call duration (its {@code step} event has the step's), so the records say zero.
     */
    private static List<ToolCallRecord> toolCallsOf(Step step) {
        if (!step.hasOutput() || !step.requireOutput().is(StepData.Kind.TOOL_RESULTS) || !step.hasInput()) {
            return List.of();
        }
        StepInput input = step.requireInput();
        List<ToolCall> calls = input.is(StepData.Kind.TOOL_CALLS) ? input.toolCalls()
                : input.is(StepData.Kind.RESULT) ? input.result().toolCalls() : List.of();
        List<ToolResult> results = step.requireOutput().toolResults();
        List<ToolCallRecord> records = new ArrayList<>();
        for (int i = 0; i < Math.min(calls.size(), results.size()); i++) {
            ToolCall call = calls.get(i);
            ToolResult toolResult = results.get(i);
            records.add(new ToolCallRecord(call.id(), call.name(), call.arguments(), toolResult.content(),
                    toolResult.isError(), java.util.Optional.empty(), Duration.ZERO));
        }
        return records;
    }

    // ------------------------------------------------------------------------------------------------------ parts

    private SystemResponse failed(SystemRequest req, ExecutionLifecycle lifecycle, PaganticException failure,
                                  TokenUsage usage, List<ToolExecution> toolExecutions) {
        if (!lifecycle.state().current().isTerminal()) {
            lifecycle.fail(failure);
        }
        SystemResponse.Builder response = SystemResponse.builder().correlation(req)
                .error(SystemError.from(failure))
                .tokenUsage(usage);
        toolExecutions.forEach(e -> response.toolCallMade(ToolCallRecord.from(e)));
        return response.build();
    }

    private CallContext callContext(SystemRequest req, Cancellation cancellation) {
        CallContext.Builder ctx = CallContext.builder()
                .requestId(req.requestId())
                .traceId(req.traceId())
                .clock(clock)
                .idGenerator(ids);
        if (req.hasSession()) {
            ctx.sessionId(req.sessionId());
        }
        if (req.hints().hasTimeout()) {
            ctx.timeout(req.hints().timeout());
        }
        if (cancellation != null) {
            ctx.cancellation(cancellation);
        }
        return ctx.build();
    }

    /** PREPARE's tool selection and the hints, as the options of the pattern's call. */
    private TurnOptions turnOptions(SystemRequest req, StreamHandler stream, ExecutionLifecycle lifecycle,
                                    ExecutionContext execution) {
        checkWhitelist(req);
        TurnOptions.Builder options = TurnOptions.builder()
                .maxTokens(req.hints().maxTokens())
                .options(req.hints().options())
                .lifecycle(lifecycle)
                .stream(stream);
        req.hints().temperature().ifPresent(options::temperature);
        req.hints().topP().ifPresent(options::topP);
        List<String> selected = new ArrayList<>();
        if (tools != null) {
            List<String> allowed = new ArrayList<>();
            for (String name : tools.names()) {
                if (req.allowsTool(name)) {
                    allowed.add(name);
                }
            }
            if (!req.tools().isEmpty()) {
                options.allowedTools(allowed);
            }
            selected.addAll(allowed);
        }
        if (req.mode() == Mode.CHAT && !req.callerTools().isEmpty()) {
            List<ToolDefinition> callerTools = new ArrayList<>();
            for (ToolDefinition tool : req.callerTools()) {
                if (req.allowsTool(tool.name())) {
                    callerTools.add(tool);
                    selected.add(tool.name());
                }
            }
            options.callerTools(callerTools);
        }
        execution.selectTools(selected);
        return options.build();
    }

    /** Every whitelisted name must be a registered or a caller tool. */
    private void checkWhitelist(SystemRequest req) {
        if (req.tools().isEmpty()) {
            return;
        }
        Set<String> callerNames = req.callerTools().stream().map(ToolDefinition::name)
                .collect(Collectors.toCollection(LinkedHashSet::new));
        for (String name : req.tools()) {
            if ((tools == null || !tools.contains(name)) && !callerNames.contains(name)) {
                throw PaganticException.builder(ErrorCode.CONFIG_INVALID,
                        "the tool whitelist names '" + name + "', which is neither registered nor a caller tool")
                        .detail("tool", name).build();
            }
        }
    }

    private AgentLoop agentLoop(ConversationBuffer memory) {
        AgentLoop.Builder loop = AgentLoop.builder()
                .engine(engine)
                .tools(tools)
                .toolExecutor(executor)
                .maxTokens(maxTokens)
                .maxToolIterations(maxToolIterations)
                .eventLog(eventLog)
                .contextProvider(contextProvider)
                .contextPlacement(contextPlacement)
                .interceptor(interceptor)
                .memory(memory);
        return loop.build();
    }

    private SpecializedLoop.Builder specialized(SystemRequest req, String grammar) {
        return configure(SpecializedLoop.builder(), req, grammar);
    }

    /** The request's and this orchestrator's settings, applied to a structured loop (or a replica). */
    private SpecializedLoop.Builder configure(SpecializedLoop.Builder loop, SystemRequest req, String grammar) {
        loop.engine(engine)
                .tools(tools)
                .toolExecutor(executor)
                .validator(validator)
                .schema(req.output().schema().orElseThrow())
                .grammar(grammar)
                .maxTokens(maxTokens)
                .maxToolIterations(maxToolIterations)
                .eventLog(eventLog)
                .contextProvider(contextProvider)
                .interceptor(interceptor);
        if (contextPlacement != null) {
            loop.contextPlacement(contextPlacement);
        }
        String requestSystem = req.messages().stream().filter(m -> m.role() == Role.SYSTEM)
                .map(Message::content).collect(Collectors.joining("\n\n"));
        if (!requestSystem.isEmpty()) {
            loop.systemPrompt(requestSystem);
        } else if (systemMessage != null) {
            loop.systemPrompt(systemMessage.content());
        }
        return loop;
    }

    private static String loadGrammar(OutputContract contract) {
        if (contract.grammar().isEmpty()) {
            return null;
        }
        String text = contract.grammar().get().load();
        GbnfGrammar.parse(text);
        return text;
    }

    private static String lastUserMessage(SystemRequest req) {
        int index = lastIndexOf(req.messages(), Role.USER);
        if (index < 0) {
            throw PaganticException.of(ErrorCode.CONFIG_INVALID, "mode '" + req.mode().wireName()
                    + "' needs a user message to answer");
        }
        return req.messages().get(index).content();
    }

    private static int lastIndexOf(List<Message> messages, Role role) {
        for (int i = messages.size() - 1; i >= 0; i--) {
            if (messages.get(i).role() == role) {
                return i;
            }
        }
        return -1;
    }

    private static java.util.Optional<Object> parse(String json) {
        try {
            return JsonTrees.fromJsonNode(JSON.readTree(json));
        } catch (JacksonException notJson) {
            return java.util.Optional.empty();
        }
    }

    /** A step's output as text: the text, the inference's content, or the contents of its messages, candidates or results. */
    private static String render(StepOutput output) {
        return switch (output.kind()) {
            case TEXT -> output.text();
            case RESULT -> output.result().content();
            case MESSAGES -> output.messages().stream().map(Message::content).collect(Collectors.joining("\n"));
            case CANDIDATES -> output.candidates().stream().map(CandidateIR::content)
                    .collect(Collectors.joining("\n"));
            case TOOL_RESULTS -> output.toolResults().stream().map(ToolResult::content)
                    .collect(Collectors.joining("\n"));
            case GROUP -> output.group().stream().map(Orchestrator::render).collect(Collectors.joining("\n"));
            default -> String.valueOf(output.value());
        };
    }

    private static PatternPath pathOf(Mode mode) {
        return switch (mode) {
            case CHAT -> PatternPath.AGENT_LOOP;
            case STRUCTURED -> PatternPath.SPECIALIZED_LOOP;
            case PLAN -> PatternPath.PLAN_EXECUTOR;
            case REDUNDANT -> PatternPath.REDUNDANT_LOOP;
            // several plain inferences and no validation gate: the agent loop's path
            case ADVERSARIAL, VOTE, REFINE -> PatternPath.AGENT_LOOP;
        };
    }

    private void recordTransition(Transition transition) {
        eventLog.record(new LifecycleTransitionEvent(EventContext.of(transition.correlation(), transition.at()),
                transition.from().name(), transition.to().name(), transition.attempt(), transition.reason())
                .toEvent());
    }


    // ------------------------------------------------------------------------------------------------------ builder

    /**
     * Builds an {@link Orchestrator}. Validated at {@link #build()}: no engine is {@code CONFIG_NO_ENGINE}, other
     * invalid settings {@code CONFIG_INVALID}.
     */
    public static final class Builder {
        private Engine engine;
        private ToolRegistry tools;
        private ToolExecutor toolExecutor;
        private String systemPrompt;
        private PromptProvider promptProvider;
        private ContextProvider contextProvider;
        private ContextPlacement contextPlacement;
        private Planner planner;
        private final Map<StepType, StepHandler> handlers = new LinkedHashMap<>();
        private PlanPolicy planPolicy = PlanPolicy.defaults();
        private VotingStrategy voting = new MajorityVoting();
        private int replicas = RedundantLoop.DEFAULT_N;
        private Executor replicaExecutor;
        private RetryPolicy retryPolicy = SpecializedLoop.defaultRetryPolicy();
        private RuleValidator rules;
        private EventLog eventLog = EventLog.noOp();
        private Interceptor interceptor = Interceptor.NONE;
        private ConversationStore store;
        private int maxSessions = DEFAULT_MAX_SESSIONS;
        private Duration sessionTtl = DEFAULT_SESSION_TTL;
        private IdGenerator ids = IdGenerator.random();
        private InstantSource clock = InstantSource.system();
        private int maxTokens = AgentLoop.DEFAULT_MAX_TOKENS;
        private int maxToolIterations = AgentLoop.DEFAULT_MAX_TOOL_ITERATIONS;
        private Consumer<ExecutionContext> executionListener;
        private EngineCatalogue catalogue;

        private Builder() {
        }

        /** The inference backend (required). */
        public Builder engine(Engine value) {
            this.engine = value;
            return this;
        }

        /** The server-side tools; none by default. */
        public Builder tools(ToolRegistry value) {
            this.tools = value;
            return this;
        }

        /** The executor that runs tool calls; one is created (and closed with the orchestrator) when needed. */
        public Builder toolExecutor(ToolExecutor value) {
            this.toolExecutor = value;
            return this;
        }

        /** The system prompt of new conversations and structured calls; none by default. */
        public Builder systemPrompt(String value) {
            this.systemPrompt = value;
            return this;
        }

        /** Where the system message comes from, instead of {@link #systemPrompt}; called once at {@link #build()}. */
        public Builder promptProvider(PromptProvider value) {
            this.promptProvider = value;
            return this;
        }

        /** Retrieves context for each turn and structured call; none by default. */
        public Builder contextProvider(ContextProvider value) {
            this.contextProvider = value;
            return this;
        }

        /** Where retrieved context goes ({@code ContextPlacement.of(contextPolicy)}); the loops' default otherwise. */
        public Builder contextPlacement(ContextPlacement value) {
            this.contextPlacement = value;
            return this;
        }

        /** Creates the plans of plan mode (a {@link StaticPlanner} for given plans); none by default. */
        public Builder planner(Planner value) {
            this.planner = value;
            return this;
        }

        /**
         * The handler of a plan step type. Without one, plan mode has built-in handlers for {@code infer} (on the
         * engine), {@code tool} (on the tools, when configured) and {@code retrieve} (on the context provider, when
         * configured); a handler given here replaces the built-in one of its type.
         */
        public Builder handler(StepType type, StepHandler handler) {
            handlers.put(Objects.requireNonNull(type, "type"), Objects.requireNonNull(handler, "handler"));
            return this;
        }

        /** The policy every plan is checked against before it runs; unrestricted by default. */
        public Builder planPolicy(PlanPolicy value) {
            this.planPolicy = value;
            return this;
        }

        /** The voting strategy of redundant mode; {@link MajorityVoting} by default. */
        public Builder voting(VotingStrategy value) {
            this.voting = value;
            return this;
        }

        /** The number of replicas in redundant mode; {@value RedundantLoop#DEFAULT_N} by default. */
        public Builder replicas(int value) {
            this.replicas = value;
            return this;
        }

        /** Runs redundant replicas concurrently on this executor; sequential by default. */
        public Builder replicaExecutor(Executor value) {
            this.replicaExecutor = value;
            return this;
        }

        /** How structured calls retry; {@link SpecializedLoop#defaultRetryPolicy()} by default. */
        public Builder retryPolicy(RetryPolicy value) {
            this.retryPolicy = value;
            return this;
        }

        /** Rules every structured output must pass; none by default. */
        public Builder rules(RuleValidator value) {
            this.rules = value;
            return this;
        }

        /** Where every event goes; a no-op log by default. */
        public Builder eventLog(EventLog value) {
            this.eventLog = value;
            return this;
        }

        /** Wraps every inference, tool call and plan step; {@link Interceptor#NONE} by default. */
        public Builder interceptor(Interceptor value) {
            this.interceptor = value;
            return this;
        }

        /** Where chat sessions are kept; a new in-memory store by default (closed with the orchestrator). */
        public Builder conversationStore(ConversationStore value) {
            this.store = value;
            return this;
        }

        /** The most live chat sessions; {@value Orchestrator#DEFAULT_MAX_SESSIONS} by default. */
        public Builder maxSessions(int value) {
            this.maxSessions = value;
            return this;
        }

        /** How long an idle session stays live; 30 minutes by default. */
        public Builder sessionTtl(Duration value) {
            this.sessionTtl = value;
            return this;
        }

        /** Generates missing request and trace ids; random UUIDs by default. */
        public Builder idGenerator(IdGenerator value) {
            this.ids = value;
            return this;
        }

        /** The clock of timestamps, deadlines and session expiry; the system clock by default. */
        public Builder clock(InstantSource value) {
            this.clock = value;
            return this;
        }

        /** The default most tokens per inference; 2048 by default. */
        public Builder maxTokens(int value) {
            this.maxTokens = value;
            return this;
        }

        /** The most tool rounds per turn; 20 by default. */
        public Builder maxToolIterations(int value) {
            this.maxToolIterations = value;
            return this;
        }

        /** Receives each request's {@link ExecutionContext} when the request ends; none by default. */
        public Builder executionListener(Consumer<ExecutionContext> value) {
            this.executionListener = value;
            return this;
        }

        /**
         * The engines of the multi-model modes ({@link Mode#ADVERSARIAL}, {@link Mode#VOTE}, {@link Mode#REFINE});
         * without one, those modes run on the orchestrator's engine alone (catalogue id
         * {@value Orchestrator#DEFAULT_ENGINE_ID}), so that every mode works through every adapter. Voters run on the
         * {@link #replicaExecutor} when set.
         */
        public Builder catalogue(EngineCatalogue value) {
            this.catalogue = value;
            return this;
        }

        /** The orchestrator; see {@link Builder} for validation. */
        public Orchestrator build() {
            if (engine == null) {
                throw PaganticException.of(ErrorCode.CONFIG_NO_ENGINE, "an Orchestrator needs an inference engine");
            }
            require(maxTokens > 0, "maxTokens must be positive: " + maxTokens);
            require(maxToolIterations > 0, "maxToolIterations must be positive: " + maxToolIterations);
            require(replicas > 0, "replicas must be positive: " + replicas);
            require(maxSessions > 0, "maxSessions must be positive: " + maxSessions);
            require(sessionTtl != null && !sessionTtl.isNegative() && !sessionTtl.isZero(),
                    "sessionTtl must be positive: " + sessionTtl);
            for (Object setting : new Object[] {planPolicy, voting, retryPolicy, eventLog, interceptor, ids, clock}) {
                require(setting != null, "a setting must not be null");
            }
            boolean hasPrompt = systemPrompt != null && !systemPrompt.isBlank();
            require(!(hasPrompt && promptProvider != null),
                    "configure either a systemPrompt or a promptProvider, not both");
            Message systemMessage = hasPrompt ? Message.system(systemPrompt)
                    : promptProvider != null ? promptProvider.buildSystemPrompt() : null;
            require(systemMessage == null || systemMessage.role() == Role.SYSTEM,
                    "the promptProvider must return a system message");
            boolean ownsExecutor = tools != null && toolExecutor == null;
            ToolExecutor executor = ownsExecutor ? ToolExecutor.builder()
                    .observer(SchemaEvents.toolObserver(eventLog)).build() : toolExecutor;
            boolean ownsStore = store == null;
            ConversationStore sessions = ownsStore ? new InMemoryConversationStore() : store;
            return new Orchestrator(this, systemMessage, executor, ownsExecutor, sessions, ownsStore);
        }

        private static void require(boolean condition, String message) {
            if (!condition) {
                throw PaganticException.of(ErrorCode.CONFIG_INVALID, "invalid Orchestrator configuration: "
                        + message);
            }
        }
    }
}
