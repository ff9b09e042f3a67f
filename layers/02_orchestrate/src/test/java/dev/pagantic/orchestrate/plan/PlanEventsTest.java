package dev.pagantic.orchestrate.plan;

import static org.assertj.core.api.Assertions.assertThat;

import dev.pagantic.core.CallContext;
import dev.pagantic.core.ErrorCode;
import dev.pagantic.core.PaganticException;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import org.junit.jupiter.api.Test;

/** Plan events and replanning on {@link PlanExecutor}. */
class PlanEventsTest {

    private static final StepType UPPER = StepType.of("upper");
    private static final StepType SHOUT = StepType.of("shout");
    private static final StepType BREAK = StepType.of("break");

    private static final PlanPolicy ANY = PlanPolicy.builder().allowAnyStepType().build();

    private final List<PlanEvent> events = new ArrayList<>();

    private PlanExecutor.Builder executor() {
        return PlanExecutor.builder()
                .policy(ANY)
                .handler(UPPER, (ctx, step) -> step.withOutput(StepOutput.text(step.requireInput().text()
                        .toUpperCase())))
                .handler(SHOUT, (ctx, step) -> step.withOutput(StepOutput.text(step.requireInput().text() + "!")))
                .handler(BREAK, (ctx, step) -> {
                    throw PaganticException.of(ErrorCode.TOOL_EXECUTION_FAILED, "the step broke");
                })
                .planEventListener(events::add);
    }

    private static String describe(PlanEvent event) {
        if (event instanceof PlanEvent.PlanCreated created) {
            return "plan_created " + created.stepCount() + " " + created.steps();
        }
        if (event instanceof PlanEvent.PlanStepStart start) {
            return "plan_step_start " + start.index() + "/" + start.stepCount() + " " + start.name() + " "
                    + start.type().name();
        }
        PlanEvent.PlanStepEnd end = (PlanEvent.PlanStepEnd) event;
        return "plan_step_end " + end.index() + "/" + end.stepCount() + " " + end.name() + " "
                + end.error().map(e -> e.code().name()).orElse("ok " + end.result());
    }

    private List<String> described() {
        return events.stream().map(PlanEventsTest::describe).toList();
    }

    @Test
    void aThreeStepPlanReportsItsCreationAndEachStepInOrder() {
        ExecutionPlan plan = ExecutionPlan.of(
                Step.of("upper", UPPER, StepInput.text("hello")),
                Step.of("shout", SHOUT),
                Step.of("again", SHOUT));

        PlanResult result = executor().build().execute(CallContext.background(), plan);

        assertThat(result.succeeded()).isTrue();
        assertThat(result.revisions()).isEmpty();
        assertThat(described()).containsExactly(
                "plan_created 3 [upper, shout, again]",
                "plan_step_start 0/3 upper upper",
                "plan_step_end 0/3 upper ok HELLO",
                "plan_step_start 1/3 shout shout",
                "plan_step_end 1/3 shout ok HELLO!",
                "plan_step_start 2/3 again shout",
                "plan_step_end 2/3 again ok HELLO!!");
        assertThat(events).extracting(PlanEvent::eventType).containsExactly("plan_created", "plan_step_start",
                "plan_step_end", "plan_step_start", "plan_step_end", "plan_step_start", "plan_step_end");
    }

    @Test
    void aFailingStepEndsWithItsErrorAndLaterStepsNeverStart() {
        ExecutionPlan plan = ExecutionPlan.of(
                Step.of("upper", UPPER, StepInput.text("hello")),
                Step.of("broken", BREAK),
                Step.of("shout", SHOUT));

        PlanResult result = executor().build().execute(CallContext.background(), plan);

        assertThat(result.succeeded()).isFalse();
        assertThat(result.failedStep()).contains("broken");
        assertThat(described()).containsExactly(
                "plan_created 3 [upper, broken, shout]",
                "plan_step_start 0/3 upper upper",
                "plan_step_end 0/3 upper ok HELLO",
                "plan_step_start 1/3 broken break",
                "plan_step_end 1/3 broken TOOL_EXECUTION_FAILED");
        PlanEvent.PlanStepEnd end = (PlanEvent.PlanStepEnd) events.get(events.size() - 1);
        assertThat(end.succeeded()).isFalse();
        assertThat(end.result()).isEmpty();
    }

    @Test
    void aPlanRefusedByItsPolicyEmitsNoEvents() {
        ExecutionPlan plan = ExecutionPlan.of(Step.of("upper", UPPER, StepInput.text("hello")));
        PlanResult result = executor().policy(PlanPolicy.builder().allowedStepTypes(SHOUT).build()).build()
                .execute(CallContext.background(), plan);
        assertThat(result.error()).map(PaganticException::code).contains(ErrorCode.CONFIG_INVALID);
        assertThat(events).isEmpty();
    }

    @Test
    void aReplannerRevisesTheRemainingStepsAfterAFailureAndThePlanCompletes() {
        List<String> seen = new ArrayList<>();
        Replanner replanner = (failed, error, completed, remaining) -> {
            seen.add(failed.name() + " " + error.code() + " after " + completed.stream().map(Step::name).toList()
                    + " before " + remaining.stream().map(Step::name).toList());
            return List.of(Step.of("shout instead", SHOUT), Step.of("finish", SHOUT));
        };
        ExecutionPlan plan = ExecutionPlan.of(
                Step.of("upper", UPPER, StepInput.text("hello")),
                Step.of("broken", BREAK),
                Step.of("last", UPPER));

        PlanResult result = executor().replanner(replanner).build().execute(CallContext.background(), plan);

        assertThat(result.succeeded()).isTrue();
        assertThat(seen).containsExactly("broken TOOL_EXECUTION_FAILED after [upper] before [last]");
        assertThat(result.steps()).extracting(Step::name).containsExactly("upper", "shout instead", "finish");
        assertThat(result.lastOutput()).map(StepData::text).contains("HELLO!!");
        assertThat(result.replanned()).isTrue();
        assertThat(result.revisions()).singleElement().satisfies(trace -> {
            assertThat(trace.plannerId()).isEqualTo("replanner");
            assertThat(trace.stepCount()).isEqualTo(2);
            assertThat(trace.rationale()).contains("broken").contains("TOOL_EXECUTION_FAILED");
        });
        assertThat(described()).containsExactly(
                "plan_created 3 [upper, broken, last]",
                "plan_step_start 0/3 upper upper",
                "plan_step_end 0/3 upper ok HELLO",
                "plan_step_start 1/3 broken break",
                "plan_step_end 1/3 broken TOOL_EXECUTION_FAILED",
                "plan_created 3 [upper, shout instead, finish]",
                "plan_step_start 1/3 shout instead shout",
                "plan_step_end 1/3 shout instead ok HELLO!",
                "plan_step_start 2/3 finish shout",
                "plan_step_end 2/3 finish ok HELLO!!");
    }

    @Test
    void aRevisionThatViolatesThePolicyIsRefusedAndNothingMoreRuns() {
        Replanner tooLong = (failed, error, completed, remaining) -> List.of(
                Step.of("a", SHOUT), Step.of("b", SHOUT), Step.of("c", SHOUT));
        ExecutionPlan plan = ExecutionPlan.of(
                Step.of("upper", UPPER, StepInput.text("hello")),
                Step.of("broken", BREAK));

        PlanResult result = executor().policy(ANY.toBuilder().maxSteps(3).build()).replanner(tooLong).build()
                .execute(CallContext.background(), plan);

        assertThat(result.succeeded()).isFalse();
        assertThat(result.error()).map(PaganticException::code).contains(ErrorCode.CONFIG_INVALID);
        assertThat(result.error().get().details()).containsEntry("rule", PlanPolicy.RULE_MAX_STEPS);
        assertThat(result.error().get().getSuppressed()).extracting(e -> ((PaganticException) e).code())
                .containsExactly(ErrorCode.TOOL_EXECUTION_FAILED);
        assertThat(result.failedStep()).contains("broken");
        assertThat(result.steps()).extracting(Step::name).containsExactly("upper");
        assertThat(result.revisions()).isEmpty();
        assertThat(events).noneMatch(event -> event instanceof PlanEvent.PlanStepStart start
                && List.of("a", "b", "c").contains(start.name()));
    }

    @Test
    void aReplannerThatGivesUpLetsTheFailureStand() {
        ExecutionPlan plan = ExecutionPlan.of(Step.of("broken", BREAK, StepInput.text("x")));
        PlanResult result = executor().replanner((failed, error, completed, remaining) -> List.of()).build()
                .execute(CallContext.background(), plan);
        assertThat(result.error()).map(PaganticException::code).contains(ErrorCode.TOOL_EXECUTION_FAILED);
        assertThat(result.revisions()).isEmpty();
    }

    @Test
    void revisionsAreBoundedByMaxReplans() {
        List<Integer> asked = new ArrayList<>();
        Replanner forever = (failed, error, completed, remaining) -> {
            asked.add(asked.size());
            return List.of(Step.of("broken " + asked.size(), BREAK));
        };
        ExecutionPlan plan = ExecutionPlan.of(Step.of("broken", BREAK, StepInput.text("x")));
        PlanResult result = executor().replanner(forever).maxReplans(2).build()
                .execute(CallContext.background(), plan);
        assertThat(asked).hasSize(2);
        assertThat(result.revisions()).hasSize(2);
        assertThat(result.failedStep()).contains("broken 2");
        assertThat(result.error()).map(PaganticException::code).contains(ErrorCode.TOOL_EXECUTION_FAILED);
        assertThat(new PlanResult(List.of(), Optional.empty(), Optional.empty(), result.usage()).revisions())
                .isEmpty();
    }
}
