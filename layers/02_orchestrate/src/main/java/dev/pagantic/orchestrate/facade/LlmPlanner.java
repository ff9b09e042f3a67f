package dev.pagantic.orchestrate.facade;

import dev.pagantic.constraint.ConstraintPipeline;
import dev.pagantic.constraint.SchemaValidator;
import dev.pagantic.constraint.ValidationReport;
import dev.pagantic.core.CallContext;
import dev.pagantic.core.ErrorCode;
import dev.pagantic.core.Message;
import dev.pagantic.core.PaganticException;
import dev.pagantic.core.Schema;
import dev.pagantic.inference.Capability;
import dev.pagantic.inference.Engine;
import dev.pagantic.inference.ModelInfo;
import dev.pagantic.inference.Request;
import dev.pagantic.inference.Result;
import dev.pagantic.inference.grammar.GbnfGrammar;
import dev.pagantic.orchestrate.ExecutionPlan;
import dev.pagantic.orchestrate.PlanPolicy;
import dev.pagantic.orchestrate.PlanTrace;
import dev.pagantic.orchestrate.StepInput;
import dev.pagantic.orchestrate.StepType;
import dev.pagantic.orchestrate.spi.Interceptor;
import dev.pagantic.orchestrate.spi.Invocation;
import dev.pagantic.orchestrate.spi.InvocationKind;
import java.util.Arrays;
import java.util.Collection;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;
import java.util.Set;
import tools.jackson.databind.JsonNode;

/**
 * A {@link Planner} that asks a model for the plan, as schema-constrained JSON, and accepts only a plan that the
 * {@link PlanPolicy} and the registered step handlers allow.
 *
 * <pre>{@code
 * Planner planner = LlmPlanner.builder()
 *         .engine(engine)
 *         .policy(PlanPolicy.builder().maxSteps(4).build())
 *         .registeredStepTypes(StepType.RETRIEVE, StepType.RERANK, StepType.INFER)
 *         .build();
 * ExecutionPlan plan = planner.createPlan(ctx, request);
 * }</pre>
 *
 * <h2>What the model is asked for</h2>
 * The answer must follow {@link #planSchema()}:
 * <pre>{@code
 * {"rationale": "...", "steps": [{"name": "...", "type": "<permitted type>", "input": "... (optional)"}]}
 * }</pre>
 * where the {@code type} enum is the <em>permitted</em> step types, those registered that the policy allows
 * ({@link PlanPolicy#permittedStepTypes(Collection)}, sorted by name), and {@code steps} holds 1 to
 * {@code policy.maxSteps()} items. The rationale comes first so that the model explains before it lists. The request
 * carries the schema when the engine declares {@link Capability#SCHEMA} and the GBNF grammar derived from it
 * ({@link GbnfGrammar#fromSchema(Schema)}) when it declares {@link Capability#GRAMMAR}, so a constrained decoder
 * cannot produce an unknown type or too many steps at all; it is sampled at temperature {@value #TEMPERATURE} (low:
 * planning wants the likeliest decomposition, not variety; a little above greedy to avoid degenerate repetition),
 * with thinking disabled ({@code enable_thinking = false}, as structured turns do) and at most
 * {@code maxTokens} tokens.
 *
 * <p>The conversation is given to the model as one user message, a transcript of the request's messages
 * ({@code "<role>: <content>"} per message), after a system message: the configured system prompt (or
 * {@link #DEFAULT_SYSTEM_PROMPT}) followed by the permitted step types and the step limit. A transcript rather than the
 * raw messages keeps the request's own system instructions and tool messages from being taken as the planner's.
 *
 * <h2>From answer to plan</h2>
 * <ol>
 *   <li>The answer goes through the constraint pipeline (strict, repair allowed, with the grammar when one was sent):
 *       repairable JSON (a trailing comma, a missing bracket) is repaired, enum values are normalised (an
 *       {@code "Infer"} becomes {@code "infer"}); JSON that cannot be repaired fails with
 *       {@code CONSTRAINT_JSON_INVALID}, a step type outside the permitted set with
 *       {@code CONSTRAINT_ENUM_UNRECOGNIZED}, too many or no steps or a missing field with
 *       {@code CONSTRAINT_SCHEMA_INVALID}. These are retryable: another sample may be fine.</li>
 *   <li>Step names are stripped of surrounding whitespace; a blank or duplicate name fails with
 *       {@code CONSTRAINT_SCHEMA_INVALID} (details {@code path} and {@code step}), as the schema cannot express
 *       uniqueness.</li>
 *   <li>A step's {@code input}, when given and not blank, becomes its {@link StepInput#text(String)} input; other steps
 *       are auto-chained by the executor. <b>The first step</b>, when the model gave it no input, receives the content
 *       of the request's last user message, so that a plan always starts from what the user asked (a request without
 *       a user message leaves it without input).</li>
 *   <li>The plan is checked with {@link PlanPolicy#check(ExecutionPlan, Collection)} against the registered types: a
 *       violation fails with the policy's code ({@code CONFIG_INVALID}, the rule in the details). The schema already
 *       enforces the same limits, so this is a second line that holds even when an engine ignores the schema.</li>
 *   <li>A {@link PlanTrace} is attached: the planner id, the model's rationale (stripped), {@link CallContext#now()}
 *       and the step count.</li>
 * </ol>
 *
 * <p><b>Linear plans only.</b> The schema has no parallel groups, so every plan this planner creates is linear and
 * satisfies {@code requireLinear}. Grouping independent steps would need a nested array of arrays, which small models
 * fill in unreliably and which would let a plan's shape, not only its types, come from the model; write such plans by
 * hand or with a {@link StaticPlanner}.
 *
 * <p>The engine call passes through the configured {@link Interceptor} as an {@link InvocationKind#INFERENCE}
 * invocation; engine failures ({@code INFERENCE_*}, {@code CANCELLED_*}) propagate unchanged. A cancelled or expired
 * context fails before the call. Immutable and thread-safe when the engine is.
 */
public final class LlmPlanner implements Planner {

    /** The planner id recorded in traces unless another is configured. */
    public static final String DEFAULT_PLANNER_ID = "llm";
    /** The sampling temperature of the planning call. */
    public static final double TEMPERATURE = 0.2;
    /** The default bound on the planning call's output tokens (the specification's MaxTokens default). */
    public static final int DEFAULT_MAX_TOKENS = 2048;
    /** The request option that disables a reasoning model's thinking section. */
    public static final String ENABLE_THINKING_OPTION = "enable_thinking";
    /** The instructions given to the model unless another system prompt is configured. */
    public static final String DEFAULT_SYSTEM_PROMPT = "You are a planner. Break the request below into the fewest"
            + " steps that accomplish it. The steps run in order; each step receives the previous step's output unless"
            + " you give it an input of its own. Answer with a JSON object only: \"rationale\" says briefly why these"
            + " steps were chosen; \"steps\" lists them, each with a short unique \"name\", a \"type\" from the list"
            + " below and, where the step needs specific text (a search query, an instruction), an \"input\".";

    private final Engine engine;
    private final PlanPolicy policy;
    private final List<StepType> registered;
    private final List<StepType> permitted;
    private final String plannerId;
    private final int maxTokens;
    private final String systemPrompt;
    private final Interceptor interceptor;
    private final Schema schema;
    private final GbnfGrammar grammar;
    private final ConstraintPipeline plainPipeline;
    private final ConstraintPipeline grammarPipeline;

    private LlmPlanner(Builder builder, List<StepType> registered, List<StepType> permitted) {
        this.engine = builder.engine;
        this.policy = builder.policy;
        this.registered = registered;
        this.permitted = permitted;
        this.plannerId = builder.plannerId;
        this.maxTokens = builder.maxTokens;
        this.systemPrompt = builder.systemPrompt;
        this.interceptor = builder.interceptor;
        this.schema = schemaFor(permitted, policy.maxSteps());
        this.grammar = GbnfGrammar.fromSchema(schema);
        SchemaValidator validator = new SchemaValidator();
        this.plainPipeline = ConstraintPipeline.builder().schema(schema).repairAllowed(true).strict(true)
                .validator(validator).build();
        this.grammarPipeline = ConstraintPipeline.builder().schema(schema).repairAllowed(true).strict(true)
                .validator(validator).grammar(grammar).build();
    }

    /** Starts a planner; an engine and the registered step types are required. */
    public static Builder builder() {
        return new Builder();
    }

    /** The id recorded in the traces of this planner's plans. */
    public String plannerId() {
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

    /** The schema the model's answer must follow (see the class description). */
    public Schema planSchema() {
        return schema;
    }

    /** The GBNF grammar derived from {@link #planSchema()}, sent to engines that declare {@link Capability#GRAMMAR}. */
    public String planGrammar() {
        return grammar.text();
    }

    /**
     * Asks the model for a plan, validates it and attaches its trace.
     *
     * @throws PaganticException {@code CONFIG_INVALID} for a null argument or a plan the policy rejects;
     *                           {@code CONSTRAINT_*} for an answer that is not a well-formed plan; the engine's
     *                           {@code INFERENCE_*} or {@code CANCELLED_*} failures unchanged
     */
    @Override
    public ExecutionPlan createPlan(CallContext ctx, SystemRequest request) {
        Checks.notNull(ctx, "ctx");
        Checks.notNull(request, "request");
        ModelInfo model = engine.modelInfo();
        boolean useGrammar = model.supports(Capability.GRAMMAR);
        Request.Builder inference = Request.builder()
                .addMessage(Message.system(instructions()))
                .addMessage(Message.user(transcript(request)))
                .maxTokens(maxTokens)
                .temperature(TEMPERATURE)
                .option(ENABLE_THINKING_OPTION, false);
        if (model.supports(Capability.SCHEMA)) {
            inference.schema(schema);
        }
        if (useGrammar) {
            inference.grammar(grammar.text());
        }
        Request built = inference.build();
        ctx.throwIfDone();
        Result result = interceptor.intercept(Invocation.of(InvocationKind.INFERENCE, model.name(), ctx, built,
                () -> engine.infer(ctx, built)));
        if (result == null) {
            throw PaganticException.of(ErrorCode.INFERENCE_MALFORMED_RESPONSE,
                    "the planning inference returned no result (an interceptor returned null)");
        }
        ValidationReport report = (useGrammar ? grammarPipeline : plainPipeline).process(result.content());
        JsonNode answer = report.value();
        ExecutionPlan plan = ExecutionPlan.of(PlanJson.steps(answer.path("steps"), PlanJson.lastUserMessage(request)));
        policy.check(plan, registered);
        String rationale = PlanJson.text(answer.path("rationale")).strip();
        return plan.withTrace(PlanTrace.forPlan(plannerId, rationale, ctx.now(), plan));
    }

    @Override
    public String toString() {
        return "LlmPlanner[" + plannerId + ", types=" + names(permitted) + ", maxSteps=" + policy.maxSteps() + "]";
    }

    private String instructions() {
        return systemPrompt + "\n\nStep types: " + String.join(", ", names(permitted)) + ".\nAt most "
                + policy.maxSteps() + (policy.maxSteps() == 1 ? " step." : " steps.");
    }

    private static String transcript(SystemRequest request) {
        Checks.require(!request.messages().isEmpty(), "the planner needs a request with at least one message");
        StringBuilder text = new StringBuilder("Plan the steps for this request.\n");
        for (Message message : request.messages()) {
            text.append('\n').append(message.role().name().toLowerCase(Locale.ROOT)).append(": ")
                    .append(message.content());
        }
        return text.toString();
    }

    private static List<String> names(Collection<StepType> types) {
        return types.stream().map(StepType::name).toList();
    }

    private static Schema schemaFor(List<StepType> permitted, int maxSteps) {
        Schema step = Schema.object()
                .required("name", Schema.string().withDescription("a short name, unique in the plan"))
                .required("type", Schema.enumOf(names(permitted).toArray(String[]::new))
                        .withDescription("the kind of work the step does"))
                .optional("input", Schema.string().withDescription(
                        "the step's own input text; omit it to use the previous step's output"))
                .build();
        return Schema.object()
                .description("an execution plan")
                .required("rationale", Schema.string().withDescription("why these steps were chosen"))
                .required("steps", Schema.arrayOf(step).withItemCount(1, maxSteps)
                        .withDescription("the steps, in execution order"))
                .build();
    }

    /**
     * Builds an {@link LlmPlanner}. A missing engine is {@code CONFIG_NO_ENGINE}; every other invalid setting is
     * {@code CONFIG_INVALID} at {@link #build()}.
     */
    public static final class Builder {
        private Engine engine;
        private PlanPolicy policy = PlanPolicy.defaults();
        private final Set<StepType> registered = new LinkedHashSet<>();
        private boolean registeredNull;
        private String plannerId = DEFAULT_PLANNER_ID;
        private int maxTokens = DEFAULT_MAX_TOKENS;
        private String systemPrompt = DEFAULT_SYSTEM_PROMPT;
        private Interceptor interceptor = Interceptor.NONE;

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
        public Builder registeredStepTypes(Collection<StepType> types) {
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
            return registeredStepTypes(types == null ? null : Arrays.asList(types));
        }

        /** The id recorded in traces; non-blank; {@value LlmPlanner#DEFAULT_PLANNER_ID} by default. */
        public Builder plannerId(String value) {
            this.plannerId = value;
            return this;
        }

        /**
         * The most tokens the planning call may generate; 0 means the engine's default;
         * {@value LlmPlanner#DEFAULT_MAX_TOKENS} by default.
         */
        public Builder maxTokens(int value) {
            this.maxTokens = value;
            return this;
        }

        /**
         * The planner's instructions, replacing {@link LlmPlanner#DEFAULT_SYSTEM_PROMPT}; the permitted step types and
         * the step limit are always appended.
         */
        public Builder systemPrompt(String value) {
            this.systemPrompt = value;
            return this;
        }

        /** The interceptor the planning call passes through; {@link Interceptor#NONE} by default. */
        public Builder interceptor(Interceptor value) {
            this.interceptor = value;
            return this;
        }

        /**
         * The planner.
         *
         * @throws PaganticException {@code CONFIG_NO_ENGINE} without an engine; {@code CONFIG_INVALID} for a null
         *                           policy or interceptor, no (or null) registered step types, none of them allowed by
         *                           the policy, a blank planner id or system prompt, or negative {@code maxTokens}
         */
        public LlmPlanner build() {
            if (engine == null) {
                throw PaganticException.of(ErrorCode.CONFIG_NO_ENGINE, "the LLM planner needs an engine");
            }
            Checks.notNull(policy, "policy");
            Checks.notNull(interceptor, "interceptor");
            Checks.text(plannerId, "plannerId");
            Checks.text(systemPrompt, "systemPrompt");
            Checks.require(maxTokens >= 0, "maxTokens must not be negative: ", maxTokens);
            Checks.require(!registeredNull, "registered step types must not be null or hold null");
            Checks.require(!registered.isEmpty(),
                    "the LLM planner needs the registered step types (the executor's handlers)");
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
