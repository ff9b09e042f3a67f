package dev.pagantic.orchestrate.plan;

import dev.pagantic.core.CallContext;
import dev.pagantic.core.Cancellation;
import dev.pagantic.core.Candidate;
import dev.pagantic.core.ErrorCode;
import dev.pagantic.core.Message;
import dev.pagantic.core.PaganticException;
import dev.pagantic.orchestrate.lifecycle.LifecycleState;
import dev.pagantic.orchestrate.lifecycle.Transition;
import dev.pagantic.orchestrate.ports.CandidateReranker;
import dev.pagantic.orchestrate.ports.ContextProvider;
import dev.pagantic.orchestrate.spi.Interceptor;
import dev.pagantic.orchestrate.spi.Invocation;
import dev.pagantic.orchestrate.spi.InvocationKind;
import dev.pagantic.testkit.ScriptedEngine;
import dev.pagantic.validate.RetryPolicy;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

class PlanExecutorTest {

    private static final StepType SUMMARIZE = StepType.of("summarize");
    private static final StepType UPPER = StepType.of("upper");

    private static final ContextProvider PROVIDER = (ctx, query) -> List.of(
            Message.system("Go interfaces are satisfied implicitly."),
            Message.system("An interface is a set of method signatures."));

    /** Reverses the candidates and gives them descending scores. */
    private static final CandidateReranker REVERSING = (ctx, input) -> {
        List<Candidate> out = new ArrayList<>();
        for (int i = input.candidates().size() - 1; i >= 0; i--) {
            out.add(input.candidates().get(i).withScore(1.0 / (out.size() + 1)));
        }
        return out;
    };

    private static StepHandler upper() {
        return (ctx, step) -> step.withOutput(StepOutput.text(step.requireInput().text().toUpperCase()));
    }

    private static StepHandler echo(String prefix) {
        return (ctx, step) -> step.withOutput(StepOutput.text(prefix + step.requireInput().text()));
    }

    @Test
    void runsTheSeedsRagPipelineRetrieveRerankInfer() {
        ScriptedEngine engine = ScriptedEngine.replying("Interfaces are implemented implicitly.");
        PlanExecutor executor = PlanExecutor.of(Map.of(
                StepType.RETRIEVE, StepHandlers.retrieve(PROVIDER),
                StepType.RERANK, StepHandlers.rerank(REVERSING),
                StepType.INFER, StepHandlers.infer(engine)));
        ExecutionPlan plan = ExecutionPlan.of(
                Step.of("retrieve", StepType.RETRIEVE, StepInput.text("How do interfaces work in Go?")),
                Step.of("rerank", StepType.RERANK),
                Step.of("infer", StepType.INFER));

        PlanResult result = executor.execute(CallContext.background(), plan);

        assertThat(result.succeeded()).isTrue();
        assertThat(result.steps()).extracting(Step::name).containsExactly("retrieve", "rerank", "infer");
        assertThat(result.output("retrieve").orElseThrow().messages()).hasSize(2);
        assertThat(result.output("rerank").orElseThrow().candidates()).extracting(Candidate::content)
                .containsExactly("An interface is a set of method signatures.",
                        "Go interfaces are satisfied implicitly.");
        assertThat(result.output("infer").orElseThrow().result().content())
                .isEqualTo("Interfaces are implemented implicitly.");
        assertThat(engine.lastRequest().orElseThrow().messages().get(0).content())
                .contains("An interface is a set of method signatures.");
        assertThat(result.usage()).isEqualTo(result.output("infer").orElseThrow().result().usage());
    }

    @Test
    void runsThePipelineWithValidationAndPassesTheAnswerThrough() {
        ScriptedEngine engine = ScriptedEngine.replying("A long enough answer.");
        PlanExecutor executor = PlanExecutor.of(Map.of(
                StepType.RETRIEVE, StepHandlers.retrieve(PROVIDER),
                StepType.INFER, StepHandlers.infer(engine),
                StepType.VALIDATE, StepHandlers.validate(output -> output.length() < 10
                        ? Optional.of("output too short: " + output.length() + " chars") : Optional.empty())));
        ExecutionPlan plan = ExecutionPlan.of(
                Step.of("retrieve", StepType.RETRIEVE, StepInput.text("query")),
                Step.of("infer", StepType.INFER),
                Step.of("validate", StepType.VALIDATE));

        PlanResult result = executor.executeOrThrow(CallContext.background(), plan);

        assertThat(result.lastOutput().orElseThrow().text()).isEqualTo("A long enough answer.");
    }

    @Test
    void aFailingValidationReturnsTheEarlierStepsAndTheValidationError() {
        ScriptedEngine engine = ScriptedEngine.replying("short");
        PlanExecutor executor = PlanExecutor.of(Map.of(
                StepType.INFER, StepHandlers.infer(engine),
                StepType.VALIDATE, StepHandlers.validateWith(output -> {
                    if (output.length() < 10) {
                        throw new IllegalArgumentException("output too short: " + output.length() + " chars");
                    }
                })));
        ExecutionPlan plan = ExecutionPlan.of(
                Step.of("infer", StepType.INFER, StepInput.text("q")),
                Step.of("validate", StepType.VALIDATE));

        PlanResult result = executor.execute(CallContext.background(), plan);

        assertThat(result.steps()).extracting(Step::name).containsExactly("infer");
        assertThat(result.failedStep()).contains("validate");
        assertThat(result.error().orElseThrow().code()).isEqualTo(ErrorCode.VALIDATION_RULE_FAILED);
        assertThat(result.error().orElseThrow().retryable()).isTrue();
        assertThat(result.error().orElseThrow().getMessage()).contains("output too short: 5 chars");
        assertThatThrownBy(result::orElseThrow).isSameAs(result.error().orElseThrow());
    }

    @Test
    void aCustomStepTypeRunsItsRegisteredHandler() {
        StepHandler summarize = (ctx, step) -> {
            String text = step.requireInput().text().strip();
            return step.withOutput(StepOutput.text(text.length() > 5 ? text.substring(0, 5) + "..." : text));
        };
        PlanExecutor executor = PlanExecutor.of(Map.of(SUMMARIZE, summarize));

        PlanResult result = executor.executeOrThrow(CallContext.background(),
                ExecutionPlan.of(Step.of("summarize", SUMMARIZE, StepInput.text("  a long text  "))));

        assertThat(result.lastOutput().orElseThrow().text()).isEqualTo("a lon...");
    }

    @Test
    void aStepWithoutInputReceivesThePreviousStepsOutput() {
        PlanExecutor executor = PlanExecutor.of(Map.of(UPPER, upper(), SUMMARIZE, echo("> ")));

        PlanResult result = executor.executeOrThrow(CallContext.background(), ExecutionPlan.of(
                Step.of("first", SUMMARIZE, StepInput.text("hello")),
                Step.of("second", UPPER),
                Step.of("third", SUMMARIZE)));

        assertThat(result.steps()).extracting(step -> step.requireOutput().text())
                .containsExactly("> hello", "> HELLO", "> > HELLO");
        assertThat(result.step("second").orElseThrow().requireInput().text()).isEqualTo("> hello");
    }

    @Test
    void anExplicitInputOverridesAutoChaining() {
        PlanExecutor executor = PlanExecutor.of(Map.of(UPPER, upper()));

        PlanResult result = executor.executeOrThrow(CallContext.background(), ExecutionPlan.of(
                Step.of("first", UPPER, StepInput.text("one")),
                Step.of("second", UPPER, StepInput.text("two"))));

        assertThat(result.lastOutput().orElseThrow().text()).isEqualTo("TWO");
    }

    @Test
    void aFailingStepKeepsTheCompletedStepsAsPartialResults() {
        StepHandler boom = (ctx, step) -> {
            throw new IllegalStateException("boom");
        };
        PlanExecutor executor = PlanExecutor.of(Map.of(UPPER, upper(), SUMMARIZE, boom));
        ExecutionPlan plan = ExecutionPlan.of(
                Step.of("first", UPPER, StepInput.text("a")),
                Step.of("second", SUMMARIZE),
                Step.of("third", UPPER));

        PlanResult result = executor.execute(CallContext.background(), plan);

        assertThat(result.succeeded()).isFalse();
        assertThat(result.steps()).extracting(Step::name).containsExactly("first");
        assertThat(result.failedStep()).contains("second");
        PaganticException error = result.error().orElseThrow();
        assertThat(error.code()).isEqualTo(ErrorCode.ORCHESTRATION_STEP_MISMATCH);
        assertThat(error.getCause()).isInstanceOf(IllegalStateException.class);
        assertThat(error.details()).containsEntry("step", "second")
                .containsEntry("exception", IllegalStateException.class.getName());
        assertThatThrownBy(() -> executor.executeOrThrow(CallContext.background(), plan)).isInstanceOf(
                PaganticException.class).hasMessageContaining("boom");
    }

    @Test
    void aHandlerReturningNoOutputIsAStepMismatch() {
        PlanExecutor executor = PlanExecutor.of(Map.of(UPPER, (ctx, step) -> step));

        PlanResult result = executor.execute(CallContext.background(),
                ExecutionPlan.of(Step.of("only", UPPER, StepInput.text("x"))));

        assertThat(result.error().orElseThrow().code()).isEqualTo(ErrorCode.ORCHESTRATION_STEP_MISMATCH);
        assertThat(result.error().orElseThrow().getMessage()).contains("without output");
    }

    @Test
    void cancellationBeforeAStepStopsWithTheCompletedSteps() {
        Cancellation cancellation = new Cancellation();
        CallContext ctx = CallContext.builder().cancellation(cancellation).build();
        AtomicInteger calls = new AtomicInteger();
        StepHandler cancelling = (c, step) -> {
            calls.incrementAndGet();
            cancellation.cancel("user pressed stop");
            return step.withOutput(StepOutput.text("done"));
        };
        PlanExecutor executor = PlanExecutor.of(Map.of(UPPER, cancelling));

        PlanResult result = executor.execute(ctx, ExecutionPlan.of(
                Step.of("first", UPPER, StepInput.text("a")),
                Step.of("second", UPPER)));

        assertThat(calls).hasValue(1);
        assertThat(result.steps()).extracting(Step::name).containsExactly("first");
        assertThat(result.error().orElseThrow().code()).isEqualTo(ErrorCode.CANCELLED_SIGNAL);
        assertThat(result.failedStep()).contains("second");
    }

    @Test
    void anExpiredDeadlineRunsNoStep() {
        CallContext ctx = CallContext.builder().deadline(Instant.now().minusSeconds(1)).build();
        AtomicInteger calls = new AtomicInteger();
        PlanExecutor executor = PlanExecutor.of(Map.of(UPPER, (c, step) -> {
            calls.incrementAndGet();
            return step.withOutput(StepOutput.text("x"));
        }));

        PlanResult result = executor.execute(ctx, ExecutionPlan.of(Step.of("only", UPPER, StepInput.text("a"))));

        assertThat(calls).hasValue(0);
        assertThat(result.steps()).isEmpty();
        assertThat(result.error().orElseThrow().code()).isEqualTo(ErrorCode.CANCELLED_TIMEOUT);
    }

    @Test
    void aPlanBeyondMaxStepsIsRejectedBeforeAnyStepRuns() {
        AtomicInteger calls = new AtomicInteger();
        PlanExecutor executor = PlanExecutor.builder()
                .handler(UPPER, counting(calls))
                .policy(PlanPolicy.builder().maxSteps(1).build())
                .build();

        PlanResult result = executor.execute(CallContext.background(), ExecutionPlan.of(
                Step.of("first", UPPER, StepInput.text("a")), Step.of("second", UPPER)));

        assertRejected(result, PlanPolicy.RULE_MAX_STEPS, calls);
    }

    @Test
    void aStepTypeOutsideTheAllowedTypesIsRejectedBeforeAnyStepRuns() {
        AtomicInteger calls = new AtomicInteger();
        PlanExecutor executor = PlanExecutor.builder()
                .handler(UPPER, counting(calls))
                .handler(SUMMARIZE, counting(calls))
                .policy(PlanPolicy.builder().allowedStepTypes(UPPER).build())
                .build();

        PlanResult result = executor.execute(CallContext.background(), ExecutionPlan.of(
                Step.of("first", UPPER, StepInput.text("a")), Step.of("second", SUMMARIZE)));

        assertRejected(result, PlanPolicy.RULE_ALLOWED_STEP_TYPES, calls);
        assertThat(result.failedStep()).contains("second");
    }

    @Test
    void aParallelGroupIsRejectedWhenThePolicyRequiresALinearPlan() {
        AtomicInteger calls = new AtomicInteger();
        PlanExecutor executor = PlanExecutor.builder()
                .handler(UPPER, counting(calls))
                .policy(PlanPolicy.builder().requireLinear(true).build())
                .build();

        PlanResult result = executor.execute(CallContext.background(), ExecutionPlan.builder()
                .parallel(Step.of("a", UPPER, StepInput.text("a")), Step.of("b", UPPER, StepInput.text("b")))
                .build());

        assertRejected(result, PlanPolicy.RULE_REQUIRE_LINEAR, calls);
    }

    @Test
    void aStepTypeWithoutAHandlerIsRejectedBeforeAnyStepRuns() {
        AtomicInteger calls = new AtomicInteger();
        PlanExecutor executor = PlanExecutor.of(Map.of(UPPER, counting(calls)));

        PlanResult result = executor.execute(CallContext.background(), ExecutionPlan.of(
                Step.of("first", UPPER, StepInput.text("a")), Step.of("second", SUMMARIZE)));

        assertRejected(result, PlanPolicy.RULE_REGISTERED_HANDLERS, calls);
    }

    @Test
    void aStepThatOutlivesThePerStepTimeoutFailsWithCancelledTimeout() {
        PlanExecutor executor = PlanExecutor.builder()
                .handler(UPPER, upper())
                .handler(SUMMARIZE, (ctx, step) -> {
                    ctx.sleep(Duration.ofSeconds(30));
                    return step.withOutput(StepOutput.text("never"));
                })
                .policy(PlanPolicy.builder().timeoutPerStep(Duration.ofMillis(50)).build())
                .build();

        PlanResult result = executor.execute(CallContext.background(), ExecutionPlan.of(
                Step.of("fast", UPPER, StepInput.text("a")), Step.of("slow", SUMMARIZE)));

        assertThat(result.steps()).extracting(Step::name).containsExactly("fast");
        assertThat(result.error().orElseThrow().code()).isEqualTo(ErrorCode.CANCELLED_TIMEOUT);
        assertThat(result.failedStep()).contains("slow");
    }

    @Test
    void aStepPastItsOwnTimeoutEndsTheLifecycleInErrorWhileACancelledRequestEndsInCancelled() {
        List<Transition> transitions = new CopyOnWriteArrayList<>();
        PlanExecutor executor = PlanExecutor.builder()
                .handler(SUMMARIZE, (ctx, step) -> {
                    ctx.sleep(Duration.ofSeconds(30));
                    return step.withOutput(StepOutput.text("never"));
                })
                .policy(PlanPolicy.builder().timeoutPerStep(Duration.ofMillis(50)).build())
                .transitionListener(transitions::add)
                .build();

        executor.execute(CallContext.background(), ExecutionPlan.of(Step.of("slow", SUMMARIZE, StepInput.text("a"))));

        assertThat(transitions.get(transitions.size() - 1).to()).isEqualTo(LifecycleState.ERROR);

        transitions.clear();
        Cancellation cancellation = new Cancellation();
        cancellation.cancel();
        executor.execute(CallContext.builder().cancellation(cancellation).build(),
                ExecutionPlan.of(Step.of("slow", SUMMARIZE, StepInput.text("a"))));

        assertThat(transitions.get(transitions.size() - 1).to()).isEqualTo(LifecycleState.CANCELLED);
    }

    @Test
    void aParallelGroupOnAnExecutorCollectsItsOutputsInPlanOrder() throws InterruptedException {
        ExecutorService pool = Executors.newFixedThreadPool(3);
        try {
            CountDownLatch allStarted = new CountDownLatch(3);
            StepHandler concurrent = (ctx, step) -> {
                allStarted.countDown();
                try {
                    // proves the members run concurrently: each waits for the others to have started
                    assertThat(allStarted.await(10, TimeUnit.SECONDS)).isTrue();
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                    throw new IllegalStateException(e);
                }
                return step.withOutput(StepOutput.text(step.name() + ":" + step.requireInput().text()));
            };
            PlanExecutor executor = PlanExecutor.builder()
                    .handler(UPPER, upper())
                    .handler(SUMMARIZE, concurrent)
                    .handler(StepType.of("join"), (ctx, step) -> step.withOutput(StepOutput.text(
                            String.join(",", step.requireInput().group().stream().map(StepData::text).toList()))))
                    .executor(pool)
                    .build();
            ExecutionPlan plan = ExecutionPlan.builder()
                    .step(Step.of("start", UPPER, StepInput.text("x")))
                    .parallel(Step.of("a", SUMMARIZE), Step.of("b", SUMMARIZE), Step.of("c", SUMMARIZE))
                    .step(Step.of("join", StepType.of("join")))
                    .build();

            PlanResult result = executor.executeOrThrow(CallContext.background(), plan);

            assertThat(result.steps()).extracting(Step::name).containsExactly("start", "a", "b", "c", "join");
            assertThat(result.output("join").orElseThrow().text()).isEqualTo("a:X,b:X,c:X");
        } finally {
            pool.shutdownNow();
        }
    }

    @Test
    void withoutAnExecutorAParallelGroupRunsSequentiallyInPlanOrder() {
        List<String> order = new ArrayList<>();
        StepHandler recording = (ctx, step) -> {
            order.add(step.name());
            return step.withOutput(StepOutput.text(step.name()));
        };
        PlanExecutor executor = PlanExecutor.of(Map.of(UPPER, recording));

        PlanResult result = executor.executeOrThrow(CallContext.background(), ExecutionPlan.builder()
                .parallel(Step.of("b", UPPER, StepInput.text("1")), Step.of("a", UPPER, StepInput.text("2")))
                .build());

        assertThat(order).containsExactly("b", "a");
        assertThat(result.steps()).extracting(Step::name).containsExactly("b", "a");
    }

    @Test
    void aParallelGroupKeepsItsCompletedMembersWhenOneFails() {
        ExecutorService pool = Executors.newFixedThreadPool(2);
        try {
            StepHandler failingOnB = (ctx, step) -> {
                if (step.name().equals("b")) {
                    throw PaganticException.of(ErrorCode.TOOL_EXECUTION_FAILED, "b broke");
                }
                return step.withOutput(StepOutput.text(step.name()));
            };
            PlanExecutor executor = PlanExecutor.builder().handler(UPPER, failingOnB).executor(pool).build();

            PlanResult result = executor.execute(CallContext.background(), ExecutionPlan.builder()
                    .parallel(Step.of("a", UPPER, StepInput.text("1")), Step.of("b", UPPER, StepInput.text("2")),
                            Step.of("c", UPPER, StepInput.text("3")))
                    .build());

            assertThat(result.steps()).extracting(Step::name).containsExactly("a", "c");
            assertThat(result.failedStep()).contains("b");
            assertThat(result.error().orElseThrow().code()).isEqualTo(ErrorCode.TOOL_EXECUTION_FAILED);
        } finally {
            pool.shutdownNow();
        }
    }

    @Test
    void aRetryableValidationFailureIsRetriedUnderTheRetryPolicy() {
        List<Duration> slept = new CopyOnWriteArrayList<>();
        AtomicInteger attempts = new AtomicInteger();
        StepHandler flaky = (ctx, step) -> {
            if (attempts.incrementAndGet() == 1) {
                throw PaganticException.of(ErrorCode.VALIDATION_RULE_FAILED, "not yet");
            }
            return step.withOutput(StepOutput.text("ok on attempt " + attempts.get()));
        };
        List<Transition> transitions = new ArrayList<>();
        PlanExecutor executor = PlanExecutor.builder()
                .handler(UPPER, flaky)
                .retryPolicy(RetryPolicy.builder().maxAttempts(3).initialDelay(Duration.ofMillis(200)).jitter(0)
                        .sleeper((ctx, duration) -> slept.add(duration)).build())
                .transitionListener(transitions::add)
                .build();

        PlanResult result = executor.executeOrThrow(CallContext.background(),
                ExecutionPlan.of(Step.of("flaky", UPPER, StepInput.text("x"))));

        assertThat(result.lastOutput().orElseThrow().text()).isEqualTo("ok on attempt 2");
        assertThat(slept).containsExactly(Duration.ofMillis(200));
        assertThat(transitions).extracting(Transition::to).containsExactly(LifecycleState.PREPARE,
                LifecycleState.EXECUTE, LifecycleState.VALIDATE, LifecycleState.EXECUTE, LifecycleState.VALIDATE,
                LifecycleState.COMPLETE);
        assertThat(transitions.get(3).attempt()).isEqualTo(2);
    }

    @Test
    void aNonRetryableCategoryIsNotRetriedEvenWithARetryPolicy() {
        AtomicInteger attempts = new AtomicInteger();
        PlanExecutor executor = PlanExecutor.builder()
                .handler(UPPER, (ctx, step) -> {
                    attempts.incrementAndGet();
                    throw PaganticException.of(ErrorCode.INFERENCE_ENGINE_ERROR, "engine hiccup");
                })
                .retryPolicy(RetryPolicy.builder().maxAttempts(3).sleeper((ctx, duration) -> { }).build())
                .build();

        PlanResult result = executor.execute(CallContext.background(),
                ExecutionPlan.of(Step.of("only", UPPER, StepInput.text("x"))));

        assertThat(attempts).hasValue(1);
        assertThat(result.error().orElseThrow().code()).isEqualTo(ErrorCode.INFERENCE_ENGINE_ERROR);
    }

    @Test
    void theInterceptorSeesEveryStepAsAPlanStepInvocation() {
        List<String> seen = new CopyOnWriteArrayList<>();
        Interceptor recording = new Interceptor() {
            @Override
            public <T> T intercept(Invocation<T> invocation) {
                seen.add(invocation.kind() + " " + invocation.name() + " "
                        + ((Step) invocation.input()).requireInput().text());
                return invocation.proceed();
            }
        };
        PlanExecutor executor = PlanExecutor.builder().handler(UPPER, upper()).interceptor(recording).build();

        executor.executeOrThrow(CallContext.background(), ExecutionPlan.of(
                Step.of("one", UPPER, StepInput.text("a")), Step.of("two", UPPER)));

        assertThat(seen).containsExactly(InvocationKind.PLAN_STEP + " one a", InvocationKind.PLAN_STEP + " two A");
    }

    @Test
    void aHandWrittenPlanGoesFromInitThroughPrepareExecuteAndValidateToComplete() {
        List<Transition> transitions = new ArrayList<>();
        PlanExecutor executor = PlanExecutor.builder().handler(UPPER, upper())
                .transitionListener(transitions::add).build();

        executor.executeOrThrow(CallContext.background(),
                ExecutionPlan.of(Step.of("one", UPPER, StepInput.text("a"))));

        assertThat(transitions.get(0).from()).isEqualTo(LifecycleState.INIT);
        assertThat(transitions).extracting(Transition::to).containsExactly(LifecycleState.PREPARE,
                LifecycleState.EXECUTE, LifecycleState.VALIDATE, LifecycleState.COMPLETE);
    }

    @Test
    void aPlannersPlanPassesThroughPlanBeforePrepare() {
        List<Transition> transitions = new ArrayList<>();
        PlanExecutor executor = PlanExecutor.builder().handler(UPPER, upper())
                .transitionListener(transitions::add).build();
        ExecutionPlan plan = ExecutionPlan.of(Step.of("one", UPPER, StepInput.text("a")));
        plan = plan.withTrace(PlanTrace.forPlan("static", "one step", Instant.now(), plan));

        executor.executeOrThrow(CallContext.background(), plan);

        assertThat(transitions).extracting(Transition::to).containsExactly(LifecycleState.PLAN,
                LifecycleState.PREPARE, LifecycleState.EXECUTE, LifecycleState.VALIDATE, LifecycleState.COMPLETE);
        assertThat(transitions.get(0).reason()).contains("static");
    }

    @Test
    void aFailureEndsTheLifecycleInErrorAndACancellationInCancelled() {
        List<Transition> failed = new ArrayList<>();
        PlanExecutor.builder().handler(UPPER, (ctx, step) -> {
            throw PaganticException.of(ErrorCode.TOOL_EXECUTION_FAILED, "no");
        }).transitionListener(failed::add).build().execute(CallContext.background(),
                ExecutionPlan.of(Step.of("one", UPPER, StepInput.text("a"))));
        List<Transition> cancelled = new ArrayList<>();
        Cancellation cancellation = new Cancellation();
        cancellation.cancel();
        PlanExecutor.builder().handler(UPPER, upper()).transitionListener(cancelled::add).build().execute(
                CallContext.builder().cancellation(cancellation).build(),
                ExecutionPlan.of(Step.of("one", UPPER, StepInput.text("a"))));

        assertThat(failed).extracting(Transition::to).containsExactly(LifecycleState.PREPARE,
                LifecycleState.EXECUTE, LifecycleState.ERROR);
        assertThat(cancelled).extracting(Transition::to).containsExactly(LifecycleState.PREPARE,
                LifecycleState.EXECUTE, LifecycleState.CANCELLED);
    }

    @Test
    void everyStepAttemptIsAStepEventCausedByTheStepWithItsError() {
        dev.pagantic.observe.InMemoryEventLog log = dev.pagantic.observe.InMemoryEventLog.unbounded();
        StepHandler failing = (ctx, step) -> {
            throw PaganticException.of(ErrorCode.VALIDATION_RULE_FAILED, "too short");
        };
        PlanExecutor executor = PlanExecutor.builder().handler(UPPER, upper()).handler(SUMMARIZE, failing)
                .eventLog(log).build();

        executor.execute(CallContext.builder().requestId("r-steps").build(), ExecutionPlan.of(
                Step.of("shout", UPPER, StepInput.text("hi")), Step.of("sum", SUMMARIZE)));

        assertThat(log.events()).extracting(e -> e.data().get("step_name")).containsExactly("shout", "sum");
        assertThat(log.events()).extracting(e -> e.correlation().causedBy()).containsExactly("shout", "sum");
        assertThat(log.events()).allMatch(e -> e.requestId().equals("r-steps"));
        assertThat(log.events().get(0).failed()).isFalse();
        assertThat(log.events().get(1).error().orElseThrow().code()).isEqualTo("VALIDATION_RULE_FAILED");
    }

    private static StepHandler counting(AtomicInteger calls) {
        return (ctx, step) -> {
            calls.incrementAndGet();
            return step.withOutput(StepOutput.text("x"));
        };
    }

    private static void assertRejected(PlanResult result, String rule, AtomicInteger calls) {
        assertThat(calls).hasValue(0);
        assertThat(result.steps()).isEmpty();
        PaganticException error = result.error().orElseThrow();
        assertThat(error.code()).isEqualTo(ErrorCode.CONFIG_INVALID);
        assertThat(error.details()).containsEntry("rule", rule);
    }
}
