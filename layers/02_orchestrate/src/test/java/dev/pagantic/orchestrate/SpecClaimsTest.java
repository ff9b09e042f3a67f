package dev.pagantic.orchestrate;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.pagantic.core.CallContext;
import dev.pagantic.core.Cancellation;
import dev.pagantic.core.ErrorCode;
import dev.pagantic.core.FailureCategory;
import dev.pagantic.core.Message;
import dev.pagantic.core.PaganticException;
import dev.pagantic.core.Role;
import dev.pagantic.core.Schema;
import dev.pagantic.core.ToolCall;
import dev.pagantic.core.ToolDefinition;
import dev.pagantic.inference.Engine;
import dev.pagantic.inference.InferenceSettings;
import dev.pagantic.inference.Result;
import dev.pagantic.inference.StreamHandler;
import dev.pagantic.observe.Event;
import dev.pagantic.observe.EventLog;
import dev.pagantic.observe.InMemoryEventLog;
import dev.pagantic.orchestrate.agent.AgentLoop;
import dev.pagantic.orchestrate.agent.TurnOptions;
import dev.pagantic.orchestrate.lifecycle.ExecutionLifecycle;
import dev.pagantic.orchestrate.lifecycle.LifecycleState;
import dev.pagantic.orchestrate.lifecycle.PatternPath;
import dev.pagantic.orchestrate.lifecycle.Transition;
import dev.pagantic.orchestrate.lifecycle.TransitionListener;
import dev.pagantic.orchestrate.loop.Outcome;
import dev.pagantic.orchestrate.plan.ExecutionPlan;
import dev.pagantic.orchestrate.plan.PlanExecutor;
import dev.pagantic.orchestrate.plan.PlanResult;
import dev.pagantic.orchestrate.plan.Step;
import dev.pagantic.orchestrate.plan.StepHandler;
import dev.pagantic.orchestrate.plan.StepHandlers;
import dev.pagantic.orchestrate.plan.StepInput;
import dev.pagantic.orchestrate.plan.StepOutput;
import dev.pagantic.orchestrate.plan.StepType;
import dev.pagantic.orchestrate.structured.SpecializedLoop;
import dev.pagantic.orchestrate.structured.SpecializedResult;
import dev.pagantic.orchestrate.vote.RedundantLoop;
import dev.pagantic.orchestrate.vote.RedundantResult;
import dev.pagantic.orchestrate.vote.Vote;
import dev.pagantic.orchestrate.vote.VotingStrategy;
import dev.pagantic.testkit.ScriptedEngine;
import dev.pagantic.tool.Tool;
import dev.pagantic.tool.ToolExecutor;
import dev.pagantic.tool.ToolRegistry;
import dev.pagantic.validate.RetryPolicy;
import dev.pagantic.validate.RuleValidator;
import dev.pagantic.validate.Rules;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collections;
import java.util.EnumSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;

/**
 * Claims of seed 000 (the orchestrate layer guide) and seed 001 (contracts) that no other test asserted. Each test is
 * named after its claim; {@code docs/spec-coverage.md} maps every claim of both seeds to the test that checks it.
 */
class SpecClaimsTest {

    private static final Schema SENTIMENT = Schema.object()
            .required("sentiment", Schema.enumOf("positive", "negative", "neutral"))
            .build();
    private static final String POSITIVE = "{\"sentiment\":\"positive\"}";
    private static final String NEGATIVE = "{\"sentiment\":\"negative\"}";
    private static final String UNREPAIRABLE = "not json and not repairable: ][";
    private static final StepType UPPER = StepType.of("upper");

    private static CallContext ctx() {
        return CallContext.builder().requestId("req-spec").sessionId("sess-spec").build();
    }

    private static PaganticException failure(Runnable action) {
        try {
            action.run();
        } catch (PaganticException expected) {
            return expected;
        }
        throw new AssertionError("expected a PaganticException");
    }

    private static Tool searchTool(List<String> queries) {
        return Tool.builder(ToolDefinition.of("search", "Searches the web",
                        Schema.object().required("query", Schema.string()).build()))
                .handler((c, args) -> {
                    queries.add(String.valueOf(args.get("query")));
                    return "results for " + args.get("query");
                })
                .build();
    }

    private static Tool brokenTool() {
        return Tool.builder(ToolDefinition.of("broken", "Always fails", Schema.object().build()))
                .handler((c, args) -> {
                    throw new IllegalStateException("backend down");
                })
                .build();
    }

    private static RetryPolicy immediateRetries(int attempts) {
        return RetryPolicy.builder().maxAttempts(attempts).initialDelay(Duration.ZERO).jitter(0)
                .sleeper((c, d) -> { }).build();
    }

    // ------------------------------------------------------------------------------------------------ patterns

    @Test
    void planExecutorKeepsNoStateBetweenPlans() {
        List<Boolean> firstStepHadInput = new ArrayList<>();
        StepHandler recording = (c, step) -> {
            firstStepHadInput.add(step.hasInput());
            return step.withOutput(StepOutput.text(step.name() + ":" + (step.hasInput() ? step.requireInput().text()
                    : "none")));
        };
        PlanExecutor executor = PlanExecutor.of(Map.of(UPPER, recording));

        PlanResult first = executor.executeOrThrow(CallContext.background(), ExecutionPlan.of(
                Step.of("a", UPPER, StepInput.text("x")), Step.of("b", UPPER)));
        PlanResult second = executor.executeOrThrow(CallContext.background(), ExecutionPlan.of(
                Step.of("c", UPPER)));

        assertThat(first.steps()).extracting(Step::name).containsExactly("a", "b");
        // the second plan starts from nothing: no steps of the first plan, no auto-chained input from it
        assertThat(second.steps()).extracting(Step::name).containsExactly("c");
        assertThat(second.lastOutput().orElseThrow().text()).isEqualTo("c:none");
        assertThat(firstStepHadInput).containsExactly(true, true, false);
    }

    @Test
    void redundantLoopCallsAreStateless() {
        ScriptedEngine engine = ScriptedEngine.replying(POSITIVE, POSITIVE, POSITIVE, NEGATIVE, NEGATIVE, NEGATIVE);
        RedundantLoop loop = RedundantLoop.builder().engine(engine).schema(SENTIMENT).systemPrompt("Classify.")
                .build();

        loop.call(ctx(), "first");
        RedundantResult second = loop.call(ctx(), "second");

        assertThat(second.content()).isEqualTo(NEGATIVE);
        assertThat(engine.requests().subList(3, 6)).allSatisfy(request -> assertThat(request.messages())
                .containsExactly(Message.system("Classify."), Message.user("second")));
    }

    @Test
    void redundantLoopRunsItsReplicasSequentiallyByDefault() {
        AtomicInteger inFlight = new AtomicInteger();
        AtomicInteger maxInFlight = new AtomicInteger();
        List<Thread> threads = new CopyOnWriteArrayList<>();
        ScriptedEngine.Builder script = ScriptedEngine.builder();
        for (int i = 0; i < 3; i++) {
            script.replyWith(request -> {
                maxInFlight.accumulateAndGet(inFlight.incrementAndGet(), Math::max);
                threads.add(Thread.currentThread());
                try {
                    Thread.sleep(20);
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                }
                inFlight.decrementAndGet();
                return Result.builder().content(POSITIVE).build();
            });
        }
        ScriptedEngine engine = script.build();

        RedundantResult result = RedundantLoop.builder().engine(engine).schema(SENTIMENT).build().call(ctx(), "Great");

        assertThat(result.candidates()).hasSize(3);
        assertThat(maxInFlight).hasValue(1);
        assertThat(threads).hasSize(3).containsOnly(Thread.currentThread());
    }

    @Test
    void redundantLoopAppliesMaxTokensToEveryReplicaCall() {
        ScriptedEngine defaults = ScriptedEngine.replying(POSITIVE, POSITIVE, POSITIVE);
        ScriptedEngine configured = ScriptedEngine.replying(POSITIVE, POSITIVE, POSITIVE);

        RedundantLoop.builder().engine(defaults).schema(SENTIMENT).build().call(ctx(), "Great");
        RedundantLoop.builder().engine(configured).schema(SENTIMENT).maxTokens(256).build().call(ctx(), "Great");

        assertThat(defaults.requests()).hasSize(3)
                .allSatisfy(r -> assertThat(r.settings().maxTokens()).isEqualTo(2048));
        assertThat(configured.requests()).hasSize(3)
                .allSatisfy(r -> assertThat(r.settings().maxTokens()).isEqualTo(256));
    }

    @Test
    void redundantLoopReplicasRunChatStructuredAtLowTemperatureWithThinkingDisabled() {
        ScriptedEngine engine = ScriptedEngine.replying(POSITIVE, POSITIVE, POSITIVE);

        RedundantLoop.builder().engine(engine).schema(SENTIMENT).build().call(ctx(), "Great");

        assertThat(engine.requests()).hasSize(3).allSatisfy(request -> {
            assertThat(request.settings().temperature()).hasValue(0.3);
            assertThat(request.settings().options()).containsEntry("enable_thinking", false);
        });
    }

    @Test
    void redundantLoopUsesACustomVotingStrategy() {
        // the last replica wins, whatever the majority says
        VotingStrategy lastWins = candidates -> Vote.of(candidates.get(candidates.size() - 1), candidates.size() - 1,
                1, candidates.size());
        ScriptedEngine engine = ScriptedEngine.replying(POSITIVE, POSITIVE, NEGATIVE);

        RedundantResult result = RedundantLoop.builder().engine(engine).schema(SENTIMENT).voting(lastWins).build()
                .call(ctx(), "Great");

        assertThat(result.content()).isEqualTo(NEGATIVE);
        assertThat(result.confidence()).isEqualTo(1.0 / 3);
    }

    @Test
    void redundantLoopEmitsAConstraintFailureWhenNoReplicaProducesValidOutput() {
        ScriptedEngine engine = ScriptedEngine.replying(UNREPAIRABLE, UNREPAIRABLE, UNREPAIRABLE);

        PaganticException error = failure(() -> RedundantLoop.builder().engine(engine).schema(SENTIMENT).build()
                .call(ctx(), "Great"));

        assertThat(error.category()).isEqualTo(FailureCategory.CONSTRAINT);
        assertThat(engine.callCount()).isEqualTo(3);
    }

    // ------------------------------------------------------------------------------------------------ AgentLoop

    @Test
    void agentLoopSendsTheDefaultMaxTokensOf2048InEveryRequest() {
        ScriptedEngine engine = ScriptedEngine.builder()
                .replyCallingTool("search", Map.of("query", "q"))
                .reply("done")
                .build();
        try (AgentLoop agent = AgentLoop.builder().engine(engine)
                .tools(ToolRegistry.of(searchTool(new ArrayList<>()))).build()) {
            agent.chat(ctx(), "go");
        }
        assertThat(engine.requests()).hasSize(2).allSatisfy(r -> assertThat(r.settings().maxTokens()).isEqualTo(2048));
    }

    @Test
    void contextProviderFailingWithAPaganticExceptionAlsoDegradesGracefully() {
        ScriptedEngine engine = ScriptedEngine.replying("Answer without context.");
        InMemoryEventLog log = EventLog.inMemory();
        AgentLoop agent = AgentLoop.builder().engine(engine).eventLog(log)
                .contextProvider((c, query) -> {
                    throw PaganticException.of(ErrorCode.INFERENCE_ENGINE_ERROR, "embedding model down");
                })
                .build();

        Result result = agent.chat(ctx(), "Hi");

        assertThat(result.content()).isEqualTo("Answer without context.");
        assertThat(engine.requests().get(0).messages()).containsExactly(Message.user("Hi"));
        Event context = log.events(e -> e.action().equals("context")).get(0);
        assertThat(context.dataValue("degraded")).contains(true);
        assertThat(context.error().orElseThrow().code()).isEqualTo("INFERENCE_ENGINE_ERROR");
    }

    @Test
    void agentLoopDrivesAFreshLifecyclePerTurnSoTheExecuteValidateCycleRepeatsPerTurn() {
        List<Transition> transitions = new ArrayList<>();
        AgentLoop agent = AgentLoop.builder()
                .engine(ScriptedEngine.replying("Hello.", "{\"sentiment\":\"positive\"}"))
                .transitionListener(transitions::add).build();

        agent.chat(ctx(), "Hi");
        agent.chatStructured(ctx(), "Analyze", SENTIMENT);

        assertThat(transitions).extracting(Transition::to).containsExactly(
                LifecycleState.PREPARE, LifecycleState.EXECUTE, LifecycleState.COMPLETE,
                LifecycleState.PREPARE, LifecycleState.EXECUTE, LifecycleState.VALIDATE, LifecycleState.COMPLETE);
        assertThat(transitions.get(0).from()).isEqualTo(LifecycleState.INIT);
        assertThat(transitions.get(3).from()).isEqualTo(LifecycleState.INIT);
    }

    @Test
    void agentLoopPathAllowsTheExecuteValidateExecuteRetryCycle() {
        List<Transition> transitions = new ArrayList<>();
        ExecutionLifecycle lifecycle = ExecutionLifecycle.start(ctx(), PatternPath.AGENT_LOOP, transitions::add);

        lifecycle.prepare("turn");
        lifecycle.execute("inference");
        lifecycle.validate("output check");
        lifecycle.retry("again");
        lifecycle.validate("output check");
        lifecycle.complete("done");

        assertThat(transitions).extracting(Transition::to).containsExactly(LifecycleState.PREPARE,
                LifecycleState.EXECUTE, LifecycleState.VALIDATE, LifecycleState.EXECUTE, LifecycleState.VALIDATE,
                LifecycleState.COMPLETE);
        assertThat(lifecycle.state().attempt()).isEqualTo(2);
    }

    // ------------------------------------------------------------------------------------------------ SpecializedLoop

    @Test
    void specializedLoopPhaseTwoPromptIsTheSeedsLiteralText() {
        ScriptedEngine engine = ScriptedEngine.builder()
                .replyCallingTool("search", Map.of("query", "quantum"))
                .reply("Gathered.")
                .reply(POSITIVE)
                .build();
        try (SpecializedLoop loop = SpecializedLoop.builder().engine(engine).schema(SENTIMENT)
                .tools(ToolRegistry.of(searchTool(new ArrayList<>()))).build()) {
            loop.call(ctx(), "Research then classify");
        }
        List<Message> phaseTwo = engine.requests().get(2).messages();
        assertThat(phaseTwo.get(phaseTwo.size() - 1))
                .isEqualTo(Message.user("Produce your structured output now."));
    }

    @Test
    void specializedLoopToolPhaseStaysWithinExecute() {
        List<Transition> transitions = new ArrayList<>();
        List<String> searched = new ArrayList<>();
        ScriptedEngine engine = ScriptedEngine.builder()
                .replyCallingTool("search", Map.of("query", "quantum"))
                .reply("Gathered.")
                .reply(POSITIVE)
                .build();
        try (SpecializedLoop loop = SpecializedLoop.builder().engine(engine).schema(SENTIMENT)
                .tools(ToolRegistry.of(searchTool(searched))).transitionListener(transitions::add).build()) {
            loop.call(ctx(), "Research then classify");
        }
        assertThat(searched).containsExactly("quantum");
        assertThat(transitions).extracting(Transition::to).containsExactly(LifecycleState.PREPARE,
                LifecycleState.EXECUTE, LifecycleState.VALIDATE, LifecycleState.COMPLETE);
    }

    @Test
    void specializedLoopWithoutAGrammarSendsNoneToAnEngineWithoutGrammars() {
        // the engine does not declare GRAMMAR: a grammar would be refused
        ScriptedEngine engine = ScriptedEngine.replying(POSITIVE);
        SpecializedLoop loop = SpecializedLoop.builder().engine(engine).schema(SENTIMENT).build();

        assertThat(loop.call(ctx(), "Great").content()).isEqualTo(POSITIVE);
        assertThat(engine.lastRequest().orElseThrow().grammar()).isEmpty();
    }

    @Test
    void specializedLoopSendsTheDefaultMaxTokensOf2048() {
        ScriptedEngine engine = ScriptedEngine.replying(POSITIVE);

        SpecializedLoop.builder().engine(engine).schema(SENTIMENT).build().call(ctx(), "Great");

        assertThat(engine.lastRequest().orElseThrow().settings().maxTokens()).isEqualTo(2048);
    }

    @Test
    void specializedLoopStreamsItsOutputToTheStreamHandler() {
        List<String> deltas = Collections.synchronizedList(new ArrayList<>());
        ScriptedEngine engine = ScriptedEngine.replying("{\"sentiment\": \"positive\"}");

        Result result = SpecializedLoop.builder().engine(engine).schema(SENTIMENT)
                .stream(StreamHandler.onContent(deltas::add)).build().call(ctx(), "Great");

        assertThat(deltas).hasSizeGreaterThan(1);
        assertThat(String.join("", deltas)).isEqualTo("{\"sentiment\": \"positive\"}");
        assertThat(result.content()).isEqualToIgnoringWhitespace(POSITIVE);
    }

    @Test
    void specializedLoopEmitsAValidationFailureWhenRulesKeepFailing() {
        ScriptedEngine engine = ScriptedEngine.replying(POSITIVE, POSITIVE, POSITIVE);
        SpecializedLoop loop = SpecializedLoop.builder().engine(engine).schema(SENTIMENT)
                .rules(RuleValidator.of(Rules.maxLength(5))).build();

        Outcome<SpecializedResult> outcome = loop.run(ctx(), "Great", InferenceSettings.DEFAULTS,
                TurnOptions.DEFAULTS);

        PaganticException error = outcome.failure().orElseThrow();
        assertThat(error.category()).isEqualTo(FailureCategory.VALIDATION);
        assertThat(error.code()).isEqualTo(ErrorCode.VALIDATION_RULE_FAILED);
        assertThat(engine.callCount()).as("three attempts").isEqualTo(3);
    }

    // ------------------------------------------------------------------------------------------------ PlanExecutor

    @Test
    void planExecutorRecordsTotalStepsAndLastStepInTheExecutionState() {
        ExecutionLifecycle lifecycle = ExecutionLifecycle.start(ctx(), PatternPath.PLAN_EXECUTOR,
                TransitionListener.NOOP);
        PlanExecutor executor = PlanExecutor.of(Map.of(UPPER,
                (c, step) -> step.withOutput(StepOutput.text(step.requireInput().text().toUpperCase()))));

        executor.execute(ctx(), ExecutionPlan.of(Step.of("first", UPPER, StepInput.text("a")),
                Step.of("second", UPPER), Step.of("third", UPPER)), lifecycle);

        assertThat(lifecycle.state().current()).isEqualTo(LifecycleState.COMPLETE);
        assertThat(lifecycle.state().totalSteps()).isEqualTo(3);
        assertThat(lifecycle.state().lastStep()).isEqualTo("third");
    }

    @Test
    void planExecutorExhaustedStepRetriesEndInErrorWithTheLastFailure() {
        AtomicInteger attempts = new AtomicInteger();
        ExecutionLifecycle lifecycle = ExecutionLifecycle.start(ctx(), PatternPath.PLAN_EXECUTOR,
                TransitionListener.NOOP);
        PlanExecutor executor = PlanExecutor.builder()
                .handler(UPPER, (c, step) -> {
                    throw PaganticException.of(ErrorCode.VALIDATION_RULE_FAILED, "attempt "
                            + attempts.incrementAndGet());
                })
                .retryPolicy(immediateRetries(2))
                .build();

        PlanResult result = executor.execute(ctx(), ExecutionPlan.of(Step.of("only", UPPER, StepInput.text("x"))),
                lifecycle);

        assertThat(attempts).hasValue(2);
        assertThat(result.error().orElseThrow().getMessage()).contains("attempt 2");
        assertThat(lifecycle.state().current()).isEqualTo(LifecycleState.ERROR);
        assertThat(lifecycle.state().attempt()).isEqualTo(2);
        PaganticException last = lifecycle.state().lastError().orElseThrow();
        assertThat(last.category()).isEqualTo(FailureCategory.VALIDATION);
        assertThat(last.getMessage()).contains("attempt 2");
    }

    @Test
    void planExecutorRecoversFromAConstraintFailureByRetryingTheStep() {
        AtomicInteger attempts = new AtomicInteger();
        PlanExecutor executor = PlanExecutor.builder()
                .handler(UPPER, (c, step) -> {
                    if (attempts.incrementAndGet() == 1) {
                        throw PaganticException.of(ErrorCode.CONSTRAINT_SCHEMA_INVALID, "missing field");
                    }
                    return step.withOutput(StepOutput.text("valid"));
                })
                .retryPolicy(immediateRetries(3))
                .build();

        PlanResult result = executor.execute(ctx(), ExecutionPlan.of(Step.of("only", UPPER, StepInput.text("x"))));

        assertThat(result.succeeded()).isTrue();
        assertThat(result.lastOutput().orElseThrow().text()).isEqualTo("valid");
        assertThat(attempts).hasValue(2);
    }

    @Test
    void planExecutorCanEmitEveryFailureCategory() {
        Set<FailureCategory> emitted = EnumSet.noneOf(FailureCategory.class);
        Step inferText = Step.of("infer", StepType.INFER, StepInput.text("q"));
        // InferenceFailure: the engine fails
        emitted.add(category(PlanExecutor.of(Map.of(StepType.INFER, StepHandlers.infer(ScriptedEngine.builder()
                .fail(ErrorCode.INFERENCE_ENGINE_ERROR, "down").build()))), ExecutionPlan.of(inferText), ctx()));
        // ToolFailure: the tool step calls an unknown tool
        try (ToolExecutor tools = ToolExecutor.create()) {
            emitted.add(category(PlanExecutor.of(Map.of(StepType.TOOL, StepHandlers.tool(ToolRegistry.empty(), tools))),
                    ExecutionPlan.of(Step.of("tool", StepType.TOOL, StepInput.toolCalls(List.of(
                            ToolCall.of("c1", "missing", Map.of()))))), ctx()));
        }
        // ConstraintFailure: a structured step whose output is not JSON and may not be repaired
        SpecializedLoop strict = SpecializedLoop.builder().engine(ScriptedEngine.replying("{\"sentiment\": \"pos"))
                .schema(SENTIMENT).repairAllowed(false).retryPolicy(RetryPolicy.noRetry()).build();
        StepType classify = StepType.of("classify");
        emitted.add(category(PlanExecutor.of(Map.of(classify, (c, step) -> step.withOutput(StepOutput.result(
                        strict.call(c, step.requireInput().text()))))),
                ExecutionPlan.of(Step.of("classify", classify, StepInput.text("q"))), ctx()));
        // ValidationFailure: the validate step rejects its input
        emitted.add(category(PlanExecutor.of(Map.of(StepType.VALIDATE, StepHandlers.validate(t -> Optional.of("bad")))),
                ExecutionPlan.of(Step.of("validate", StepType.VALIDATE, StepInput.text("x"))), ctx()));
        // OrchestrationFailure: the infer step gets an input it cannot use
        emitted.add(category(PlanExecutor.of(Map.of(StepType.INFER, StepHandlers.infer(ScriptedEngine.replying("x")))),
                ExecutionPlan.of(Step.of("infer", StepType.INFER, StepInput.custom(42))), ctx()));
        // ConfigurationFailure: the infer step has no engine
        emitted.add(category(PlanExecutor.of(Map.of(StepType.INFER, StepHandlers.infer((Engine) null))),
                ExecutionPlan.of(inferText), ctx()));
        // Cancellation: the caller cancelled
        Cancellation cancellation = new Cancellation();
        cancellation.cancel();
        emitted.add(category(PlanExecutor.of(Map.of(StepType.INFER, StepHandlers.infer(ScriptedEngine.replying("x")))),
                ExecutionPlan.of(inferText), CallContext.builder().cancellation(cancellation).build()));

        assertThat(emitted).containsExactlyInAnyOrder(FailureCategory.values());
    }

    private static FailureCategory category(PlanExecutor executor, ExecutionPlan plan, CallContext context) {
        return executor.execute(context, plan).error().orElseThrow().category();
    }

    @Test
    void planExecutorRecoversFromAToolFailureWhenTheStepUsesTools() {
        List<String> searched = new ArrayList<>();
        List<Transition> transitions = new ArrayList<>();
        ScriptedEngine engine = ScriptedEngine.builder()
                .replyCallingTool("broken", Map.of())
                .replyCallingTool("search", Map.of("query", "Q4 market trends"))
                .reply("Q4 trends are up.")
                .build();
        StepType research = StepType.of("research");
        try (ToolExecutor toolExecutor = ToolExecutor.create()) {
            ToolRegistry tools = ToolRegistry.of(searchTool(searched), brokenTool());
            StepHandler agentHandler = (c, step) -> {
                try (AgentLoop agent = AgentLoop.builder().engine(engine).tools(tools).toolExecutor(toolExecutor)
                        .systemPrompt("You are a research assistant.").build()) {
                    return step.withOutput(StepOutput.text(agent.chat(c, step.requireInput().text()).content()));
                }
            };
            PlanExecutor executor = PlanExecutor.builder().handler(research, agentHandler)
                    .transitionListener(transitions::add).build();

            PlanResult result = executor.execute(ctx(), ExecutionPlan.of(
                    Step.of("research", research, StepInput.text("Analyze market trends for Q4"))));

            assertThat(result.succeeded()).isTrue();
            assertThat(result.lastOutput().orElseThrow().text()).isEqualTo("Q4 trends are up.");
        }
        assertThat(searched).containsExactly("Q4 market trends");
        // the failed tool call went back to the model as an error tool message inside the step
        assertThat(engine.requests().get(1).messages()).anySatisfy(m -> {
            assertThat(m.role()).isEqualTo(Role.TOOL);
            assertThat(m.content()).startsWith("TOOL_EXECUTION_FAILED");
        });
        // the step's tool loop stays within EXECUTE
        assertThat(transitions).extracting(Transition::to).containsExactly(LifecycleState.PREPARE,
                LifecycleState.EXECUTE, LifecycleState.VALIDATE, LifecycleState.COMPLETE);
    }

    @Test
    void planStepsCanWrapAnAgentLoopAndARedundantLoopInOnePipeline() {
        List<String> searched = new ArrayList<>();
        ScriptedEngine agentEngine = ScriptedEngine.builder()
                .replyCallingTool("search", Map.of("query", "Q4"))
                .reply("Q4 trends are positive.")
                .build();
        ScriptedEngine classifyEngine = ScriptedEngine.replying(POSITIVE, POSITIVE, NEGATIVE);
        StepType research = StepType.of("research");
        StepType classify = StepType.of("classify");
        ToolRegistry tools = ToolRegistry.of(searchTool(searched));
        StepHandler agentHandler = (c, step) -> {
            try (AgentLoop agent = AgentLoop.builder().engine(agentEngine).tools(tools)
                    .systemPrompt("You are a research assistant.").build()) {
                return step.withOutput(StepOutput.text(agent.chat(c, step.requireInput().text()).content()));
            }
        };
        StepHandler reliableClassifier = (c, step) -> {
            try (RedundantLoop loop = RedundantLoop.builder().engine(classifyEngine).schema(SENTIMENT).n(3).build()) {
                return step.withOutput(StepOutput.text(loop.call(c, step.requireInput().text()).content()));
            }
        };
        PlanExecutor executor = PlanExecutor.of(Map.of(research, agentHandler, classify, reliableClassifier));

        PlanResult result = executor.executeOrThrow(ctx(), ExecutionPlan.of(
                Step.of("research", research, StepInput.text("Analyze market trends for Q4")),
                Step.of("classify", classify)));

        assertThat(searched).containsExactly("Q4");
        assertThat(result.output("research").orElseThrow().text()).isEqualTo("Q4 trends are positive.");
        assertThat(result.output("classify").orElseThrow().text()).isEqualTo(POSITIVE);
        // the classify step was auto-chained from the research output, in each of its three replicas
        assertThat(classifyEngine.requests()).hasSize(3).allSatisfy(request -> assertThat(request.messages())
                .endsWith(Message.user("Q4 trends are positive.")));
    }

    // ------------------------------------------------------------------------------------------------ lifecycle

    @Test
    void lifecycleHasExactlyTheSeedsEightStates() {
        assertThat(LifecycleState.values()).extracting(LifecycleState::name).containsExactly(
                "INIT", "PLAN", "PREPARE", "EXECUTE", "VALIDATE", "COMPLETE", "ERROR", "CANCELLED");
        assertThat(EnumSet.allOf(LifecycleState.class)).filteredOn(LifecycleState::isTerminal)
                .containsExactlyInAnyOrder(LifecycleState.COMPLETE, LifecycleState.ERROR, LifecycleState.CANCELLED);
    }

    @Test
    void completeAndCancelledAreTerminalStatesWithNoWayOut() {
        ExecutionLifecycle completed = ExecutionLifecycle.start(ctx(), PatternPath.AGENT_LOOP, TransitionListener.NOOP);
        completed.prepare("p");
        completed.execute("e");
        completed.complete("done");
        ExecutionLifecycle cancelled = ExecutionLifecycle.start(ctx(), PatternPath.SPECIALIZED_LOOP,
                TransitionListener.NOOP);
        cancelled.prepare("p");
        cancelled.fail(PaganticException.of(ErrorCode.CANCELLED_SIGNAL, "stop"));

        for (ExecutionLifecycle lifecycle : List.of(completed, cancelled)) {
            LifecycleState end = lifecycle.state().current();
            assertThatThrownBy(() -> lifecycle.prepare("again")).isInstanceOf(IllegalStateException.class);
            assertThatThrownBy(() -> lifecycle.execute("again")).isInstanceOf(IllegalStateException.class);
            assertThatThrownBy(() -> lifecycle.complete("again")).isInstanceOf(IllegalStateException.class);
            assertThatThrownBy(() -> lifecycle.fail(PaganticException.of(ErrorCode.INFERENCE_ENGINE_ERROR, "late")))
                    .isInstanceOf(IllegalStateException.class);
            assertThat(lifecycle.state().current()).isEqualTo(end);
        }
        assertThat(completed.state().current()).isEqualTo(LifecycleState.COMPLETE);
        assertThat(cancelled.state().current()).isEqualTo(LifecycleState.CANCELLED);
    }
}
