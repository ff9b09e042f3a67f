package dev.pagantic.orchestrate.plan;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatCode;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.pagantic.core.CallContext;
import dev.pagantic.core.ErrorCode;
import dev.pagantic.core.FailureCategory;
import dev.pagantic.core.PaganticException;
import java.time.Duration;
import java.time.Instant;
import java.time.InstantSource;
import java.util.List;
import java.util.Set;
import java.util.stream.IntStream;
import org.junit.jupiter.api.Test;

class PlanPolicyTest {

    private static final StepType SUMMARIZE = StepType.of("summarize");

    private static ExecutionPlan rag() {
        return ExecutionPlan.of(
                Step.of("retrieve", StepType.RETRIEVE, StepInput.text("q")),
                Step.of("rerank", StepType.RERANK),
                Step.of("infer", StepType.INFER));
    }

    private static ExecutionPlan linearOf(int steps) {
        return ExecutionPlan.of(IntStream.rangeClosed(1, steps)
                .mapToObj(i -> Step.of("step-" + i, StepType.INFER)).toList());
    }

    @Test
    void defaultsAllowTenStepsOfAnyTypeInParallelWithoutAPerStepTimeout() {
        PlanPolicy defaults = PlanPolicy.defaults();

        assertThat(defaults.maxSteps()).isEqualTo(PlanPolicy.DEFAULT_MAX_STEPS).isEqualTo(10);
        assertThat(defaults.allowedStepTypes()).isEmpty();
        assertThat(defaults.allows(SUMMARIZE)).isTrue();
        assertThat(defaults.requireLinear()).isFalse();
        assertThat(defaults.timeoutPerStep()).isEmpty();
    }

    @Test
    void aConformingPlanPasses() {
        PlanPolicy policy = PlanPolicy.builder()
                .maxSteps(3)
                .allowedStepTypes(StepType.RETRIEVE, StepType.RERANK, StepType.INFER)
                .requireLinear(true)
                .build();

        assertThatCode(() -> policy.check(rag())).doesNotThrowAnyException();
    }

    @Test
    void aPlanLongerThanMaxStepsIsRejectedNamingTheFirstStepBeyondTheLimit() {
        PlanPolicy policy = PlanPolicy.builder().maxSteps(2).build();

        assertThatThrownBy(() -> policy.check(linearOf(3))).isInstanceOfSatisfying(PaganticException.class, e -> {
            assertThat(e.code()).isEqualTo(ErrorCode.CONFIG_INVALID);
            assertThat(e.category()).isEqualTo(FailureCategory.CONFIGURATION);
            assertThat(e.retryable()).isFalse();
            assertThat(e.details())
                    .containsEntry("rule", PlanPolicy.RULE_MAX_STEPS)
                    .containsEntry("step", "step-3")
                    .containsEntry("step_count", 3)
                    .containsEntry("max_steps", 2);
        });
    }

    @Test
    void stepsInParallelGroupsCountTowardsMaxSteps() {
        ExecutionPlan plan = ExecutionPlan.builder()
                .parallel(Step.of("a", StepType.RETRIEVE), Step.of("b", StepType.RETRIEVE))
                .step(Step.of("c", StepType.INFER))
                .build();

        assertThatThrownBy(() -> PlanPolicy.builder().maxSteps(2).build().check(plan))
                .isInstanceOfSatisfying(PaganticException.class,
                        e -> assertThat(e.details()).containsEntry("step", "c"));
    }

    @Test
    void requireLinearRejectsAParallelGroupNamingItsFirstStep() {
        ExecutionPlan plan = ExecutionPlan.builder()
                .step(Step.of("retrieve", StepType.RETRIEVE, StepInput.text("q")))
                .parallel(Step.of("summarize", SUMMARIZE), Step.of("infer", StepType.INFER))
                .build();
        PlanPolicy policy = PlanPolicy.builder().requireLinear(true).build();

        assertThatThrownBy(() -> policy.check(plan)).isInstanceOfSatisfying(PaganticException.class, e -> {
            assertThat(e.code()).isEqualTo(ErrorCode.CONFIG_INVALID);
            assertThat(e.details())
                    .containsEntry("rule", PlanPolicy.RULE_REQUIRE_LINEAR)
                    .containsEntry("step", "summarize")
                    .containsEntry("stage", 1)
                    .containsEntry("group", List.of("summarize", "infer"));
        });
        assertThatCode(() -> PlanPolicy.defaults().check(plan)).doesNotThrowAnyException();
    }

    @Test
    void aStepTypeOutsideAllowedStepTypesIsRejectedNamingStepAndType() {
        PlanPolicy policy = PlanPolicy.builder().allowedStepTypes(StepType.RETRIEVE, StepType.INFER).build();

        assertThatThrownBy(() -> policy.check(rag())).isInstanceOfSatisfying(PaganticException.class, e -> {
            assertThat(e.code()).isEqualTo(ErrorCode.CONFIG_INVALID);
            assertThat(e.details())
                    .containsEntry("rule", PlanPolicy.RULE_ALLOWED_STEP_TYPES)
                    .containsEntry("step", "rerank")
                    .containsEntry("step_type", "rerank")
                    .containsEntry("allowed_step_types", List.of("retrieve", "infer"));
        });
    }

    @Test
    void rulesAreCheckedInOrderMaxStepsFirst() {
        PlanPolicy policy = PlanPolicy.builder().maxSteps(1).allowedStepTypes(SUMMARIZE).build();

        assertThatThrownBy(() -> policy.check(rag())).isInstanceOfSatisfying(PaganticException.class,
                e -> assertThat(e.details()).containsEntry("rule", PlanPolicy.RULE_MAX_STEPS));
    }

    @Test
    void aStepTypeWithoutARegisteredHandlerIsRejectedBeforeExecution() {
        Set<StepType> registered = Set.of(StepType.RETRIEVE, StepType.INFER);

        assertThatThrownBy(() -> PlanPolicy.defaults().check(rag(), registered))
                .isInstanceOfSatisfying(PaganticException.class, e -> {
                    assertThat(e.code()).isEqualTo(ErrorCode.CONFIG_INVALID);
                    assertThat(e.details())
                            .containsEntry("rule", PlanPolicy.RULE_REGISTERED_HANDLERS)
                            .containsEntry("step", "rerank")
                            .containsEntry("step_type", "rerank")
                            .containsEntry("registered_step_types", List.of("infer", "retrieve"));
                });
        assertThatCode(() -> PlanPolicy.defaults().check(rag(),
                Set.of(StepType.RETRIEVE, StepType.RERANK, StepType.INFER))).doesNotThrowAnyException();
    }

    @Test
    void permittedStepTypesAreTheRegisteredOnesThePolicyAllowsSortedByName() {
        PlanPolicy policy = PlanPolicy.builder().allowedStepTypes(StepType.INFER, SUMMARIZE, StepType.TOOL).build();
        List<StepType> registered = List.of(StepType.TOOL, StepType.RETRIEVE, SUMMARIZE, StepType.INFER);

        assertThat(policy.permittedStepTypes(registered)).containsExactly(StepType.INFER, SUMMARIZE, StepType.TOOL);
        assertThat(PlanPolicy.defaults().permittedStepTypes(registered))
                .containsExactly(StepType.INFER, StepType.RETRIEVE, SUMMARIZE, StepType.TOOL);
    }

    @Test
    void theStepContextCarriesThePerStepDeadline() {
        Instant now = Instant.parse("2026-01-01T00:00:00Z");
        CallContext ctx = CallContext.builder().clock(InstantSource.fixed(now)).build();
        PlanPolicy policy = PlanPolicy.builder().timeoutPerStep(Duration.ofSeconds(30)).build();

        assertThat(policy.stepContext(ctx).deadline()).contains(now.plusSeconds(30));
        assertThat(PlanPolicy.defaults().stepContext(ctx)).isSameAs(ctx);
    }

    @Test
    void invalidSettingsAreRefusedAtBuild() {
        for (PlanPolicy.Builder builder : List.of(
                PlanPolicy.builder().maxSteps(0),
                PlanPolicy.builder().timeoutPerStep(Duration.ZERO),
                PlanPolicy.builder().timeoutPerStep(Duration.ofSeconds(-1)),
                PlanPolicy.builder().allowedStepTypes((StepType) null))) {
            assertThatThrownBy(builder::build).isInstanceOfSatisfying(PaganticException.class,
                    e -> assertThat(e.code()).isEqualTo(ErrorCode.CONFIG_INVALID));
        }
    }

    @Test
    void toBuilderRoundTripsAndAllowedStepTypesAreImmutable() {
        PlanPolicy policy = PlanPolicy.builder().maxSteps(4).allowedStepTypes(StepType.INFER).requireLinear(true)
                .timeoutPerStep(Duration.ofSeconds(5)).build();

        assertThat(policy.toBuilder().build()).isEqualTo(policy);
        assertThat(policy.toBuilder().allowAnyStepType().noTimeoutPerStep().build().allows(SUMMARIZE)).isTrue();
        assertThatThrownBy(() -> policy.allowedStepTypes().add(SUMMARIZE))
                .isInstanceOf(UnsupportedOperationException.class);
    }
}
