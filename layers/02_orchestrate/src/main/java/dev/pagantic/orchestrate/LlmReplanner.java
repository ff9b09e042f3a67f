package dev.pagantic.orchestrate;

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
import dev.pagantic.orchestrate.spi.Interceptor;
import dev.pagantic.orchestrate.spi.Invocation;
import dev.pagantic.orchestrate.spi.InvocationKind;
import java.util.ArrayList;
import java.util.Collection;
import java.util.HashSet;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Objects;
import java.util.Set;
import tools.jackson.databind.JsonNode;

/**
 * A {@link Replanner} that asks a model for the revised remaining steps, as schema-constrained JSON, in the spirit of
 * the facade's {@code LlmPlanner}.
 *
 * <pre>{@code
 * PlanExecutor executor = PlanExecutor.builder()
 *         .handlers(handlers)
 *         .replanner(LlmReplanner.builder().engine(engine).policy(policy)
 *                 .registeredStepTypes(handlers.keySet()).build())
 *         .build();
 * }</pre>
 *
 * <p>The model gets a system message (the configured prompt or {@link #DEFAULT_SYSTEM_PROMPT}, then the permitted step
 * types, those registered that the policy allows, and the number of steps still allowed) and one user message
 * describing the completed steps with a summary of their outputs, the failed step with its error, and the steps that
 * had not run. Its answer must follow
 * <pre>{@code
 * {"rationale": "...", "steps": [{"name": "...", "type": "<permitted type>", "input": "... (optional)"}]}
 * }</pre>
 * with 0 to {@code policy.maxSteps() - completed} steps: no steps means giving up. The request carries the schema when
 * the engine declares {@link Capability#SCHEMA} and its GBNF grammar when it declares {@link Capability#GRAMMAR}; it
 * is sampled at temperature {@value #TEMPERATURE} with thinking disabled, through the configured {@link Interceptor}
 * as an {@link InvocationKind#INFERENCE} invocation. The answer goes through the strict constraint pipeline (repair
 * allowed); names are stripped and must be non-blank and unique, also against the completed steps
 * ({@code CONSTRAINT_SCHEMA_INVALID}); a non-blank {@code input} becomes the step's text input, other steps are
 * auto-chained. The {@link PlanExecutor} checks the revision against its policy before running it, and a replanner
 * that throws (an engine failure, an unusable answer) lets the step's failure stand.
 *
 * <p>The call runs in a {@linkplain CallContext#background() background context}: the {@link Replanner} interface
 * carries no context, and the executor checks the caller's before every step it runs. Immutable and thread-safe when
 * the engine is.
 */
public final class LlmReplanner implements Replanner {

    /** The id recorded in revision traces unless another is configured. */
    public static final String DEFAULT_ID = "llm-replanner";
    /** The sampling temperature of the replanning call. */
    public static final double TEMPERATURE = 0.2;
    /** The default bound on the replanning call's output tokens. */
    public static final int DEFAULT_MAX_TOKENS = 2048;
    /** The instructions given to the model unless another system prompt is configured. */
    public static final String DEFAULT_SYSTEM_PROMPT = "You are a planner. A step of a plan failed. Write the steps"
            + " that should run now instead of the remaining ones, so that the plan can still reach its goal: retry"
            + " the failed step differently, replace it, or skip what is no longer needed. The steps run in order; each"
            + " receives the previous step's output unless you give it an input of its own. Answer with a JSON object"
            + " only: \"rationale\" says briefly why; \"steps\" lists the new steps, each with a short \"name\" unique"
            + " in the plan, a \"type\" from the list below and, where needed, an \"input\". Give no steps if the plan"
            + " cannot succeed.";

    private static final int SUMMARY_LIMIT = 200;

    private final Engine engine;
    private final PlanPolicy policy;
    private final List<StepType> permitted;
    private final String id;
    private final int maxTokens;
    private final String systemPrompt;
    private final Interceptor interceptor;

    private LlmReplanner(Builder builder, List<StepType> permitted) {
        this.engine = builder.engine;
        this.policy = builder.policy;
        this.permitted = permitted;
        this.id = builder.id;
        this.maxTokens = builder.maxTokens;
        this.systemPrompt = builder.systemPrompt;
        this.interceptor = builder.interceptor;
    }

    /** Starts a replanner; an engine and the registered step types are required. */
    public static Builder builder() {
        return new Builder();
    }

    @Override
    public String id() {
        return id;
    }

    /** The step types the model may choose from: the registered ones the policy allows, sorted by name. */
    public List<StepType> permittedStepTypes() {
        return permitted;
    }

    /** The schema of the answer when {@code room} steps are still allowed. */
    public Schema schema(int room) {
        Schema step = Schema.object()
                .required("name", Schema.string().withDescription("a short name, unique in the plan"))
                .required("type", Schema.enumOf(names(permitted).toArray(String[]::new))
                        .withDescription("the kind of work the step does"))
                .optional("input", Schema.string().withDescription(
                        "the step's own input text; omit it to use the previous step's output"))
                .build();
        return Schema.object()
                .description("the revised remaining steps of a plan")
                .required("rationale", Schema.string().withDescription("why these steps"))
                .required("steps", Schema.arrayOf(step).withItemCount(0, room)
                        .withDescription("the new steps, in execution order; none to give up"))
                .build();
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
        Objects.requireNonNull(failed, "failed");
        Objects.requireNonNull(error, "error");
        int room = policy.maxSteps() - completed.size();
        if (room <= 0) {
            return List.of();
        }
        Schema schema = schema(room);
        ModelInfo model = engine.modelInfo();
        boolean useGrammar = model.supports(Capability.GRAMMAR);
        GbnfGrammar grammar = useGrammar ? GbnfGrammar.fromSchema(schema) : null;
        Request.Builder inference = Request.builder()
                .addMessage(Message.system(systemPrompt + "\n\nStep types: " + String.join(", ", names(permitted))
                        + ".\nAt most " + room + (room == 1 ? " step." : " steps.")))
                .addMessage(Message.user(describe(failed, error, completed, remaining)))
                .maxTokens(maxTokens)
                .temperature(TEMPERATURE)
                .option(AgentLoop.ENABLE_THINKING_OPTION, false);
        if (model.supports(Capability.SCHEMA)) {
            inference.schema(schema);
        }
        if (grammar != null) {
            inference.grammar(grammar.text());
        }
        Request built = inference.build();
        CallContext ctx = CallContext.background();
        Result result = interceptor.intercept(Invocation.of(InvocationKind.INFERENCE, model.name(), ctx, built,
                () -> engine.infer(ctx, built)));
        if (result == null) {
            throw PaganticException.of(ErrorCode.INFERENCE_MALFORMED_RESPONSE,
                    "the replanning inference returned no result (an interceptor returned null)");
        }
        ConstraintPipeline.Builder pipeline = ConstraintPipeline.builder().schema(schema).repairAllowed(true)
                .strict(true).validator(new SchemaValidator());
        if (grammar != null) {
            pipeline.grammar(grammar);
        }
        ValidationReport report = pipeline.build().process(result.content());
        return steps(report.value().path("steps"), completed);
    }

    private static List<Step> steps(JsonNode items, List<Step> completed) {
        Set<String> names = new HashSet<>();
        completed.forEach(step -> names.add(step.name()));
        List<Step> steps = new ArrayList<>();
        for (int i = 0; i < items.size(); i++) {
            JsonNode item = items.get(i);
            String name = text(item.path("name")).strip();
            if (name.isEmpty() || !names.add(name)) {
                throw PaganticException.builder(ErrorCode.CONSTRAINT_SCHEMA_INVALID,
                                (name.isEmpty() ? "step " + i + " of the revision has a blank name"
                                        : "the revision repeats the step name '" + name + "'")
                                        + ": step names must be unique in the plan")
                        .detail("path", "/steps/" + i + "/name").detail("step", name).build();
            }
            StepType type = StepType.of(text(item.path("type")));
            String input = text(item.path("input"));
            steps.add(input.isBlank() ? Step.of(name, type) : Step.of(name, type, StepInput.text(input)));
        }
        return steps;
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

    private static String text(JsonNode node) {
        return node.isString() ? node.stringValue() : "";
    }

    private static List<String> names(Collection<StepType> types) {
        return types.stream().map(StepType::name).toList();
    }

    @Override
    public String toString() {
        return "LlmReplanner[" + id + ", types=" + names(permitted) + ", maxSteps=" + policy.maxSteps() + "]";
    }

    /**
     * Builds an {@link LlmReplanner}. A missing engine is {@code CONFIG_NO_ENGINE}; every other invalid setting is
     * {@code CONFIG_INVALID} at {@link #build()}.
     */
    public static final class Builder {
        private Engine engine;
        private PlanPolicy policy = PlanPolicy.defaults();
        private final Set<StepType> registered = new LinkedHashSet<>();
        private String id = DEFAULT_ID;
        private int maxTokens = DEFAULT_MAX_TOKENS;
        private String systemPrompt = DEFAULT_SYSTEM_PROMPT;
        private Interceptor interceptor = Interceptor.NONE;

        private Builder() {
        }

        /** The engine that writes the revisions (required). */
        public Builder engine(Engine value) {
            this.engine = value;
            return this;
        }

        /** The executor's policy: it bounds the steps and types offered; {@link PlanPolicy#defaults()} by default. */
        public Builder policy(PlanPolicy value) {
            this.policy = PlanChecks.present(value, "policy");
            return this;
        }

        /** The step types a handler is registered for (required): the executor's handler map's key set. */
        public Builder registeredStepTypes(Collection<StepType> types) {
            PlanChecks.present(types, "registeredStepTypes").forEach(type ->
                    registered.add(PlanChecks.present(type, "step type")));
            return this;
        }

        /** The step types a handler is registered for; see {@link #registeredStepTypes(Collection)}. */
        public Builder registeredStepTypes(StepType... types) {
            return registeredStepTypes(List.of(types));
        }

        /** The id recorded in revision traces; non-blank; {@value LlmReplanner#DEFAULT_ID} by default. */
        public Builder id(String value) {
            this.id = value;
            return this;
        }

        /** The most tokens the replanning call may generate; {@value LlmReplanner#DEFAULT_MAX_TOKENS} by default. */
        public Builder maxTokens(int value) {
            this.maxTokens = value;
            return this;
        }

        /** The instructions, replacing {@link LlmReplanner#DEFAULT_SYSTEM_PROMPT}; types and room are appended. */
        public Builder systemPrompt(String value) {
            this.systemPrompt = value;
            return this;
        }

        /** The interceptor the replanning call passes through; {@link Interceptor#NONE} by default. */
        public Builder interceptor(Interceptor value) {
            this.interceptor = PlanChecks.present(value, "interceptor");
            return this;
        }

        /** The replanner; see the class comment of {@link Builder} for validation. */
        public LlmReplanner build() {
            if (engine == null) {
                throw PaganticException.of(ErrorCode.CONFIG_NO_ENGINE, "the LLM replanner needs an engine");
            }
            PlanChecks.require(id != null && !id.isBlank(), "the replanner id must not be blank");
            PlanChecks.require(systemPrompt != null && !systemPrompt.isBlank(), "the system prompt must not be blank");
            PlanChecks.require(maxTokens > 0, "maxTokens must be positive: " + maxTokens);
            PlanChecks.require(!registered.isEmpty(),
                    "the LLM replanner needs the registered step types (the executor's handlers)");
            List<StepType> permitted = policy.permittedStepTypes(registered);
            PlanChecks.require(!permitted.isEmpty(), "no registered step type is allowed by the policy: registered "
                    + names(registered) + ", allowed " + names(policy.allowedStepTypes()));
            return new LlmReplanner(this, permitted);
        }
    }
}
