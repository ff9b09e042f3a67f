package dev.pagantic.orchestrate.plan;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.pagantic.core.ErrorCode;
import dev.pagantic.core.PaganticException;
import java.time.Instant;
import java.util.List;
import org.junit.jupiter.api.Test;

class ExecutionPlanTest {

    private static final StepType SUMMARIZE = StepType.of("summarize");
    private static final StepType CLASSIFY = StepType.of("classify");

    private static ExecutionPlan ragWithParallelGroup() {
        return ExecutionPlan.builder()
                .step(Step.of("retrieve", StepType.RETRIEVE, StepInput.text("How do interfaces work?")))
                .parallel(Step.of("summarize", SUMMARIZE), Step.of("classify", CLASSIFY))
                .step(Step.of("infer", StepType.INFER))
                .build();
    }

    @Test
    void theBuilderKeepsStagesInOrderAndStepsFlattenInExecutionOrder() {
        ExecutionPlan plan = ragWithParallelGroup();

        assertThat(plan.stages()).hasSize(3);
        assertThat(plan.stages().get(1).isParallel()).isTrue();
        assertThat(plan.steps()).extracting(Step::name).containsExactly("retrieve", "summarize", "classify", "infer");
        assertThat(plan.stepCount()).isEqualTo(4);
    }

    @Test
    void aPlanWithAParallelGroupIsNotLinear() {
        assertThat(ragWithParallelGroup().isLinear()).isFalse();
        assertThat(ExecutionPlan.of(Step.of("a", StepType.INFER), Step.of("b", StepType.VALIDATE)).isLinear())
                .isTrue();
    }

    @Test
    void stepsCanBeLookedUpByNameAndTypesListedInOrderOfFirstUse() {
        ExecutionPlan plan = ragWithParallelGroup();

        assertThat(plan.step("classify")).map(Step::type).contains(CLASSIFY);
        assertThat(plan.step("missing")).isEmpty();
        assertThat(plan.stepTypes()).containsExactly(StepType.RETRIEVE, SUMMARIZE, CLASSIFY, StepType.INFER);
    }

    @Test
    void anEmptyPlanIsRefused() {
        assertThatThrownBy(() -> ExecutionPlan.builder().build()).isInstanceOfSatisfying(PaganticException.class,
                e -> assertThat(e.code()).isEqualTo(ErrorCode.CONFIG_INVALID));
        assertThatThrownBy(() -> ExecutionPlan.of(List.of())).isInstanceOf(PaganticException.class);
    }

    @Test
    void duplicateStepNamesAreRefusedEvenAcrossAParallelGroup() {
        assertThatThrownBy(() -> ExecutionPlan.builder()
                .step(Step.of("x", StepType.RETRIEVE))
                .parallel(Step.of("y", SUMMARIZE), Step.of("x", CLASSIFY))
                .build())
                .isInstanceOfSatisfying(PaganticException.class, e -> {
                    assertThat(e.code()).isEqualTo(ErrorCode.CONFIG_INVALID);
                    assertThat(e.details()).containsEntry("step", "x");
                });
    }

    @Test
    void aParallelGroupNeedsAtLeastTwoSteps() {
        assertThatThrownBy(() -> ExecutionPlan.builder().parallel(Step.of("only", StepType.INFER)).build())
                .isInstanceOfSatisfying(PaganticException.class,
                        e -> assertThat(e.code()).isEqualTo(ErrorCode.CONFIG_INVALID));
    }

    @Test
    void aNullStepIsRefusedAtBuild() {
        ExecutionPlan.Builder builder = ExecutionPlan.builder().step(null);

        assertThatThrownBy(builder::build).isInstanceOfSatisfying(PaganticException.class,
                e -> assertThat(e.code()).isEqualTo(ErrorCode.CONFIG_INVALID));
    }

    @Test
    void stagesAndStepsAreImmutable() {
        ExecutionPlan plan = ragWithParallelGroup();

        assertThatThrownBy(() -> plan.stages().clear()).isInstanceOf(UnsupportedOperationException.class);
        assertThatThrownBy(() -> plan.steps().clear()).isInstanceOf(UnsupportedOperationException.class);
        assertThatThrownBy(() -> plan.stages().get(1).steps().clear())
                .isInstanceOf(UnsupportedOperationException.class);
    }

    @Test
    void aTraceIsAttachedWhenItCountsThePlansSteps() {
        ExecutionPlan plan = ragWithParallelGroup();
        Instant created = Instant.parse("2026-01-01T00:00:00Z");

        ExecutionPlan traced = plan.withTrace(PlanTrace.forPlan("static", "fixed pipeline", created, plan));

        assertThat(traced.trace()).hasValueSatisfying(trace -> {
            assertThat(trace.plannerId()).isEqualTo("static");
            assertThat(trace.stepCount()).isEqualTo(4);
            assertThat(trace.createdAt()).isEqualTo(created);
        });
        assertThat(plan.trace()).isEmpty();
    }

    @Test
    void aTraceWhoseStepCountDiffersFromThePlanIsRefused() {
        PlanTrace wrong = new PlanTrace("llm", "", Instant.EPOCH, 2);

        assertThatThrownBy(() -> ragWithParallelGroup().withTrace(wrong))
                .isInstanceOfSatisfying(PaganticException.class, e -> {
                    assertThat(e.code()).isEqualTo(ErrorCode.CONFIG_INVALID);
                    assertThat(e.details()).containsEntry("trace_step_count", 2).containsEntry("step_count", 4);
                });
    }
}
