package dev.pagantic.orchestrate.structured;

import static dev.pagantic.core.Preconditions.require;
import static dev.pagantic.core.Preconditions.requireNonNull;

import dev.pagantic.constraint.ConstraintPipeline;
import dev.pagantic.constraint.SchemaValidator;
import dev.pagantic.constraint.ValidationReport;
import dev.pagantic.core.CallContext;
import dev.pagantic.core.ErrorCode;
import dev.pagantic.core.FailureCategory;
import dev.pagantic.core.FinishReason;
import dev.pagantic.core.Message;
import dev.pagantic.core.PaganticException;
import dev.pagantic.core.Schema;
import dev.pagantic.core.TokenUsage;
import dev.pagantic.inference.InferenceSettings;
import dev.pagantic.inference.Result;
import dev.pagantic.inference.grammar.GbnfGrammar;
import dev.pagantic.memory.ConversationBuffer;
import dev.pagantic.orchestrate.agent.AgentLoop;
import dev.pagantic.orchestrate.agent.AgentTurn;
import dev.pagantic.orchestrate.agent.TurnOptions;
import dev.pagantic.orchestrate.internal.EphemeralContext;
import dev.pagantic.orchestrate.internal.InferenceCall;
import dev.pagantic.orchestrate.internal.Phases;
import dev.pagantic.orchestrate.internal.StructuredOutput;
import dev.pagantic.orchestrate.lifecycle.ExecutionLifecycle;
import dev.pagantic.orchestrate.lifecycle.PatternPath;
import dev.pagantic.orchestrate.lifecycle.TransitionListener;
import dev.pagantic.orchestrate.loop.LoopBuilder;
import dev.pagantic.orchestrate.loop.LoopSettings;
import dev.pagantic.orchestrate.loop.Outcome;
import dev.pagantic.orchestrate.ports.ContextPlacement;
import dev.pagantic.orchestrate.ports.ContextProvider;
import dev.pagantic.tool.ToolExecution;
import dev.pagantic.tool.ToolExecutor;
import dev.pagantic.tool.ToolRegistry;
import dev.pagantic.types.OutputType;
import dev.pagantic.validate.RetryOutcome;
import dev.pagantic.validate.RetryPolicy;
import dev.pagantic.validate.RuleReport;
import dev.pagantic.validate.RuleValidator;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import org.jspecify.annotations.Nullable;

/**
 * The stateless single-shot pattern: structured output for one prompt, with nothing kept between calls.
 *
 * <h2>A call</h2>
 * <ol>
 *   <li>if a {@link ContextProvider} is configured, context is retrieved once, with the <em>original</em> prompt, and
 *       placed after the system prompt (a provider that fails degrades the call to "no context");</li>
 *   <li>with tools configured, the first attempt has a tool phase: a chat turn of an {@link AgentLoop} with the prompt,
 *       in which the model gathers information through the tool loop; then the structured phase asks for the answer
 *       with {@value #PHASE_TWO_PROMPT}. Without tools, the structured phase asks with the prompt itself;</li>
 *   <li>the structured phase is one inference with the schema's constraints (see the agent loop's structured turns:
 *       grammar, schema, temperature {@value AgentLoop#STRUCTURED_TEMPERATURE} unless the settings say otherwise,
 *       thinking disabled), then the constraint pipeline (JSON check, repair when allowed, enum normalisation, schema
 *       validation, grammar conformance) and the configured rules;</li>
 *   <li>an answer cut off at the token limit (finish reason {@code LENGTH}) is never repaired (which would invent
 *       the rest) nor validated. While the retry policy allows another attempt and decoding samples (a temperature
 *       above 0 and no fixed seed, so that a retry can end sooner), it is retried as a {@code CONSTRAINT_JSON_INVALID}
 *       failure; otherwise it is returned as it is, with that finish reason and a
 *       {@link ValidationReport#cutOff cut-off report}. It is never reported valid;</li>
 *   <li>an attempt that fails with a {@code ConstraintFailure} or a {@code ValidationFailure} is retried according to
 *       the {@link RetryPolicy} (by default three attempts in all, without delay, on those two categories only); other
 *       failures end the call. A retry repeats only the structured phase: the conversation of the tool phase is kept,
 *       so a tool with side effects never runs again because the output that followed it was invalid.</li>
 * </ol>
 *
 * <h2>Lifecycle and strictness</h2>
 * A call can drive the {@link PatternPath#SPECIALIZED_LOOP} path: INIT → PREPARE → EXECUTE → VALIDATE → COMPLETE, with
 * VALIDATE → EXECUTE on every retry, or ERROR / CANCELLED. By default an output that still violates the schema, the
 * grammar or a rule after repair is a failure (and retried); with {@code strictValidation(false)} the last output is
 * returned with its violations instead; output that is not JSON at all is still a failure.
 *
 * <p>Thread-safe: calls share nothing but the configuration and the tool executor, so one loop may serve concurrent
 * calls (the redundant loop relies on it).
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

    private final LoopSettings settings;
    private final boolean ownsExecutor;
    private final Schema schema;
    private final Optional<GbnfGrammar> grammar;
    private final RetryPolicy retryPolicy;
    private final @Nullable RuleValidator rules;
    private final boolean repairAllowed;
    private final boolean strictValidation;
    private final @Nullable TransitionListener transitionListener;
    private final SchemaValidator validator;
    private final InferenceCall inference;
    private volatile @Nullable Constraints constraints; // racing first calls may each build them: same result

    private SpecializedLoop(Builder builder, LoopSettings settings, boolean ownsExecutor) {
        this.settings = settings;
        this.ownsExecutor = ownsExecutor;
        this.schema = builder.schema;
        this.grammar = Optional.ofNullable(builder.grammar);
        this.retryPolicy = builder.retryPolicy;
        this.rules = builder.rules;
        this.repairAllowed = builder.repairAllowed;
        this.strictValidation = builder.strictValidation;
        this.transitionListener = builder.transitionListener;
        this.validator = builder.validator != null ? builder.validator : new SchemaValidator();
        this.inference = InferenceCall.of(settings.engine(), settings.interceptor(), settings.eventLog());
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
        return run(ctx, prompt, InferenceSettings.DEFAULTS, TurnOptions.DEFAULTS).orElseThrow().result();
    }

    /**
     * Produces the structured output as a Java type: the loop's schema must be the type's ({@code .schema(type
     * .schema())} on the builder), and the validated output is converted to the type from the tree validation parsed.
     *
     * <pre>{@code
     * OutputType<Invoice> invoice = OutputType.of(Invoice.class);
     * try (SpecializedLoop extract = SpecializedLoop.builder().engine(engine).schema(invoice.schema()).build()) {
     *     Invoice result = extract.call(ctx, "Extract the invoice: ...", invoice);
     * }
     * }</pre>
     *
     * @throws PaganticException as {@link #call(CallContext, String)}; {@code CONFIG_INVALID} when the type's schema
     *                           is not the loop's; {@code CONSTRAINT_SCHEMA_INVALID} when the output does not convert
     *                           to the type; {@code CONSTRAINT_JSON_INVALID} (not retryable) when it was cut off at
     *                           the token limit
     */
    public <T> T call(CallContext ctx, String prompt, OutputType<T> type) {
        requireNonNull(type, "type");
        require(type.schema().equals(schema), "the output type's schema is not this loop's: build the loop with "
                + "schema(type.schema()) (type " + type.javaType().toCanonical() + ")");
        SpecializedResult result = run(ctx, prompt, InferenceSettings.DEFAULTS, TurnOptions.DEFAULTS).orElseThrow();
        return StructuredOutput.convert(type, result.validation(), result.result());
    }

    /** Produces the structured output in a {@linkplain CallContext#background() background context}. */
    public Result call(String prompt) {
        return call(CallContext.background(), prompt);
    }

    /**
     * Produces the structured output with the call's settings laid over the loop's and per-call hooks, and reports
     * the whole call, failed or not: the result or failure, the usage and every tool execution. The options' tool
     * whitelist applies to the tool phase, and a lifecycle in them (INIT or PLAN, on the
     * {@link PatternPath#SPECIALIZED_LOOP} path) is driven to COMPLETE, ERROR or CANCELLED.
     *
     * @throws PaganticException only {@code CONFIG_INVALID} for options that cannot apply (a lifecycle past PLAN, a
     *                           whitelist naming an unregistered tool); every other failure is in the outcome
     */
    public Outcome<SpecializedResult> run(CallContext ctx, String prompt, InferenceSettings callSettings,
                                          TurnOptions options) {
        requireNonNull(ctx, "ctx");
        requireNonNull(prompt, "prompt");
        requireNonNull(callSettings, "settings");
        requireNonNull(options, "options");
        Phases phases = new Phases(Phases.requireStartable(options.lifecycle()).orElseGet(
                () -> transitionListener == null ? null
                        : ExecutionLifecycle.start(ctx, PatternPath.SPECIALIZED_LOOP, transitionListener)));
        options.allowedTools().ifPresent(names -> settings.tools().ifPresent(tools -> tools.allowOnly(names)));
        Call call = new Call(ctx, prompt, settings.inference().overrideWith(callSettings), options.withoutLifecycle(),
                phases);
        try {
            phases.prepare("single-shot call: retrieving context once");
            ctx.throwIfDone();
            call.context = EphemeralContext.fetch(settings.contextProvider().orElse(null), settings.eventLog(), ctx,
                    prompt);
            RetryOutcome<SpecializedResult> outcome = retryPolicy.run(ctx, call::attempt);
            if (outcome.succeeded()) {
                SpecializedResult result = outcome.orElseThrow();
                phases.complete("structured output valid after " + result.attempts() + " attempt(s)");
                return Outcome.succeeded(result, call.usage, call.toolExecutions);
            }
            PaganticException failure = outcome.failure().orElseThrow();
            phases.fail(failure);
            return Outcome.failed(failure, call.usage, call.toolExecutions);
        } catch (PaganticException failure) {
            phases.fail(failure);
            return Outcome.failed(failure, call.usage, call.toolExecutions);
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
            settings.toolExecutor().ifPresent(ToolExecutor::close);
        }
    }

    @Override
    public String toString() {
        return "SpecializedLoop[model=" + inference.name() + ", tools="
                + settings.tools().map(ToolRegistry::size).orElse(0) + ", retry=" + retryPolicy + "]";
    }

    /** The grammar a structured phase sends and the pipeline that checks its answer against it. */
    private record Constraints(Optional<GbnfGrammar> grammar, ConstraintPipeline pipeline) {
    }

    /**
     * The loop's constraints, worked out by the first call that needs them and kept: deriving a grammar and building
     * a pipeline (its schema locations, its compiled validator) cost more than checking one answer. Not kept when
     * that fails (a grammar over the cost budget), so every call reports the failure.
     */
    private Constraints constraints() {
        Constraints known = constraints;
        if (known == null) {
            Optional<GbnfGrammar> sent = StructuredOutput.grammarFor(inference.model(), schema, grammar);
            known = new Constraints(sent,
                    StructuredOutput.pipeline(schema, sent, repairAllowed, strictValidation, validator));
            constraints = known;
        }
        return known;
    }

    /** Whether decoding with these settings samples, so that a retry can produce another answer. */
    private static boolean samples(InferenceSettings sent) {
        return sent.temperature().orElse(1.0) > 0 && sent.seed().isEmpty();
    }

    /** The state of one call: what every attempt adds to. Confined to the calling thread. */
    private final class Call {
        private final CallContext ctx;
        private final String prompt;
        private final InferenceSettings callSettings;
        private final TurnOptions options;
        private final Phases phases;
        private final List<ToolExecution> toolExecutions = new ArrayList<>();
        private List<Message> context = List.of();
        // the history after a completed tool phase, reused by retries so that no tool runs again
        private @Nullable List<Message> gathered;
        private TokenUsage usage = TokenUsage.ZERO;
        private @Nullable PaganticException lastFailure;

        Call(CallContext ctx, String prompt, InferenceSettings callSettings, TurnOptions options, Phases phases) {
            this.ctx = ctx;
            this.prompt = prompt;
            this.callSettings = callSettings;
            this.options = options;
            this.phases = phases;
        }

        SpecializedResult attempt(int number) {
            if (number == 1) {
                phases.execute("attempt 1");
            } else {
                phases.retry(lastFailure, "attempt " + number + " after " + lastFailure.code());
            }
            try {
                return structured(number);
            } catch (PaganticException failure) {
                lastFailure = failure;
                throw failure;
            }
        }

        private SpecializedResult structured(int number) {
            List<Message> history = new ArrayList<>(base());
            history.add(Message.user(settings.tools().isPresent() ? PHASE_TWO_PROMPT : prompt));
            InferenceSettings sent = StructuredOutput.settings(AgentLoop.STRUCTURED_TEMPERATURE, callSettings);
            Constraints constraints = constraints();
            StructuredOutput.Constrained answer = StructuredOutput.infer(inference, ctx, history, schema,
                    constraints.grammar(), sent, options.stream().orElse(settings.stream()));
            usage = usage.plus(answer.result().usage());
            ctx.throwIfDone();
            if (answer.result().finishReason() == FinishReason.LENGTH) {
                return cutOff(answer.result(), number, sent);
            }
            phases.validate("constraint pipeline and rules on attempt " + number);
            ValidationReport report = constraints.pipeline().process(answer.result().content());
            Optional<RuleReport> checked = Optional.empty();
            if (rules != null) {
                checked = Optional.of(rules.validate(report.json()));
                if (strictValidation) {
                    checked.get().throwIfFailed();
                }
            }
            Message stored = Message.assistant(report.json());
            Result result = answer.result().toBuilder().content(report.json()).toolCalls(List.of())
                    .messages(List.of(stored)).usage(usage).build();
            return new SpecializedResult(result, report, checked, toolExecutions, number);
        }

        private SpecializedResult cutOff(Result answer, int number, InferenceSettings sent) {
            PaganticException cut = PaganticException.builder(ErrorCode.CONSTRAINT_JSON_INVALID, "attempt " + number
                    + " was cut off at the token limit after " + answer.usage().outputTokens() + " tokens")
                    .retryable(true).detail("finish_reason", FinishReason.LENGTH.wireName()).build();
            if (number < retryPolicy.maxAttempts() && retryPolicy.isRetryable(cut) && samples(sent)) {
                throw cut;
            }
            phases.validate("attempt " + number + " was cut off at the token limit: returned unvalidated");
            Result result = answer.toBuilder().toolCalls(List.of())
                    .messages(List.of(Message.assistant(answer.content()))).usage(usage).build();
            return new SpecializedResult(result, ValidationReport.cutOff(answer.content()), Optional.empty(),
                    toolExecutions, number);
        }

        /** The history the structured phase continues: the system prompt and context, then the tool phase. */
        private List<Message> base() {
            if (gathered != null) {
                return gathered;
            }
            List<Message> system = settings.systemMessage().map(List::of).orElse(List.of());
            List<Message> base = context.isEmpty() ? system
                    : settings.contextPlacement().orElse(ContextPlacement.BEFORE_USER_MESSAGE).place(system, context);
            if (settings.tools().isEmpty()) {
                return base;
            }
            ConversationBuffer memory = new ConversationBuffer();
            memory.appendAll(base);
            try (AgentLoop loop = AgentLoop.builder().loopSettings(settings.withSystemMessage(Optional.empty())
                    .withoutContext()).memory(memory).build()) {
                AgentTurn turn = loop.chatTurn(ctx, List.of(Message.user(prompt)), callSettings, options);
                usage = usage.plus(turn.result().usage());
                toolExecutions.addAll(turn.toolExecutions());
            }
            gathered = memory.messages();
            return gathered;
        }
    }

    // ------------------------------------------------------------------------------------------------------ builder

    /**
     * Builds a {@link SpecializedLoop}: the specification's {@code SpecializedConfig} (the setters every loop shares,
     * {@link LoopBuilder}), plus the schema, a grammar, the retry policy, rules and strictness. Validated at
     * {@link #build()}: no engine is {@code CONFIG_NO_ENGINE}, no schema {@code CONFIG_SCHEMA_REQUIRED}, other invalid
     * settings {@code CONFIG_INVALID}.
     */
    public static final class Builder extends LoopBuilder<Builder> {
        private @Nullable Schema schema;
        private @Nullable GbnfGrammar grammar;
        private RetryPolicy retryPolicy = defaultRetryPolicy();
        private @Nullable RuleValidator rules;
        private boolean repairAllowed = true;
        private boolean strictValidation = true;
        private @Nullable TransitionListener transitionListener;
        private @Nullable SchemaValidator validator;

        private Builder() {
        }

        /** The JSON schema outputs must conform to (required). */
        public Builder schema(Schema value) {
            this.schema = value;
            return this;
        }

        /**
         * A GBNF grammar for the structured phase; when none is given and the engine supports grammars, one is derived
         * from the schema.
         */
        public Builder grammar(@Nullable GbnfGrammar value) {
            this.grammar = value;
            return this;
        }

        /** How failed attempts are retried; {@link #defaultRetryPolicy()} by default. */
        public Builder retryPolicy(RetryPolicy value) {
            this.retryPolicy = value;
            return this;
        }

        /** Rules the validated JSON must pass ({@code VALIDATION_RULE_FAILED} otherwise); none by default. */
        public Builder rules(@Nullable RuleValidator value) {
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
        public Builder transitionListener(@Nullable TransitionListener value) {
            this.transitionListener = value;
            return this;
        }

        /**
         * The schema validator, to share its cache of compiled schemas between loops (an orchestrator builds a loop
         * per request); a new one per loop by default.
         */
        public Builder validator(@Nullable SchemaValidator value) {
            this.validator = value;
            return this;
        }

        /** The loop; see {@link Builder} for validation. */
        public SpecializedLoop build() {
            LoopSettings settings = loopSettings("SpecializedLoop");
            if (schema == null) {
                throw PaganticException.of(ErrorCode.CONFIG_SCHEMA_REQUIRED,
                        "a SpecializedLoop needs the schema of its structured output");
            }
            require(retryPolicy != null, "invalid SpecializedLoop configuration: retryPolicy must not be null (use "
                    + "RetryPolicy.noRetry())");
            return new SpecializedLoop(this, settings, createdExecutor());
        }
    }
}
