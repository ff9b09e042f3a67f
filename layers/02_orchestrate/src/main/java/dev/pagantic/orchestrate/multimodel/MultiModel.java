package dev.pagantic.orchestrate.multimodel;

import dev.pagantic.constraint.ConstraintPipeline;
import dev.pagantic.constraint.ValidationReport;
import dev.pagantic.core.CallContext;
import dev.pagantic.core.ErrorCode;
import dev.pagantic.core.Message;
import dev.pagantic.core.PaganticException;
import dev.pagantic.core.Schema;
import dev.pagantic.inference.Capability;
import dev.pagantic.inference.InferenceSettings;
import dev.pagantic.inference.Request;
import dev.pagantic.inference.Result;
import dev.pagantic.inference.grammar.GbnfGrammar;
import dev.pagantic.observe.EventLog;
import dev.pagantic.orchestrate.internal.InferenceCall;
import dev.pagantic.orchestrate.spi.Interceptor;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import java.util.concurrent.Executor;
import java.util.stream.Collectors;
import java.util.stream.IntStream;
import org.jspecify.annotations.Nullable;
import tools.jackson.databind.JsonNode;

/**
 * Runs the multi-model modes (seed 003) on the engines of an {@link EngineCatalogue}.
 *
 * <pre>{@code
 * MultiModel modes = MultiModel.builder().catalogue(catalogue).build();
 * AdversarialResult result = modes.adversarial(ctx, "Migrate the billing database", Directive.NONE);
 * }</pre>
 *
 * <p>Each call is one user message (the phase's prompt), preceded by the configured system prompt if any, through
 * orchestrate's one inference path (the interceptor, named by the engine's catalogue id, and the inference events),
 * with
 * the call's settings laid over the configured ones. A failed
 * call of adversarial mode, of refine's initial answer, of the judge, or of every voter, is thrown as the engine's
 * {@link PaganticException}; a failed voter is reported in the result, and a failed refine round ends the rounds
 * with the best answer so far. Thread-safe when the engines are.
 */
public final class MultiModel {

    /** The default most tokens per call. */
    public static final int DEFAULT_MAX_TOKENS = 1024;
    /** Adversarial mode's default critique/refine rounds. */
    public static final int DEFAULT_ADVERSARIAL_ITERATIONS = 1;
    /** Refine mode's default improvement rounds. */
    public static final int DEFAULT_REFINE_ITERATIONS = 2;
    /** The most characters of the judge's reason (keeps the constrained answer short). */
    public static final int JUDGE_REASON_MAX_LENGTH = 160;

    /**
     * The fewest tokens the judge's call gets, whatever the per-call budget: its answer is bounded by the grammar
     * (an index and a reason of at most {@value #JUDGE_REASON_MAX_LENGTH} characters), and a budget cut short would
     * leave the JSON unfinished.
     */
    public static final int JUDGE_MIN_TOKENS = 256;

    /** The judge's answer: the index of the best response and why. */
    public static final Schema JUDGE_SCHEMA = Schema.object()
            .required("selected", Schema.integer())
            .required("reason", Schema.string().withMaxLength(JUDGE_REASON_MAX_LENGTH))
            .build();

    // The generator's integer rule, which the judge's grammar narrows to the valid indices.
    private static final String INTEGER_RULE = "\"-\"? (\"0\" | [1-9] [0-9]{0,15})";

    private final EngineCatalogue catalogue;
    private final @Nullable Executor executor; // null: voters run sequentially
    private final InferenceSettings settings;
    private final @Nullable String systemPrompt;
    private final Interceptor interceptor;
    private final EventLog eventLog;

    private MultiModel(Builder b) {
        this.catalogue = b.catalogue;
        this.executor = b.executor;
        this.settings = b.settings;
        this.systemPrompt = b.systemPrompt;
        this.interceptor = b.interceptor;
        this.eventLog = b.eventLog;
    }

    /** Starts building; a catalogue is required. */
    public static Builder builder() {
        return new Builder();
    }

    /** The catalogue engines are picked from. */
    public EngineCatalogue catalogue() {
        return catalogue;
    }

    // ------------------------------------------------------------------------------------------------ adversarial

    /**
     * Plan → critique → refine: the primary engine plans, the review engine critiques, the primary refines; the
     * critique/refine pair runs {@code iterations} times (default {@value #DEFAULT_ADVERSARIAL_ITERATIONS}), each
     * round critiquing the previous round's refined plan.
     */
    public AdversarialResult adversarial(CallContext ctx, String task, Directive directive) {
        return adversarial(ctx, task, directive, InferenceSettings.DEFAULTS);
    }

    /** Plan → critique → refine with the call's settings laid over the configured ones. */
    public AdversarialResult adversarial(CallContext ctx, String task, Directive directive,
                                         InferenceSettings settings) {
        check(ctx, task, directive, settings);
        EngineEntry primary = catalogue.primary(directive.primary(), directive.minWeight());
        EngineEntry review = catalogue.review(directive.review(), directive.minWeight());
        int iterations = directive.iterationsOr(DEFAULT_ADVERSARIAL_ITERATIONS);
        List<PhaseCall> calls = new ArrayList<>();
        PhaseCall plan = call(ctx, primary, "plan", planPrompt(task), settings, null, null, 0);
        calls.add(plan);
        String current = plan.content();
        String critique = "";
        for (int round = 0; round < iterations; round++) {
            PhaseCall critiqueCall = call(ctx, review, "critique", critiquePrompt(task, current), settings, null,
                    null, 0);
            calls.add(critiqueCall);
            critique = critiqueCall.content();
            PhaseCall refine = call(ctx, primary, "refine", refinePrompt(task, current, critique), settings, null,
                    null, 0);
            calls.add(refine);
            current = refine.content();
        }
        return new AdversarialResult(plan.content(), critique, current, iterations, primary.id(), review.id(), calls,
                PhaseCall.usage(calls), PhaseCall.cost(calls));
    }

    // ------------------------------------------------------------------------------------------------------- vote

    /**
     * N voters answer the task (concurrently on the executor when one is configured), then the judge (the review
     * engine) picks the best through JSON {@code {"selected": k, "reason": "..."}} validated against
     * {@link #JUDGE_SCHEMA}, {@code k} indexing the successful responses in voter order.
     *
     * @throws PaganticException the first voter's failure when every voter failed; the judge's failure;
     *                           {@code CONSTRAINT_*} when the judge's answer does not validate, and
     *                           {@code CONSTRAINT_SCHEMA_INVALID} when {@code selected} is out of range
     */
    public VoteResult vote(CallContext ctx, String task, Directive directive) {
        return vote(ctx, task, directive, InferenceSettings.DEFAULTS);
    }

    /** Voters and a judge with the call's settings laid over the configured ones. */
    public VoteResult vote(CallContext ctx, String task, Directive directive, InferenceSettings settings) {
        check(ctx, task, directive, settings);
        List<EngineEntry> voters = catalogue.voters(directive.voters(), directive.minWeight(), directive.maxVoters());
        EngineEntry judge = catalogue.review(directive.review(), directive.minWeight());
        List<Object> outcomes = collectVotes(ctx, task, settings, voters); // PhaseCall or PaganticException
        List<PhaseCall> calls = new ArrayList<>();
        List<Integer> answered = new ArrayList<>();
        for (int i = 0; i < outcomes.size(); i++) {
            if (outcomes.get(i) instanceof PhaseCall call) {
                calls.add(call);
                answered.add(i);
            }
        }
        if (answered.isEmpty()) {
            throw (PaganticException) outcomes.get(0);
        }
        List<String> candidates = answered.stream().map(i -> ((PhaseCall) outcomes.get(i)).content()).toList();
        GbnfGrammar grammar = judge.engine().modelInfo().supports(Capability.GRAMMAR)
                ? judgeGrammar(candidates.size()) : null;
        PhaseCall judgeCall = call(ctx, judge, "judge", judgePrompt(task, candidates), settings,
                judge.engine().modelInfo().supports(Capability.SCHEMA) ? JUDGE_SCHEMA : null, grammar,
                JUDGE_MIN_TOKENS);
        calls.add(judgeCall);
        JsonNode verdict = validateVerdict(judgeCall.content(), candidates.size());
        int selected = answered.get(verdict.get("selected").asInt());
        List<VoteResult.Response> responses = new ArrayList<>();
        for (int i = 0; i < voters.size(); i++) {
            Object outcome = outcomes.get(i);
            responses.add(outcome instanceof PhaseCall call
                    ? new VoteResult.Response(voters.get(i).id(), call.content(), i == selected, Optional.empty())
                    : new VoteResult.Response(voters.get(i).id(), "", false,
                            Optional.of((PaganticException) outcome)));
        }
        return new VoteResult(responses, selected, judge.id(), verdict.get("reason").asString(), calls,
                PhaseCall.usage(calls), PhaseCall.cost(calls));
    }

    private List<Object> collectVotes(CallContext ctx, String task, InferenceSettings settings,
            List<EngineEntry> voters) {
        if (executor == null) {
            return voters.stream().map(voter -> vote(ctx, task, settings, voter)).toList();
        }
        List<CompletableFuture<Object>> futures = voters.stream()
                .map(voter -> CompletableFuture.supplyAsync(() -> vote(ctx, task, settings, voter), executor))
                .toList();
        List<Object> outcomes = new ArrayList<>();
        for (CompletableFuture<Object> future : futures) {
            try {
                outcomes.add(future.join());
            } catch (CompletionException rejected) {
                outcomes.add(PaganticException.of(ErrorCode.INFERENCE_ENGINE_ERROR,
                        "a voter could not run: " + rejected.getCause(), rejected.getCause()));
            }
        }
        return outcomes;
    }

    private Object vote(CallContext ctx, String task, InferenceSettings settings, EngineEntry voter) {
        try {
            return call(ctx, voter, "vote", task, settings, null, null, 0);
        } catch (PaganticException failed) {
            return failed;
        } catch (RuntimeException bug) {
            return PaganticException.of(ErrorCode.INFERENCE_ENGINE_ERROR, "voter '" + voter.id() + "' failed: "
                    + bug, bug);
        }
    }

    /**
     * The judge's grammar: {@link #JUDGE_SCHEMA}'s, with {@code selected} narrowed to {@code 0 .. count-1} so that a
     * constrained model cannot even write an index out of range.
     */
    static GbnfGrammar judgeGrammar(int count) {
        String text = GbnfGrammar.fromSchema(JUDGE_SCHEMA).text();
        String indices = IntStream.range(0, count).mapToObj(i -> "\"" + i + "\"")
                .collect(Collectors.joining(" | ", "(", ")"));
        return GbnfGrammar.parse(text.replace(INTEGER_RULE, indices));
    }

    private static JsonNode validateVerdict(String content, int count) {
        ValidationReport report = ConstraintPipeline.builder().schema(JUDGE_SCHEMA).repairAllowed(false)
                .strict(true).build().process(content.strip());
        int selected = report.value().get("selected").asInt();
        if (selected < 0 || selected >= count) {
            throw PaganticException.builder(ErrorCode.CONSTRAINT_SCHEMA_INVALID,
                            "the judge selected response " + selected + ", but there are " + count)
                    .detail("selected", selected).detail("responses", count).build();
        }
        return report.value();
    }

    // ----------------------------------------------------------------------------------------------------- refine

    /**
     * An initial answer, then {@code iterations} improvement rounds (default {@value #DEFAULT_REFINE_ITERATIONS}) on
     * the primary engine. A failed round stops the rounds: the result keeps the best answer so far, the rounds done
     * and the failure.
     *
     * @throws PaganticException when the initial answer fails
     */
    public RefineResult refine(CallContext ctx, String task, Directive directive) {
        return refine(ctx, task, directive, InferenceSettings.DEFAULTS);
    }

    /** An answer and its improvement rounds with the call's settings laid over the configured ones. */
    public RefineResult refine(CallContext ctx, String task, Directive directive, InferenceSettings settings) {
        check(ctx, task, directive, settings);
        EngineEntry engine = catalogue.primary(directive.primary(), directive.minWeight());
        int requested = directive.iterationsOr(DEFAULT_REFINE_ITERATIONS);
        List<PhaseCall> calls = new ArrayList<>();
        PhaseCall initial = call(ctx, engine, "initial", task, settings, null, null, 0);
        calls.add(initial);
        String best = initial.content();
        int done = 0;
        Optional<PaganticException> failure = Optional.empty();
        while (done < requested) {
            try {
                PhaseCall round = call(ctx, engine, "refine", improvePrompt(task, best), settings, null, null, 0);
                calls.add(round);
                best = round.content();
                done++;
            } catch (PaganticException failed) {
                if (failed.category() == dev.pagantic.core.FailureCategory.CANCELLATION) {
                    throw failed; // a cancelled request is over, not merely short of a round
                }
                failure = Optional.of(failed);
                break;
            }
        }
        return new RefineResult(best, done, requested, engine.id(), failure, calls, PhaseCall.usage(calls),
                PhaseCall.cost(calls));
    }

    // --------------------------------------------------------------------------------------------------- planning

    /** The planning profile: one call on the primary engine (by id or weight floor). */
    public PlanningResult planning(CallContext ctx, String task, Directive directive) {
        return planning(ctx, task, directive, InferenceSettings.DEFAULTS);
    }

    /** The planning profile with the call's settings laid over the configured ones. */
    public PlanningResult planning(CallContext ctx, String task, Directive directive, InferenceSettings settings) {
        check(ctx, task, directive, settings);
        EngineEntry engine = catalogue.primary(directive.primary(), directive.minWeight());
        PhaseCall call = call(ctx, engine, "planning", task, settings, null, null, 0);
        return new PlanningResult(call.content(), call);
    }

    // ------------------------------------------------------------------------------------------------------ parts

    private PhaseCall call(CallContext ctx, EngineEntry entry, String phase, String prompt,
                           InferenceSettings settings, @Nullable Schema schema, @Nullable GbnfGrammar grammar,
                           int minTokens) {
        InferenceSettings layered = this.settings.overrideWith(settings);
        if (minTokens > 0 && layered.maxTokens() < minTokens) {
            layered = layered.withMaxTokens(minTokens);
        }
        Request.Builder request = Request.builder().settings(layered).schema(schema).grammar(grammar);
        if (systemPrompt != null) {
            request.addMessage(Message.system(systemPrompt));
        }
        request.addMessage(Message.user(prompt));
        Result result = InferenceCall.named(entry.id(), entry.engine(), interceptor, eventLog)
                .infer(ctx, request.build());
        return new PhaseCall(phase, entry.id(), prompt, result.content(), result.usage(), entry.cost(result.usage()));
    }

    static String planPrompt(String task) {
        return "Create a detailed plan for the following task.\n\nTask:\n" + task;
    }

    static String critiquePrompt(String task, String plan) {
        return "Critique this plan for the task below: point out its flaws, gaps and risks.\n\nTask:\n" + task
                + "\n\nPlan:\n" + plan;
    }

    static String refinePrompt(String task, String plan, String critique) {
        return "Refine the plan based on the critique. Reply with the refined plan only.\n\nTask:\n" + task
                + "\n\nPlan:\n" + plan + "\n\nCritique:\n" + critique;
    }

    static String improvePrompt(String task, String answer) {
        return "Review and improve the following response to the task. Reply with the improved response only."
                + "\n\nTask:\n" + task + "\n\nResponse:\n" + answer;
    }

    static String judgePrompt(String task, List<String> candidates) {
        StringBuilder prompt = new StringBuilder("Select the best response to the task. Responses are numbered from 0."
                + " Answer with JSON {\"selected\": <number>, \"reason\": \"<why, briefly>\"}.\n\nTask:\n")
                .append(task);
        for (int i = 0; i < candidates.size(); i++) {
            prompt.append("\n\nResponse ").append(i).append(":\n").append(candidates.get(i));
        }
        return prompt.toString();
    }

    private static void check(CallContext ctx, String task, Directive directive, InferenceSettings settings) {
        Objects.requireNonNull(ctx, "ctx");
        Objects.requireNonNull(directive, "directive");
        Objects.requireNonNull(settings, "settings");
        if (task == null || task.isBlank()) {
            throw PaganticException.of(ErrorCode.CONFIG_INVALID, "a multi-model mode needs a task");
        }
    }

    /** Builds a {@link MultiModel}; validated at {@link #build()} ({@code CONFIG_INVALID}). */
    public static final class Builder {
        private EngineCatalogue catalogue;
        private Executor executor;
        private InferenceSettings settings = InferenceSettings.builder().maxTokens(DEFAULT_MAX_TOKENS).build();
        private String systemPrompt;
        private Interceptor interceptor = Interceptor.NONE;
        private EventLog eventLog = EventLog.noOp();

        private Builder() {
        }

        /** The engines (required). */
        public Builder catalogue(EngineCatalogue value) {
            this.catalogue = value;
            return this;
        }

        /** Runs voters concurrently on this executor; sequential by default. */
        public Builder executor(Executor value) {
            this.executor = value;
            return this;
        }

        /** The default most tokens per call; {@value MultiModel#DEFAULT_MAX_TOKENS} by default. */
        public Builder maxTokens(int value) {
            if (value <= 0) {
                throw PaganticException.of(ErrorCode.CONFIG_INVALID, "maxTokens must be positive: " + value);
            }
            this.settings = settings.withMaxTokens(value);
            return this;
        }

        /**
         * The settings of every call ({@value MultiModel#DEFAULT_MAX_TOKENS} max tokens by default); a call's settings
         * are laid over them.
         */
        public Builder settings(InferenceSettings value) {
            this.settings = value;
            return this;
        }

        /** Where every call's inference events go; a no-op log by default. */
        public Builder eventLog(EventLog value) {
            this.eventLog = value;
            return this;
        }

        /** A system message before every prompt; none by default. */
        public Builder systemPrompt(String value) {
            this.systemPrompt = value == null || value.isBlank() ? null : value;
            return this;
        }

        /**
         * The interceptor every engine call passes through, named by the engine's catalogue id (a durable runner
         * makes each voter's call its own activity); {@link Interceptor#NONE} by default.
         */
        public Builder interceptor(Interceptor value) {
            this.interceptor = value;
            return this;
        }

        /** The modes. */
        public MultiModel build() {
            if (catalogue == null) {
                throw PaganticException.of(ErrorCode.CONFIG_INVALID, "MultiModel needs an engine catalogue");
            }
            if (interceptor == null) {
                throw PaganticException.of(ErrorCode.CONFIG_INVALID,
                        "interceptor must not be null (use Interceptor.NONE)");
            }
            if (settings == null || eventLog == null) {
                throw PaganticException.of(ErrorCode.CONFIG_INVALID, "settings and eventLog must not be null");
            }
            return new MultiModel(this);
        }
    }
}
