package dev.pagantic.orchestrate.plan;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.pagantic.core.ErrorCode;
import dev.pagantic.core.PaganticException;
import java.time.Instant;
import org.junit.jupiter.api.Test;

class PlanTraceTest {

    @Test
    void forPlanCountsEveryStepIncludingParallelOnes() {
        ExecutionPlan plan = ExecutionPlan.builder()
                .parallel(Step.of("a", StepType.RETRIEVE), Step.of("b", StepType.RETRIEVE))
                .step(Step.of("c", StepType.INFER))
                .build();

        PlanTrace trace = PlanTrace.forPlan("static", "two sources then answer", Instant.EPOCH, plan);

        assertThat(trace.stepCount()).isEqualTo(3);
        assertThat(trace.rationale()).isEqualTo("two sources then answer");
    }

    @Test
    void aTraceNeedsAPlannerIdATimeAndAtLeastOneStep() {
        assertThatThrownBy(() -> new PlanTrace(" ", "", Instant.EPOCH, 1))
                .isInstanceOfSatisfying(PaganticException.class,
                        e -> assertThat(e.code()).isEqualTo(ErrorCode.CONFIG_INVALID));
        assertThatThrownBy(() -> new PlanTrace("p", "", null, 1)).isInstanceOf(PaganticException.class);
        assertThatThrownBy(() -> new PlanTrace("p", null, Instant.EPOCH, 1)).isInstanceOf(PaganticException.class);
        assertThatThrownBy(() -> new PlanTrace("p", "", Instant.EPOCH, 0)).isInstanceOf(PaganticException.class);
    }
}
