package dev.pagantic.orchestrate;

import dev.pagantic.constraint.ConstraintPipeline;
import dev.pagantic.constraint.SchemaValidator;
import dev.pagantic.constraint.ValidationReport;
import dev.pagantic.core.CallContext;
import dev.pagantic.core.ErrorCode;
import dev.pagantic.core.FailureCategory;
import dev.pagantic.core.Message;
import dev.pagantic.core.PaganticException;
import dev.pagantic.core.Role;
import dev.pagantic.core.Schema;
import dev.pagantic.core.TokenUsage;
import dev.pagantic.inference.Engine;
import dev.pagantic.inference.Result;
import dev.pagantic.inference.StreamHandler;
import dev.pagantic.inference.grammar.GbnfGrammar;
import dev.pagantic.memory.ConversationBuffer;
import dev.pagantic.observe.EventLog;
import dev.pagantic.orchestrate.lifecycle.ExecutionLifecycle;
import dev.pagantic.orchestrate.lifecycle.PatternPath;
import dev.pagantic.orchestrate.lifecycle.TransitionListener;
import dev.pagantic.orchestrate.spi.Interceptor;
import dev.pagantic.tool.ToolExecution;
import dev.pagantic.tool.ToolExecutor;
import dev.pagantic.tool.ToolRegistry;
import dev.pagantic.validate.RetryOutcome;
import dev.pagantic.validate.RetryPolicy;
import dev.pagantic.validate.RuleReport;
import dev.pagantic.validate.RuleValidator;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import java.util.Optional;
import java.util.concurrent.atomic.AtomicReference;

/**
 * The stateless single-shot pattern: structured output for one prompt, with nothing kept between calls.
 *
 * <h2>A call</h2>
 * <ol>
 *   <li>if a {@link ContextProvider} is configured, context is retrieved once, with the <em>original</em> prompt (a
 *       provider that fails degrades the call to "no context" and is recorded as a {@code context} event);</li>
 *   <li>every attempt builds a fresh inner {@link AgentLoop} whose history is the system prompt and that context;</li>
 *   <li>with tools configured, the attempt runs in two phases: a {@code chat} turn with the prompt, in which the
 *       model gathers information through the tool loop, then a structured turn with
 *       {@value #PHASE_TWO_PROMPT}; without tools, one structured turn with the prompt;</li>
 *   <li>the structured output goes through the constraint pipeline (JSON check, repair when allowed, enum
 *       normalisation, schema validation, grammar conformance) and then the configured rules;</li>
 *   <li>an attempt that fails with a {@code ConstraintFailure} or a {@code ValidationFailure} is retried according to
 *       the {@link RetryPolicy} (by default three attempts in all, without delay, on those two categories only); other
 *       failures end the call. A retry repeats only the structured turn: the conversation of the tool phase (the
 *       model's calls and the tools' results) is kept from the attempt that completed it, so a tool with side
 *       effects never runs again because the output that followed it was invalid.</li>
 * </ol>
 *
 * <h2>Lifecycle</h2>
 * A call can drive the {@link PatternPath#SPECIALIZED_LOOP} path: INIT → PREPARE (context, inner loop) → EXECUTE (the
 * inferences and tool loop) → VALIDATE (pipeline and rules) → COMPLETE, with VALIDATE → EXECUTE on every retry (the
 * attempt number increases), or ERROR / CANCELLED. Configure a {@link Builder#transitionListener transition listener}
 * or pass a lifecycle in the {@link TurnOptions} of {@link #run}.
 *
 * <h2>Strictness</h2>
 * By default an output that still violates the schema, the grammar or a rule after repair is a failure (and
 * retried). With {@link Builder#strictValidation(boolean) strictValidation(false)} the last output is returned with
 * its violations in {@link SpecializedResult#validation()} and {@link SpecializedResult#rules()} instead; output that
 * is not JSON at all is still a failure.
 *
 * <p>Thread-safe: calls share nothing but the configuration and the tool executor, so one loop may serve concurrent
 * calls (the {@link RedundantLoop} relies on it).
 *
 * <pre>{@code
 * try (SpecializedLoop sentiment = SpecializedLoop.builder()
 *         .engine(engine)
 *         .systemPrompt("Analyze sentiment. Return structured JSON.")
 *         .schema(sentimentSchema)
 *         .build()) {
 *     Result result = sentiment.call(ctx, "I love this product!"); // {"sentiment":"positive"}
 * }
 * }</pre>
 */
public final class SpecializedLoop implements AutoCloseable {

    /** The prompt of the structured phase when tools are configured (the specification's hard-coded text). */
    public static final String PHASE_TWO_PROMPT = "Produce your structured output now.";

    private final Engine engine;
    private final ToolRegistry tools; // null: none
    private final ToolExecutor executor; // null when there are no tools
    private final boolean ownsExecutor;
    private final Message systemMessage; // null: none
    private final Schema schema;
    private final String grammar; // null: none
    private final int maxTokens;
    private final int maxToolIterations;
    private final StreamHandler stream; // null: none
    private final EventLog eventLog;
    private final ContextProvider contextProvider; // null: none
    private final ContextPlacement contextPlacement;
    private final Interceptor interceptor;
    private final RetryPolicy retryPolicy;
    private final RuleValidator rules; // null: none
    private final boolean repairAllowed;
    private final boolean strictValidation;
    private final TransitionListener transitionListener; // null: none
    private final SchemaValidator validator; // shared by every pipeline of this loop, with its compiled schemas

    private SpecializedLoop(Builder builder, Message systemMessage, ToolExecutor executor, boolean ownsExecutor) {
        this.engine = builder.engine;
        this.tools = builder.tools;
        this.executor = executor;
        this.ownsExecutor = ownsExecutor;
        this.systemMessage = systemMessage;
        this.schema = builder.schema;
        this.grammar = builder.grammar == null || builder.grammar.isBlank() ? null : builder.grammar;
        this.maxTokens = builder.maxTokens;
        this.maxToolIterations = builder.maxToolIterations;
        this.stream = builder.stream;
        this.eventLog = builder.eventLog;
        this.contextProvider = builder.contextProvider;
        this.contextPlacement = builder.contextPlacement;
        this.interceptor = builder.interceptor;
        this.retryPolicy = builder.retryPolicy;
        this.rules = builder.rules;
        this.repairAllowed = builder.repairAllowed;
        this.strictValidation = builder.strictValidation;
        this.transitionListener = builder.transitionListener;
        this.validator = builder.validator != null ? builder.validator : new SchemaValidator();
    }

    /** Starts building a loop; an engine and a schema are required. */
    public static Builder builder() {
        return new Builder();
    }

    /** The retry policy applied when no other is configured: 3 attempts, no delay, constraint and validation only. */
    public static RetryPolicy defaultRetryPolicy() {
        return RetryPolicy.builder().maxAttempts(3).initialDelay(Duration.ZERO).jitter(0)
                .retryOn(FailureCategory.CONSTRAINT, FailureCategory.VALIDATION).build();
    }

    /**
     * Produces the structured output for the prompt.
     *
     * @return the result: content is the validated JSON, usage the sum over every inference of every attempt
     * @throws PaganticException the last attempt's failure: {@code CONSTRAINT_*}, {@code VALIDATION_*},
     *                           {@code INFERENCE_*}, {@code ORCHESTRATION_ITERATION_LIMIT} or {@code CANCELLED_*}
     */
    public Result call(CallContext ctx, String prompt) {
        return run(ctx, prompt, TurnOptions.DEFAULTS).orElseThrow().result();
    }

    /** Produces the structured output in a {@linkplain CallContext#background() background context}. */
    public Result call(String prompt) {
        return call(CallContext.background(), prompt);
    }

    /**
     * Produces the structured output with per-call settings and reports the whole call, failed or not: the result or
     * failure, the usage and every tool execution. The options' temperature replaces 0.3, their tool whitelist applies
     * to the tool phase, their seed to every inference, and a lifecycle in them (INIT or PLAN, on the
     * {@link PatternPath#SPECIALIZED_LOOP} path) is driven to COMPLETE, ERROR or CANCELLED.
     *
     * @throws PaganticException only {@code CONFIG_INVALID} for options that cannot apply (a lifecycle past PLAN, a
     *                           whitelist naming an unregistered tool); every other failure is in the outcome
     */
    public SpecializedOutcome run(CallContext ctx, String prompt, TurnOptions options) {
        Objects.requireNonNull(ctx, "ctx");
        Objects.requireNonNull(prompt, "prompt");
        Objects.requireNonNull(options, "options");
        Phases phases = new Phases(Phases.requireStartable(options.lifecycle()).orElseGet(
                () -> transitionListener == null ? null
                        : ExecutionLifecycle.start(ctx, PatternPath.SPECIALIZED_LOOP, transitionListener)));
        options.allowedTools().ifPresent(names -> {
            if (tools != null) {
                tools.allowOnly(names);
            }
        });
        Call call = new Call(ctx, prompt, withoutLifecycle(options), phases);
        try {
            phases.prepare("single-shot call: retrieving context once, preparing a fresh inner loop");
            ctx.throwIfDone();
            call.context = EphemeralContext.fetch(contextProvider, eventLog, ctx, prompt);
            RetryOutcome<SpecializedResult> outcome = retryPolicy.run(ctx, call::attempt);
            if (outcome.succeeded()) {
                SpecializedResult result = outcome.orElseThrow();
                phases.complete("structured output valid after " + result.attempts() + " attempt(s)");
                return call.outcome(Optional.of(result), Optional.empty());
            }
            PaganticException failure = outcome.failure().orElseThrow();
            phases.fail(failure);
            return call.outcome(Optional.empty(), Optional.of(failure));
        } catch (PaganticException failure) {
            phases.fail(failure);
            return call.outcome(Optional.empty(), Optional.of(failure));
        } catch (RuntimeException | Error bug) {
            phases.fail(bug);
            throw bug;
        }
    }

    /** The schema outputs must conform to. */
    public Schema schema() {
        return schema;
    }

    /** Closes the tool executor if this loop created it; closing twice is harmless. */
    @Override
    public void close() {
        if (ownsExecutor) {
            executor.close();
        }
    }

    @Override
    public String toString() {
        return "SpecializedLoop[model=" + engine.modelInfo().name() + ", tools=" + (tools == null ? 0 : tools.size())
                + ", retry=" + retryPolicy + "]";
    }

    private static TurnOptions withoutLifecycle(TurnOptions options) {
        return options.toBuilder().lifecycle(null).build();
    }

    /** The state of one call: what every attempt adds to. Confined to the calling thread. */
    private final class Call {
        private final CallContext ctx;
        private final String prompt;
        private final TurnOptions options;
        private final Phases phases;
        private final List<ToolExecution> toolExecutions = new ArrayList<>();
        private List<Message> context = List.of();
        // the inner loop's history after a completed tool phase, reused by retries so that no tool runs again
        private List<Message> gathered;
        private ConversationBuffer memory;
        private TokenUsage usage = TokenUsage.ZERO;
        private PaganticException lastFailure;
        private int attempts;

        Call(CallContext ctx, String prompt, TurnOptions options, Phases phases) {
            this.ctx = ctx;
            this.prompt = prompt;
            this.options = options;
            this.phases = phases;
        }

        SpecializedResult attempt(int number) {
            attempts = number;
            if (number == 1) {
                phases.execute("attempt 1");
            } else {
                phases.retry(lastFailure, "attempt " + number + " after " + lastFailure.code());
            }
            try (AgentLoop loop = innerLoop()) {
                return structured(loop, number);
            } catch (PaganticException failure) {
                lastFailure = failure;
                throw failure;
            }
        }

        private SpecializedResult structured(AgentLoop loop, int number) {
            String structuredPrompt = prompt;
            if (tools != null) {
                if (gathered == null) {
                    AgentTurn turn = loop.chatTurn(ctx, prompt, options);
                    usage = usage.plus(turn.result().usage());
                    toolExecutions.addAll(turn.toolExecutions());
                    gathered = memory.messages();
                }
                structuredPrompt = PHASE_TWO_PROMPT;
            }
            AtomicReference<ValidationReport> validation = new AtomicReference<>();
            AtomicReference<RuleReport> ruleReport = new AtomicReference<>();
            AgentTurn answer = loop.structuredTurn(ctx, structuredPrompt, schema, options, (result, applied) -> {
                usage = usage.plus(result.usage());
                phases.validate("constraint pipeline and rules on attempt " + number);
                ValidationReport report = pipeline(applied).process(result.content());
                validation.set(report);
                if (rules != null) {
                    RuleReport checked = rules.validate(report.json());
                    ruleReport.set(checked);
                    if (strictValidation) {
                        checked.throwIfFailed();
                    }
                }
                return report;
            });
            Result result = answer.result().toBuilder().usage(usage).build();
            return new SpecializedResult(result, validation.get(), Optional.ofNullable(ruleReport.get()),
                    toolExecutions, number);
        }

        SpecializedOutcome outcome(Optional<SpecializedResult> value, Optional<PaganticException> failure) {
            return new SpecializedOutcome(value, failure, usage, toolExecutions, attempts);
        }

        private AgentLoop innerLoop() {
            List<Message> base = systemMessage == null ? List.of() : List.of(systemMessage);
            memory = new ConversationBuffer();
            if (gathered != null) {
                memory.appendAll(gathered);
            } else {
                memory.appendAll(context.isEmpty() ? base : contextPlacement.place(base, context));
            }
            return AgentLoop.builder()
                    .engine(engine)
                    .tools(tools)
                    .toolExecutor(executor)
                    .grammar(grammar)
                    .maxTokens(maxTokens)
                    .maxToolIterations(maxToolIterations)
                    .stream(stream)
                    .eventLog(eventLog)
                    .interceptor(interceptor)
                    .memory(memory)
                    .build();
        }
    }

    private ConstraintPipeline pipeline(GbnfGrammar applied) {
        ConstraintPipeline.Builder pipeline = ConstraintPipeline.builder().schema(schema)
                .repairAllowed(repairAllowed).strict(strictValidation).validator(validator);
        if (applied != null) {
            pipeline.grammar(applied);
        }
        return pipeline.build();
    }

    // ------------------------------------------------------------------------------------------------------ builder

    /**
     * Builds a {@link SpecializedLoop}: the specification's {@code SpecializedConfig}, plus the retry policy, rules
     * and strictness. Validated at {@link #build()}: no engine is {@code CONFIG_NO_ENGINE}, no schema
     * {@code CONFIG_SCHEMA_REQUIRED}, a grammar that does not parse {@code CONFIG_GRAMMAR_INVALID}, other invalid
     * settings {@code CONFIG_INVALID}.
     */
    public static final class Builder {
        private Engine engine;
        private ToolRegistry tools;
        private ToolExecutor toolExecutor;
        private String systemPrompt;
        private PromptProvider promptProvider;
        private Schema schema;
        private String grammar;
        private int maxTokens = AgentLoop.DEFAULT_MAX_TOKENS;
        private int maxToolIterations = AgentLoop.DEFAULT_MAX_TOOL_ITERATIONS;
        private StreamHandler stream;
        private EventLog eventLog = EventLog.noOp();
        private ContextProvider contextProvider;
        private ContextPlacement contextPlacement = ContextPlacement.BEFORE_USER_MESSAGE;
        private Interceptor interceptor = Interceptor.NONE;
        private RetryPolicy retryPolicy = defaultRetryPolicy();
        private RuleValidator rules;
        private boolean repairAllowed = true;
        private boolean strictValidation = true;
        private TransitionListener transitionListener;
        private SchemaValidator validator;

        private Builder() {
        }

        /** The inference backend (required). */
        public Builder engine(Engine value) {
            this.engine = value;
            return this;
        }

        /** Tools for the gathering phase; none by default (one structured phase). */
        public Builder tools(ToolRegistry value) {
            this.tools = value;
            return this;
        }

        /** The executor that runs tool calls; one is created (and closed with the loop) when tools need it. */
        public Builder toolExecutor(ToolExecutor value) {
            this.toolExecutor = value;
            return this;
        }

        /** The system prompt of every inner loop; none by default. Exclusive with {@link #promptProvider}. */
        public Builder systemPrompt(String value) {
            this.systemPrompt = value;
            return this;
        }

        /** Where the system message comes from; called once, at {@link #build()}. */
        public Builder promptProvider(PromptProvider value) {
            this.promptProvider = value;
            return this;
        }

        /** The JSON schema outputs must conform to (required). */
        public Builder schema(Schema value) {
            this.schema = value;
            return this;
        }

        /**
         * A GBNF grammar for the structured phase; when none is given and the engine supports grammars, one is
         * derived from the schema.
         */
        public Builder grammar(String value) {
            this.grammar = value;
            return this;
        }

        /** The most tokens per inference; {@value AgentLoop#DEFAULT_MAX_TOKENS} by default. */
        public Builder maxTokens(int value) {
            this.maxTokens = value;
            return this;
        }

        /** The most tool rounds in the gathering phase; {@value AgentLoop#DEFAULT_MAX_TOOL_ITERATIONS} by default. */
        public Builder maxToolIterations(int value) {
            this.maxToolIterations = value;
            return this;
        }

        /** Receives every inference's output as it is generated; none by default. */
        public Builder stream(StreamHandler value) {
            this.stream = value;
            return this;
        }

        /** Where the {@code infer}, {@code tool} and {@code context} events go; a no-op log by default. */
        public Builder eventLog(EventLog value) {
            this.eventLog = value;
            return this;
        }

        /** Retrieves context once per call with the original prompt; none by default. */
        public Builder contextProvider(ContextProvider value) {
            this.contextProvider = value;
            return this;
        }

        /**
         * Where the context goes in every inner loop's history, placed once before the prompt; by default after the
         * system prompt, just before the prompt.
         */
        public Builder contextPlacement(ContextPlacement value) {
            this.contextPlacement = value;
            return this;
        }

        /** Wraps every inference and tool call; {@link Interceptor#NONE} by default. */
        public Builder interceptor(Interceptor value) {
            this.interceptor = value;
            return this;
        }

        /** How failed attempts are retried; {@link #defaultRetryPolicy()} by default. */
        public Builder retryPolicy(RetryPolicy value) {
            this.retryPolicy = value;
            return this;
        }

        /** Rules the validated JSON must pass ({@code VALIDATION_RULE_FAILED} otherwise); none by default. */
        public Builder rules(RuleValidator value) {
            this.rules = value;
            return this;
        }

        /** Whether malformed JSON may be repaired; true by default. */
        public Builder repairAllowed(boolean value) {
            this.repairAllowed = value;
            return this;
        }

        /** Whether remaining violations fail the attempt (true, the default) or are reported with the output. */
        public Builder strictValidation(boolean value) {
            this.strictValidation = value;
            return this;
        }

        /** When set, every call drives its own lifecycle and reports its transitions here; none by default. */
        public Builder transitionListener(TransitionListener value) {
            this.transitionListener = value;
            return this;
        }

        /**
         * The schema validator, to share its cache of compiled schemas between loops (an orchestrator builds a loop
         * per request); a new one per loop by default.
         */
        public Builder validator(SchemaValidator value) {
            this.validator = value;
            return this;
        }

        /** The loop; see {@link Builder} for validation. */
        public SpecializedLoop build() {
            if (engine == null) {
                throw PaganticException.of(ErrorCode.CONFIG_NO_ENGINE, "a SpecializedLoop needs an inference engine");
            }
            if (schema == null) {
                throw PaganticException.of(ErrorCode.CONFIG_SCHEMA_REQUIRED,
                        "a SpecializedLoop needs the schema of its structured output");
            }
            require(maxTokens > 0, "maxTokens must be positive: " + maxTokens);
            require(maxToolIterations > 0, "maxToolIterations must be positive: " + maxToolIterations);
            require(eventLog != null, "eventLog must not be null (use EventLog.noOp())");
            require(interceptor != null, "interceptor must not be null (use Interceptor.NONE)");
            require(retryPolicy != null, "retryPolicy must not be null (use RetryPolicy.noRetry())");
            require(contextPlacement != null, "contextPlacement must not be null");
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
            if (grammar != null && !grammar.isBlank()) {
                GbnfGrammar.parse(grammar);
            }
            boolean owns = tools != null && toolExecutor == null;
            ToolExecutor executor = owns ? SchemaEvents.observedExecutor(eventLog) : toolExecutor;
            return new SpecializedLoop(this, systemMessage, executor, owns);
        }

        private static void require(boolean condition, String message) {
            if (!condition) {
                throw PaganticException.of(ErrorCode.CONFIG_INVALID, "invalid SpecializedLoop configuration: "
                        + message);
            }
        }
    }
}
