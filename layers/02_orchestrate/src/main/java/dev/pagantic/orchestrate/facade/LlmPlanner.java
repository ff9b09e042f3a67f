package dev.pagantic.orchestrate.facade;

import static dev.pagantic.core.Preconditions.require;
import static dev.pagantic.core.Preconditions.requireNonNull;
import static dev.pagantic.core.Preconditions.requireText;

import dev.pagantic.constraint.SchemaValidator;
import dev.pagantic.core.CallContext;
import dev.pagantic.core.ErrorCode;
import dev.pagantic.core.Message;
import dev.pagantic.core.PaganticException;
import dev.pagantic.core.Schema;
import dev.pagantic.inference.Capability;
import dev.pagantic.inference.Engine;
import dev.pagantic.inference.InferenceSettings;
import dev.pagantic.inference.StreamHandler;
import dev.pagantic.inference.grammar.GbnfGrammar;
import dev.pagantic.observe.EventLog;
import dev.pagantic.orchestrate.internal.InferenceCall;
import dev.pagantic.orchestrate.internal.StructuredOutput;
import dev.pagantic.orchestrate.plan.ExecutionPlan;
import dev.pagantic.orchestrate.plan.PlanExecutor;
import dev.pagantic.orchestrate.plan.PlanPolicy;
import dev.pagantic.orchestrate.plan.PlanTrace;
import dev.pagantic.orchestrate.plan.Replanner;
import dev.pagantic.orchestrate.plan.Step;
import dev.pagantic.orchestrate.plan.StepData;
import dev.pagantic.orchestrate.plan.StepInput;
import dev.pagantic.orchestrate.plan.StepType;
import dev.pagantic.orchestrate.spi.Interceptor;
import dev.pagantic.orchestrate.spi.InvocationKind;
import java.util.Arrays;
import java.util.Collection;
import java.util.HashSet;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;
import java.util.Optional;
import java.util.Set;
import org.jspecify.annotations.Nullable;
import tools.jackson.databind.JsonNode;

/**
 * The planner that asks a model: it creates the plans of plan mode ({@link Planner}) and revises the rest of a plan
 * after a step failed ({@link Replanner}), with one schema, one way of asking and one way of reading the answer.
 *
 * <pre>{@code
 * LlmPlanner planner = LlmPlanner.builder()
 *         .engine(engine)
 *         .policy(PlanPolicy.builder().maxSteps(4).build())
 *         .registeredStepTypes(StepType.RETRIEVE, StepType.RERANK, StepType.INFER)
 *         .build();
 * ExecutionPlan plan = planner.createPlan(ctx, request);
 * PlanExecutor executor = PlanExecutor.builder().handlers(handlers).replanner(planner).build();
 * }</pre>
 *
 * <h2>What the model is asked for</h2>
 * The answer must follow {@link #schema(int, int)}:
 * <pre>{@code
 * {"rationale": "...", "steps": [{"name": "...", "type": "<permitted type>", "input": "... (optional)"}]}
 * }</pre>
 * where the {@code type} enum is the <em>permitted</em> step types, those registered that the policy allows
 * ({@link PlanPolicy#permittedStepTypes(Collection)}, sorted by name): 1 to {@code maxSteps} steps for a plan, 0 to the
 * steps still allowed for a revision (no steps means giving up). The request carries the schema when the engine
 * declares {@link Capability#SCHEMA} and the GBNF grammar derived from it when it declares {@link Capability#GRAMMAR},
 * so a constrained decoder cannot produce an unknown type or too many steps at all. The call goes through
 * orchestrate's one inference path (the interceptor as an {@link InvocationKind#INFERENCE} invocation, the inference
 * events in the log) at temperature {@value #TEMPERATURE} (planning wants the likeliest decomposition; a little above
 * greedy to avoid degenerate repetition) unless the configured or the request's settings say otherwise, with thinking
 * disabled.
 *
 * <p>A plan is asked for with a system message (the configured prompt, or {@link #DEFAULT_SYSTEM_PROMPT}, then the
 * permitted types and the step limit) and one user message, a transcript of the request's messages
 * ({@code "<role>: <content>"} per message), so that the request's own system instructions are not taken as the
 * planner's. A revision is asked for with {@link #DEFAULT_REPLAN_PROMPT} and a description of the completed steps
 * (with a summary of their outputs), the failed step with its error, and the steps that had not run.
 *
 * <h2>From answer to steps</h2>
 * The answer goes through the strict constraint pipeline with repair ({@code CONSTRAINT_JSON_INVALID},
 * {@code CONSTRAINT_ENUM_UNRECOGNIZED}, {@code CONSTRAINT_SCHEMA_INVALID}: retryable, another sample may be fine).
 * Step names are stripped and must be non-blank and unique in the plan, completed steps included
 * ({@code CONSTRAINT_SCHEMA_INVALID} with {@code path} and {@code step} details). A non-blank {@code input} becomes the
 * step's text input; other steps are auto-chained, except that a plan's first step without input receives the
 * request's last user message. A plan is checked with {@link PlanPolicy#check(ExecutionPlan, Collection)} and gets a
 * {@link PlanTrace} (the planner id, the rationale, {@link CallContext#now()}, the step count); the
 * {@link PlanExecutor} checks a revision itself. Plans are linear: the schema has no parallel groups.
 *
 * <p>A revision runs in a {@linkplain CallContext#background() background context}: the {@link Replanner} interface
 * carries none, and the executor checks the caller's before every step. Immutable and thread-safe when the engine is.
 */
public final class LlmPlanner implements Planner, Replanner {

    /** The planner id recorded in traces unless another is configured. */
    public static final String DEFAULT_PLANNER_ID = "llm";
    /** The default sampling temperature of the planning calls. */
    public static final double TEMPERATURE = 0.2;
    /** The default bound on a planning call's output tokens (the specification's MaxTokens default). */
    public static final int DEFAULT_MAX_TOKENS = 2048;
    /** The instructions for a new plan unless another system prompt is configured. */
    public static final String DEFAULT_SYSTEM_PROMPT = "You are a planner. Break the request below into the fewest"
            + " steps that accomplish it. The steps run in order; each step receives the previous step's output unless"
            + " you give it an input of its own. Answer with a JSON object only: \"rationale\" says briefly why these"
            + " steps were chosen; \"steps\" lists them, each with a short unique \"name\", a \"type\" from the list"
            + " below and, where the step needs specific text (a search query, an instruction), an \"input\".";
    /** The instructions for a revision unless another replan prompt is configured. */
    public static final String DEFAULT_REPLAN_PROMPT = "You are a planner. A step of a plan failed. Write the steps"
            + " that should run now instead of the remaining ones, so that the plan can still reach its goal: retry"
            + " the failed step differently, replace it, or skip what is no longer needed. The steps run in order; each"
            + " receives the previous step's output unless you give it an input of its own. Answer with a JSON object"
            + " only: \"rationale\" says briefly why; \"steps\" lists the new steps, each with a short \"name\" unique"
            + " in the plan, a \"type\" from the list below and, where needed, an \"input\". Give no steps if the plan"
            + " cannot succeed.";

    private static final int SUMMARY_LIMIT = 200;

    private final InferenceCall call;
    private final PlanPolicy policy;
    private final List<StepType> registered;
    private final List<StepType> permitted;
    private final String plannerId;
    private final InferenceSettings settings;
    private final String systemPrompt;
    private final String replanPrompt;
    private final SchemaValidator validator = new SchemaValidator();

    private LlmPlanner(Builder builder, List<StepType> registered, List<StepType> permitted) {
        this.call = InferenceCall.of(builder.engine, builder.interceptor, builder.eventLog);
        this.policy = builder.policy;
        this.registered = registered;
        this.permitted = permitted;
        this.plannerId = builder.plannerId;
        this.settings = builder.settings;
        this.systemPrompt = builder.systemPrompt;
        this.replanPrompt = builder.replanPrompt;
    }

    /** Starts a planner; an engine and the registered step types are required. */
    public static Builder builder() {
        return new Builder();
    }

    /** The id recorded in the traces of this planner's plans and revisions. */
    public String plannerId() {
        return plannerId;
    }

    @Override
    public String id() {
        return plannerId;
    }

    /** The policy plans are checked against. */
    public PlanPolicy policy() {
        return policy;
    }

    /** The step types the model may choose from: the registered ones the policy allows, sorted by name. */
    public List<StepType> permittedStepTypes() {
        return permitted;
    }

    /** The schema of a plan: 1 to the policy's {@code maxSteps} steps. */
    public Schema planSchema() {
        return schema(1, policy.maxSteps());
    }

    /** The schema of an answer of {@code min} to {@code max} steps (see the class description). */
    public Schema schema(int min, int max) {
        Schema step = Schema.object()
                .required("name", Schema.string().withDescription("a short name, unique in the plan"))
                .required("type", Schema.enumOf(names(permitted).toArray(String[]::new))
                        .withDescription("the kind of work the step does"))
                .optional("input", Schema.string().withDescription(
                        "the step's own input text; omit it to use the previous step's output"))
                .build();
        return Schema.object()
                .description(min > 0 ? "an execution plan" : "the revised remaining steps of a plan")
                .required("rationale", Schema.string().withDescription("why these steps were chosen"))
                .required("steps", Schema.arrayOf(step).withItemCount(min, max)
                        .withDescription(min > 0 ? "the steps, in execution order"
                                : "the new steps, in execution order; none to give up"))
                .build();
    }

    /**
     * Asks the model for a plan, validates it and attaches its trace. The request's execution hints are laid over the
     * planner's settings.
     *
     * @throws PaganticException {@code CONFIG_INVALID} for a plan the policy rejects; {@code CONSTRAINT_*} for an
     *                           answer that is not a well-formed plan; the engine's {@code INFERENCE_*} or
     *                           {@code CANCELLED_*} failures unchanged
     */
    @Override
    public ExecutionPlan createPlan(CallContext ctx, SystemRequest request) {
        requireNonNull(ctx, "ctx");
        requireNonNull(request, "request");
        require(!request.messages().isEmpty(), "the planner needs a request with at least one message");
        JsonNode answer = ask(ctx, instructions(systemPrompt, policy.maxSteps()), transcript(request), planSchema(),
                request.hints().settings());
        ExecutionPlan plan = ExecutionPlan.of(PlanJson.steps(answer.path("steps"), Set.of(),
                PlanJson.lastUserMessage(request)));
        policy.check(plan, registered);
        String rationale = PlanJson.text(answer.path("rationale")).strip();
        return plan.withTrace(PlanTrace.forPlan(plannerId, rationale, ctx.now(), plan));
    }

    /**
     * Asks the model for the revised remaining steps.
     *
     * @return the revision; empty when the model gave up or the policy leaves no room for another step
     * @throws PaganticException {@code CONSTRAINT_*} for an answer that is not a well-formed revision; the engine's
     *                           failures unchanged
     */
    @Override
    public List<Step> replan(Step failed, PaganticException error, List<Step> completed, List<Step> remaining) {
        requireNonNull(failed, "failed");
        requireNonNull(error, "error");
        int room = policy.maxSteps() - completed.size();
        if (room <= 0) {
            return List.of();
        }
        JsonNode answer = ask(CallContext.background(), instructions(replanPrompt, room),
                describe(failed, error, completed, remaining), schema(0, room), InferenceSettings.DEFAULTS);
        Set<String> taken = new HashSet<>();
        completed.forEach(step -> taken.add(step.name()));
        return PlanJson.steps(answer.path("steps"), taken, Optional.empty());
    }

    /** One planning call: the constrained inference and the strict pipeline; the validated answer. */
    private JsonNode ask(CallContext ctx, String instructions, String content, Schema schema,
                         InferenceSettings requested) {
        Optional<GbnfGrammar> grammar = StructuredOutput.grammarFor(call.model(), schema, Optional.empty());
        StructuredOutput.Constrained answer = StructuredOutput.infer(call, ctx,
                List.of(Message.system(instructions), Message.user(content)), schema, grammar,
                StructuredOutput.settings(TEMPERATURE, settings.overrideWith(requested)), StreamHandler.NOOP);
        return StructuredOutput.pipeline(schema, grammar, true, true, validator).process(answer.result().content())
                .value();
    }

    private String instructions(String prompt, int maxSteps) {
        return prompt + "\n\nStep types: " + String.join(", ", names(permitted)) + ".\nAt most " + maxSteps
                + (maxSteps == 1 ? " step." : " steps.");
    }

    private static String transcript(SystemRequest request) {
        StringBuilder text = new StringBuilder("Plan the steps for this request.\n");
        for (Message message : request.messages()) {
            text.append('\n').append(message.role().name().toLowerCase(Locale.ROOT)).append(": ")
                    .append(message.content());
        }
        return text.toString();
    }

    private static String describe(Step failed, PaganticException error, List<Step> completed,
                                   List<Step> remaining) {
        StringBuilder text = new StringBuilder("Completed steps:");
        if (completed.isEmpty()) {
            text.append(" none");
        }
        for (Step step : completed) {
            text.append("\n- ").append(step.name()).append(" (").append(step.type().name()).append("): ")
                    .append(step.output().map(PlanExecutor::summary).orElse(""));
        }
        text.append("\n\nFailed step: ").append(failed.name()).append(" (").append(failed.type().name()).append(')');
        failed.input().filter(input -> input.kind() == StepData.Kind.TEXT)
                .ifPresent(input -> text.append("\nIts input: ").append(clip(input.text())));
        text.append("\nIts error: ").append(error.code()).append(": ").append(clip(error.description()));
        text.append("\n\nSteps that have not run:");
        if (remaining.isEmpty()) {
            text.append(" none");
        }
        for (Step step : remaining) {
            text.append("\n- ").append(step.name()).append(" (").append(step.type().name()).append(')');
        }
        return text.toString();
    }

    private static String clip(String text) {
        return text.length() <= SUMMARY_LIMIT ? text : text.substring(0, SUMMARY_LIMIT) + "...";
    }

    private static List<String> names(Collection<StepType> types) {
        return types.stream().map(StepType::name).toList();
    }

    @Override
    public String toString() {
        return "LlmPlanner[" + plannerId + ", types=" + names(permitted) + ", maxSteps=" + policy.maxSteps() + "]";
    }

    /**
     * Builds an {@link LlmPlanner}. A missing engine is {@code CONFIG_NO_ENGINE}; every other invalid setting is
     * {@code CONFIG_INVALID} at {@link #build()}.
     */
    public static final class Builder {
        private @Nullable Engine engine;
        private PlanPolicy policy = PlanPolicy.defaults();
        private final Set<StepType> registered = new LinkedHashSet<>();
        private boolean registeredNull;
        private String plannerId = DEFAULT_PLANNER_ID;
        private InferenceSettings settings = InferenceSettings.builder().maxTokens(DEFAULT_MAX_TOKENS).build();
        private String systemPrompt = DEFAULT_SYSTEM_PROMPT;
        private String replanPrompt = DEFAULT_REPLAN_PROMPT;
        private Interceptor interceptor = Interceptor.NONE;
        private EventLog eventLog = EventLog.noOp();

        private Builder() {
        }

        /** The engine that writes the plans (required). */
        public Builder engine(Engine value) {
            this.engine = value;
            return this;
        }

        /** The policy plans must satisfy; {@link PlanPolicy#defaults()} by default. */
        public Builder policy(PlanPolicy value) {
            this.policy = value;
            return this;
        }

        /**
         * The step types a handler is registered for (required, replacing any set before): the executor's handler map's
         * key set. Only those the policy allows are offered to the model.
         */
        public Builder registeredStepTypes(@Nullable Collection<StepType> types) {
            registered.clear();
            registeredNull = types == null;
            if (types != null) {
                for (StepType type : types) {
                    if (type == null) {
                        registeredNull = true;
                    } else {
                        registered.add(type);
                    }
                }
            }
            return this;
        }

        /** The step types a handler is registered for; see {@link #registeredStepTypes(Collection)}. */
        public Builder registeredStepTypes(StepType... types) {
            return registeredStepTypes(types == null ? null : Arrays.<StepType>asList(types));
        }

        /** The id recorded in traces; non-blank; {@value LlmPlanner#DEFAULT_PLANNER_ID} by default. */
        public Builder plannerId(String value) {
            this.plannerId = value;
            return this;
        }

        /**
         * The settings of the planning calls ({@value LlmPlanner#DEFAULT_MAX_TOKENS} max tokens by default); a
         * request's
         * execution hints are laid over them.
         */
        public Builder settings(InferenceSettings value) {
            this.settings = value;
            return this;
        }

        /** The most tokens a planning call may generate; 0 means the engine's default. */
        public Builder maxTokens(int value) {
            require(value >= 0, "maxTokens must not be negative: ", value);
            this.settings = settings.withMaxTokens(value);
            return this;
        }

        /**
         * The instructions for a new plan, replacing {@link LlmPlanner#DEFAULT_SYSTEM_PROMPT}; the permitted step types
         * and the step limit are always appended.
         */
        public Builder systemPrompt(String value) {
            this.systemPrompt = value;
            return this;
        }

        /** The instructions for a revision, replacing {@link LlmPlanner#DEFAULT_REPLAN_PROMPT}; types and room follow.
        * */
        public Builder replanPrompt(String value) {
            this.replanPrompt = value;
            return this;
        }

        /** The interceptor the planning calls pass through; {@link Interceptor#NONE} by default. */
        public Builder interceptor(Interceptor value) {
            this.interceptor = value;
            return this;
        }

        /** Where the planning calls' inference events go; a no-op log by default. */
        public Builder eventLog(EventLog value) {
            this.eventLog = value;
            return this;
        }

        /**
         * The planner.
         *
         * @throws PaganticException {@code CONFIG_NO_ENGINE} without an engine; {@code CONFIG_INVALID} for a null
         *                           setting, no (or null) registered step types, none of them allowed by the policy, or
         *                           a blank planner id or prompt
         */
        public LlmPlanner build() {
            if (engine == null) {
                throw PaganticException.of(ErrorCode.CONFIG_NO_ENGINE, "the LLM planner needs an engine");
            }
            requireNonNull(policy, "policy");
            requireNonNull(interceptor, "interceptor");
            requireNonNull(eventLog, "eventLog");
            requireNonNull(settings, "settings");
            requireText(plannerId, "plannerId");
            requireText(systemPrompt, "systemPrompt");
            requireText(replanPrompt, "replanPrompt");
            require(!registeredNull, "registered step types must not be null or hold null");
            require(!registered.isEmpty(), "the LLM planner needs the registered step types (the executor's handlers)");
            List<StepType> permitted = policy.permittedStepTypes(registered);
            if (permitted.isEmpty()) {
                throw PaganticException.builder(ErrorCode.CONFIG_INVALID,
                                "no registered step type is allowed by the policy: registered " + names(registered)
                                        + ", allowed " + names(policy.allowedStepTypes()))
                        .detail("registered_step_types", names(registered))
                        .detail("allowed_step_types", names(policy.allowedStepTypes()))
                        .build();
            }
            return new LlmPlanner(this, List.copyOf(registered), permitted);
        }
    }
}
