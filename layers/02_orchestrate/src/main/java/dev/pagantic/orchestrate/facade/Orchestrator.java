package dev.pagantic.orchestrate.facade;

import static dev.pagantic.core.Preconditions.require;
import static dev.pagantic.core.Preconditions.requireNonNull;

import dev.pagantic.constraint.SchemaValidator;
import dev.pagantic.core.CallContext;
import dev.pagantic.core.Cancellation;
import dev.pagantic.core.ErrorCode;
import dev.pagantic.core.IdGenerator;
import dev.pagantic.core.PaganticException;
import dev.pagantic.core.TokenUsage;
import dev.pagantic.core.ToolDefinition;
import dev.pagantic.inference.StreamHandler;
import dev.pagantic.inference.grammar.GbnfGrammar;
import dev.pagantic.memory.ConversationStore;
import dev.pagantic.memory.InMemoryConversationStore;
import dev.pagantic.observe.EventContext;
import dev.pagantic.observe.EventLog;
import dev.pagantic.observe.LifecycleTransitionEvent;
import dev.pagantic.orchestrate.agent.AgentEvent;
import dev.pagantic.orchestrate.agent.AgentEventListener;
import dev.pagantic.orchestrate.agent.AgentLoop;
import dev.pagantic.orchestrate.agent.TurnOptions;
import dev.pagantic.orchestrate.lifecycle.ExecutionLifecycle;
import dev.pagantic.orchestrate.lifecycle.PatternPath;
import dev.pagantic.orchestrate.lifecycle.Transition;
import dev.pagantic.orchestrate.lifecycle.TransitionListener;
import dev.pagantic.orchestrate.loop.LoopBuilder;
import dev.pagantic.orchestrate.loop.LoopSettings;
import dev.pagantic.orchestrate.multimodel.EngineCatalogue;
import dev.pagantic.orchestrate.multimodel.EngineEntry;
import dev.pagantic.orchestrate.multimodel.MultiModel;
import dev.pagantic.orchestrate.plan.PlanExecutor;
import dev.pagantic.orchestrate.plan.PlanPolicy;
import dev.pagantic.orchestrate.plan.StepHandler;
import dev.pagantic.orchestrate.plan.StepType;
import dev.pagantic.orchestrate.spi.Invocation;
import dev.pagantic.orchestrate.spi.InvocationKind;
import dev.pagantic.orchestrate.spi.Observer;
import dev.pagantic.orchestrate.structured.SpecializedLoop;
import dev.pagantic.orchestrate.vote.MajorityVoting;
import dev.pagantic.orchestrate.vote.RedundantLoop;
import dev.pagantic.orchestrate.vote.VotingStrategy;
import dev.pagantic.tool.ToolExecutor;
import dev.pagantic.tool.ToolRegistry;
import dev.pagantic.validate.RetryPolicy;
import dev.pagantic.validate.RuleValidator;
import java.time.Duration;
import java.time.InstantSource;
import java.util.ArrayList;
import java.util.EnumMap;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.Executor;
import java.util.function.Consumer;
import java.util.stream.Collectors;
import org.jspecify.annotations.Nullable;

/**
 * The one entry point of pagantic (seed 001): a {@link SystemRequest} goes in, a {@link SystemResponse} comes out, and
 * in between the request's lifecycle is driven from INIT to COMPLETE, ERROR or CANCELLED. Adapters talk to nothing
 * else. The orchestrator is a dispatcher: INIT and PREPARE happen here, then one class per mode runs the pattern.
 *
 * <h2>Routing by mode</h2>
 * <ul>
 *   <li>{@link Mode#CHAT} → an {@link AgentLoop} turn, per session when the request has a session id.</li>
 *   <li>{@link Mode#STRUCTURED} → a {@link SpecializedLoop} call.</li>
 *   <li>{@link Mode#PLAN} → the configured {@link Planner} and a {@link PlanExecutor}.</li>
 *   <li>{@link Mode#REDUNDANT} → a {@link RedundantLoop} over structured replicas.</li>
 *   <li>{@link Mode#ADVERSARIAL}, {@link Mode#VOTE}, {@link Mode#REFINE} → {@link MultiModel} on the configured
 *       {@linkplain Builder#catalogue catalogue} (or the orchestrator's engine alone).</li>
 * </ul>
 * The mode classes document which response fields each fills.
 *
 * <h2>INIT, PREPARE and the hints</h2>
 * Missing request and trace ids are generated; the envelope is validated ({@link SystemRequest#validate()}); a grammar
 * in the output contract is loaded and parsed once ({@code CONFIG_GRAMMAR_NOT_FOUND}, {@code CONFIG_GRAMMAR_INVALID});
 * every name of the tool whitelist must be a registered or caller tool ({@code CONFIG_INVALID}: a typo never silently
 * removes a tool). The request's {@linkplain ExecutionHints#settings() inference settings} are laid over the
 * orchestrator's ({@link LoopBuilder#settings}) for every inference of every mode, plan steps and planners included:
 * max tokens, temperature, top-p, seed, stop strings and engine options; the timeout is the request's deadline
 * ({@code CANCELLED_TIMEOUT}).
 *
 * <h2>Tools</h2>
 * Registered tools run here; caller tools ({@link SystemRequest#callerTools()}) are offered to the model in chat mode,
 * and when the model calls one the response hands the calls back (finish reason {@code tool_calls}) with nothing
 * executed. A model asking for a tool outside the whitelist gets {@code TOOL_NOT_FOUND} as the tool's result and
 * nothing runs. Nothing here retries a tool that is not idempotent: a structured retry repeats only the structured
 * phase, redundant replicas are offered idempotent tools only, plan steps are never retried on a tool failure.
 *
 * <h2>Failures and events</h2>
 * Every failure comes back as a response whose {@link SystemResponse#error()} holds the code, category and retryable
 * flag; the lifecycle ends in ERROR, or in CANCELLED for a cancellation. Every lifecycle transition is a
 * {@code lifecycle_transition} event in the configured {@link EventLog}, next to the inference, tool, context, vote and
 * step events, all carrying the request id (and the session id in chat), so the whole timeline of a request can be
 * rebuilt from the log.
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

    private final LoopSettings settings;
    private final boolean ownsExecutor;
    private final ConversationStore store;
    private final boolean ownsStore;
    private final IdGenerator ids;
    private final InstantSource clock;
    private final @Nullable Consumer<ExecutionContext> executionListener;
    private final Sessions sessions;
    private final Map<Mode, ModeRunner> modes = new EnumMap<>(Mode.class);

    private Orchestrator(Builder b, LoopSettings settings, boolean ownsExecutor) {
        this.settings = settings;
        this.ownsExecutor = ownsExecutor;
        this.ownsStore = b.store == null;
        this.store = ownsStore ? new InMemoryConversationStore() : b.store;
        this.ids = b.ids;
        this.clock = b.clock;
        this.executionListener = b.executionListener;
        this.sessions = new Sessions(store, b.maxSessions, b.sessionTtl, b.clock, settings.systemMessage(),
                memory -> ChatMode.loop(settings, memory));
        StructuredMode structured = new StructuredMode(settings, b.retryPolicy, b.rules, new SchemaValidator());
        modes.put(Mode.CHAT, new ChatMode(settings, sessions));
        modes.put(Mode.STRUCTURED, structured);
        modes.put(Mode.REDUNDANT, new RedundantMode(structured, settings.tools(), b.voting, b.replicas,
                b.replicaExecutor));
        modes.put(Mode.PLAN, new PlanMode(settings, b.planner, b.handlers, b.planPolicy));
        MultiModelMode multiModel = new MultiModelMode(multiModel(b, settings));
        for (Mode mode : List.of(Mode.ADVERSARIAL, Mode.VOTE, Mode.REFINE)) {
            modes.put(mode, multiModel);
        }
    }

    /** The multi-model modes on the catalogue, or, without one, on the orchestrator's engine alone. */
    private static MultiModel multiModel(Builder b, LoopSettings settings) {
        EngineCatalogue catalogue = b.catalogue != null ? b.catalogue
                : EngineCatalogue.builder().add(EngineEntry.of(DEFAULT_ENGINE_ID, settings.engine(), 1)).build();
        MultiModel.Builder modes = MultiModel.builder().catalogue(catalogue).settings(settings.inference())
                .executor(b.replicaExecutor).interceptor(settings.interceptor()).eventLog(settings.eventLog());
        settings.systemMessage().ifPresent(message -> modes.systemPrompt(message.content()));
        return modes.build();
    }

    /** Starts building an orchestrator; an engine is required. */
    public static Builder builder() {
        return new Builder();
    }

    /** Executes the request. Never throws for a failed request: the failure is the response's error. */
    public SystemResponse execute(SystemRequest request) {
        return execute(request, StreamHandler.NOOP, null);
    }

    /** Executes the request, streaming the model's output to the handler as it is generated. */
    public SystemResponse execute(SystemRequest request, StreamHandler stream) {
        return execute(request, stream, null);
    }

    /**
     * Executes the request.
     *
     * @param request      the request
     * @param stream       receives the model's output as it is generated; {@link StreamHandler#NOOP} for none
     * @param cancellation cancels the request from outside (a disconnected client); null for none. A cancelled
     *                     request ends with {@code CANCELLED_SIGNAL}
     * @return the response; its error is set when the request failed
     */
    public SystemResponse execute(SystemRequest request, StreamHandler stream, @Nullable Cancellation cancellation) {
        return execute(request, stream, AgentEventListener.NOOP, cancellation);
    }

    /**
     * Executes the request, pushing its agent events (seed 004) to a listener as they happen.
     *
     * <p>A {@link Mode#CHAT} request's turn emits {@code turn_start}, {@code steering_mode}, {@code thinking},
     * {@code tool_call}, {@code tool_result}, {@code text_delta} and {@code turn_end} in the order {@link AgentLoop}
     * documents, each with the request's {@linkplain AgentEvent#correlation() correlation ids} (the generated ones when
     * the request had none); the other modes emit none (their replicas, steps and phases are not one turn). The listener is called on the request's thread (text deltas
     * on the engine's generating thread), before this method returns the response; an exception it throws fails the
     * request. With a listener, the tool calls of a round run one at a time, so that each {@code tool_call} is
     * followed by its {@code tool_result}.
     *
     * @param request      the request
     * @param stream       receives the model's output as it is generated; {@link StreamHandler#NOOP} for none
     * @param events       receives the request's agent events; {@link AgentEventListener#NOOP} for none
     * @param cancellation cancels the request from outside (a disconnected client); null for none. A cancelled
     *                     request ends with {@code CANCELLED_SIGNAL}
     * @return the response; its error is set when the request failed
     */
    public SystemResponse execute(SystemRequest request, StreamHandler stream, AgentEventListener events,
                                  @Nullable Cancellation cancellation) {
        requireNonNull(request, "request");
        requireNonNull(stream, "stream");
        requireNonNull(events, "events");
        SystemRequest req = request.withMissingIds(ids);
        CallContext ctx = callContext(req, cancellation);
        Observer observer = settings.observer();
        if (observer == Observer.NONE) {
            return run(req, ctx, stream, events);
        }
        return observer.intercept(Invocation.of(InvocationKind.REQUEST, req.mode().wireName(), ctx, req,
                () -> run(req, ctx, stream, events)));
    }

    /** INIT to the end of the request's lifecycle; never throws for a failed request. */
    private SystemResponse run(SystemRequest req, CallContext ctx, StreamHandler stream, AgentEventListener events) {
        EventLog eventLog = settings.eventLog();
        ExecutionLifecycle lifecycle = ExecutionLifecycle.start(ctx, pathOf(req.mode()),
                eventLog.isEnabled() ? this::recordTransition : TransitionListener.NOOP);
        ExecutionContext execution = new ExecutionContext(req, ctx.now(), lifecycle);
        SystemResponse response;
        RequestCall call = null;
        try {
            req.validate();
            Optional<GbnfGrammar> grammar = req.output().grammar().map(source -> GbnfGrammar.parse(source.load()));
            call = new RequestCall(req, ctx, lifecycle, execution, prepare(req, stream, events, lifecycle, execution),
                    grammar);
            response = modes.get(req.mode()).run(call);
        } catch (PaganticException failure) {
            RequestCall failed = call != null ? call
                    : new RequestCall(req, ctx, lifecycle, execution, TurnOptions.DEFAULTS, Optional.empty());
            response = failed.failed(failure, TokenUsage.ZERO, List.of());
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

    /** The settings every request's loops start from. */
    public LoopSettings settings() {
        return settings;
    }

    /** Closes the tool executor and the default store if this orchestrator created them. */
    @Override
    public void close() {
        if (ownsExecutor) {
            settings.toolExecutor().ifPresent(ToolExecutor::close);
        }
        if (ownsStore) {
            store.close();
        }
    }

    // ------------------------------------------------------------------------------------------------------ INIT

    private CallContext callContext(SystemRequest req, @Nullable Cancellation cancellation) {
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

    /** PREPARE's tool selection, as the per-call hooks of the pattern. */
    private TurnOptions prepare(SystemRequest req, StreamHandler stream, AgentEventListener events,
                                ExecutionLifecycle lifecycle, ExecutionContext execution) {
        checkWhitelist(req);
        TurnOptions.Builder options = TurnOptions.builder().lifecycle(lifecycle)
                .stream(stream == StreamHandler.NOOP ? null : stream)
                // only a chat turn is one agent turn: replicas, plan steps and tool phases would interleave theirs
                .eventListener(req.mode() == Mode.CHAT && events != AgentEventListener.NOOP ? events : null);
        List<String> selected = new ArrayList<>();
        ToolRegistry tools = settings.tools().orElse(null);
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
            if (!settings.tools().map(tools -> tools.contains(name)).orElse(false) && !callerNames.contains(name)) {
                throw PaganticException.builder(ErrorCode.CONFIG_INVALID,
                        "the tool whitelist names '" + name + "', which is neither registered nor a caller tool")
                        .detail("tool", name).build();
            }
        }
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
        settings.eventLog().record(new LifecycleTransitionEvent(EventContext.of(transition.correlation(),
                transition.at()), transition.from().name(), transition.to().name(), transition.attempt(),
                transition.reason()).toEvent());
    }

    // ------------------------------------------------------------------------------------------------------ builder

    /**
     * Builds an {@link Orchestrator}: the settings every loop shares ({@link LoopBuilder}: engine, tools, system
     * prompt, inference settings, event log, context, interceptor, ...) and the modes' own. Validated at
     * {@link #build()}: no engine is {@code CONFIG_NO_ENGINE}, other invalid settings {@code CONFIG_INVALID}.
     */
    public static final class Builder extends LoopBuilder<Builder> {
        private @Nullable Planner planner;
        private final Map<StepType, StepHandler> handlers = new LinkedHashMap<>();
        private PlanPolicy planPolicy = PlanPolicy.defaults();
        private VotingStrategy voting = new MajorityVoting();
        private int replicas = RedundantLoop.DEFAULT_N;
        private @Nullable Executor replicaExecutor;
        private RetryPolicy retryPolicy = SpecializedLoop.defaultRetryPolicy();
        private @Nullable RuleValidator rules;
        private @Nullable ConversationStore store;
        private int maxSessions = DEFAULT_MAX_SESSIONS;
        private Duration sessionTtl = DEFAULT_SESSION_TTL;
        private IdGenerator ids = IdGenerator.random();
        private InstantSource clock = InstantSource.system();
        private @Nullable Consumer<ExecutionContext> executionListener;
        private @Nullable EngineCatalogue catalogue;

        private Builder() {
        }

        /** Creates the plans of plan mode (a {@link StaticPlanner} for given plans); none by default. */
        public Builder planner(@Nullable Planner value) {
            this.planner = value;
            return this;
        }

        /**
         * The handler of a plan step type. Without one, plan mode has built-in handlers for {@code infer} (on the
         * engine), {@code tool} (on the tools, when configured) and {@code retrieve} (on the context provider, when
         * configured); a handler given here replaces the built-in one of its type.
         */
        public Builder handler(StepType type, StepHandler handler) {
            handlers.put(requireNonNull(type, "type"), requireNonNull(handler, "handler"));
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

        /** Runs redundant replicas and multi-model voters concurrently on this executor; sequential by default. */
        public Builder replicaExecutor(@Nullable Executor value) {
            this.replicaExecutor = value;
            return this;
        }

        /** How structured calls retry; {@link SpecializedLoop#defaultRetryPolicy()} by default. */
        public Builder retryPolicy(RetryPolicy value) {
            this.retryPolicy = value;
            return this;
        }

        /** Rules every structured output must pass; none by default. */
        public Builder rules(@Nullable RuleValidator value) {
            this.rules = value;
            return this;
        }

        /** Where chat sessions are kept; a new in-memory store by default (closed with the orchestrator). */
        public Builder conversationStore(@Nullable ConversationStore value) {
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

        /** Receives each request's {@link ExecutionContext} when the request ends; none by default. */
        public Builder executionListener(@Nullable Consumer<ExecutionContext> value) {
            this.executionListener = value;
            return this;
        }

        /**
         * The engines of the multi-model modes ({@link Mode#ADVERSARIAL}, {@link Mode#VOTE}, {@link Mode#REFINE});
         * without one, those modes run on the orchestrator's engine alone (catalogue id
         * {@value Orchestrator#DEFAULT_ENGINE_ID}), so that every mode works through every adapter. Voters run on the
         * {@link #replicaExecutor} when set.
         */
        public Builder catalogue(@Nullable EngineCatalogue value) {
            this.catalogue = value;
            return this;
        }

        /** The orchestrator; see {@link Builder} for validation. */
        public Orchestrator build() {
            LoopSettings settings = loopSettings("Orchestrator");
            String invalid = "invalid Orchestrator configuration: ";
            require(replicas > 0, invalid + "replicas must be positive: ", replicas);
            require(maxSessions > 0, invalid + "maxSessions must be positive: ", maxSessions);
            require(sessionTtl != null && !sessionTtl.isNegative() && !sessionTtl.isZero(),
                    invalid + "sessionTtl must be positive: ", sessionTtl);
            for (Object setting : new Object[] {planPolicy, voting, retryPolicy, ids, clock}) {
                require(setting != null, invalid + "a setting must not be null");
            }
            return new Orchestrator(this, settings, createdExecutor());
        }
    }
}
