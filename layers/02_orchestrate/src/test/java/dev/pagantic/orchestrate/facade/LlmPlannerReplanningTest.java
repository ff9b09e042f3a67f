package dev.pagantic.orchestrate.facade;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.pagantic.core.CallContext;
import dev.pagantic.core.ErrorCode;
import dev.pagantic.core.PaganticException;
import dev.pagantic.inference.Request;
import dev.pagantic.orchestrate.plan.ExecutionPlan;
import dev.pagantic.orchestrate.plan.PlanExecutor;
import dev.pagantic.orchestrate.plan.PlanPolicy;
import dev.pagantic.orchestrate.plan.PlanResult;
import dev.pagantic.orchestrate.plan.Replanner;
import dev.pagantic.orchestrate.plan.Step;
import dev.pagantic.orchestrate.plan.StepData;
import dev.pagantic.orchestrate.plan.StepInput;
import dev.pagantic.orchestrate.plan.StepOutput;
import dev.pagantic.orchestrate.plan.StepType;
import dev.pagantic.testkit.ScriptedEngine;
import java.util.List;
import org.junit.jupiter.api.Test;

class LlmPlannerReplanningTest {

    private static final StepType UPPER = StepType.of("upper");
    private static final StepType SHOUT = StepType.of("shout");
    private static final StepType BREAK = StepType.of("break");
    private static final PlanPolicy POLICY = PlanPolicy.builder().allowAnyStepType().maxSteps(4).build();

    private static PlanExecutor executor(Replanner replanner) {
        return PlanExecutor.builder()
                .policy(POLICY)
                .handler(UPPER, (ctx, step) -> step.withOutput(StepOutput.text(step.requireInput().text()
                        .toUpperCase())))
                .handler(SHOUT, (ctx, step) -> step.withOutput(StepOutput.text(step.requireInput().text() + "!")))
                .handler(BREAK, (ctx, step) -> {
                    throw PaganticException.of(ErrorCode.TOOL_EXECUTION_FAILED, "the step broke");
                })
                .replanner(replanner)
                .build();
    }

    private static LlmPlanner replanner(ScriptedEngine engine) {
        return LlmPlanner.builder().engine(engine).policy(POLICY).registeredStepTypes(UPPER, SHOUT, BREAK).build();
    }

    private static final ExecutionPlan PLAN = ExecutionPlan.of(
            Step.of("upper", UPPER, StepInput.text("hello")),
            Step.of("broken", BREAK),
            Step.of("last", UPPER));

    @Test
    void theModelsRevisionRunsAfterTheFailedStep() {
        ScriptedEngine engine = ScriptedEngine.replying(
                "{\"rationale\": \"shout instead of breaking\", \"steps\": [{\"name\": \"shout\", \"type\": \"shout\"}]}");

        PlanResult result = executor(replanner(engine)).execute(CallContext.background(), PLAN);

        assertThat(result.succeeded()).isTrue();
        assertThat(result.steps()).extracting(Step::name).containsExactly("upper", "shout");
        assertThat(result.lastOutput()).map(StepData::text).contains("HELLO!");
        assertThat(result.revisions()).singleElement()
                .satisfies(trace -> assertThat(trace.plannerId()).isEqualTo(LlmPlanner.DEFAULT_PLANNER_ID));
        Request request = engine.lastRequest().orElseThrow();
        assertThat(request.messages().get(0).content()).contains("Step types: break, shout, upper")
                .contains("At most 3 steps.");
        assertThat(request.messages().get(1).content())
                .contains("- upper (upper): HELLO")
                .contains("Failed step: broken (break)")
                .contains("TOOL_EXECUTION_FAILED: the step broke")
                .contains("- last (upper)");
    }

    @Test
    void noStepsMeansGivingUp() {
        ScriptedEngine engine = ScriptedEngine.replying("{\"rationale\": \"hopeless\", \"steps\": []}");
        PlanResult result = executor(replanner(engine)).execute(CallContext.background(), PLAN);
        assertThat(result.error()).map(PaganticException::code).contains(ErrorCode.TOOL_EXECUTION_FAILED);
        assertThat(result.revisions()).isEmpty();
    }

    @Test
    void anUnusableAnswerLetsTheFailureStandWithTheReplannersErrorAttached() {
        ScriptedEngine engine = ScriptedEngine.replying(
                "{\"rationale\": \"x\", \"steps\": [{\"name\": \"upper\", \"type\": \"shout\"}]}");
        PlanResult result = executor(replanner(engine)).execute(CallContext.background(), PLAN);
        PaganticException error = result.error().orElseThrow();
        assertThat(error.code()).isEqualTo(ErrorCode.TOOL_EXECUTION_FAILED);
        assertThat(error.getSuppressed()).singleElement()
                .satisfies(e -> assertThat(((PaganticException) e).code())
                        .isEqualTo(ErrorCode.CONSTRAINT_SCHEMA_INVALID));
    }

    @Test
    void aStepTypeOutsideThePermittedOnesIsRejectedByTheConstraintPipeline() {
        ScriptedEngine engine = ScriptedEngine.replying(
                "{\"rationale\": \"x\", \"steps\": [{\"name\": \"n\", \"type\": \"delete_everything\"}]}");
        assertThatThrownBy(() -> replanner(engine).replan(Step.of("broken", BREAK),
                PaganticException.of(ErrorCode.TOOL_EXECUTION_FAILED, "x"), List.of(), List.of()))
                .isInstanceOf(PaganticException.class)
                .satisfies(e -> assertThat(((PaganticException) e).category().name()).isEqualTo("CONSTRAINT"));
    }

    @Test
    void buildingWithoutAnEngineIsConfigNoEngine() {
        assertThatThrownBy(() -> LlmPlanner.builder().registeredStepTypes(UPPER).build())
                .isInstanceOfSatisfying(PaganticException.class,
                        e -> assertThat(e.code()).isEqualTo(ErrorCode.CONFIG_NO_ENGINE));
    }
}
