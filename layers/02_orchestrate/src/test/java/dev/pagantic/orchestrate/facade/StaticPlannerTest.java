package dev.pagantic.orchestrate.facade;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.pagantic.core.CallContext;
import dev.pagantic.core.ErrorCode;
import dev.pagantic.core.PaganticException;
import dev.pagantic.orchestrate.plan.ExecutionPlan;
import dev.pagantic.orchestrate.plan.PlanTrace;
import dev.pagantic.orchestrate.plan.Step;
import dev.pagantic.orchestrate.plan.StepInput;
import dev.pagantic.orchestrate.plan.StepType;
import java.time.Instant;
import java.time.InstantSource;
import java.util.Map;
import org.junit.jupiter.api.Test;

class StaticPlannerTest {

    private static final Instant NOW = Instant.parse("2026-01-02T03:04:05Z");
    private static final CallContext CTX = CallContext.builder().clock(InstantSource.fixed(NOW)).build();

    private static final ExecutionPlan RAG = ExecutionPlan.of(
            Step.of("retrieve", StepType.RETRIEVE, StepInput.text("How do interfaces work?")),
            Step.of("rerank", StepType.RERANK),
            Step.of("answer", StepType.INFER));
    private static final ExecutionPlan DIRECT = ExecutionPlan.of(Step.of("answer", StepType.INFER));

    private static SystemRequest request(String text) {
        return SystemRequest.builder().mode(Mode.PLAN).user(text).build();
    }

    @Test
    void staticPlannerReturnsItsPlanWithATrace() {
        ExecutionPlan plan = StaticPlanner.of(RAG).createPlan(CTX, request("How do interfaces work?"));

        assertThat(plan.stages()).isEqualTo(RAG.stages());
        assertThat(plan.trace()).contains(new PlanTrace("static", "fixed plan", NOW, 3));
    }

    @Test
    void plannerIdAndRationaleAreConfigurable() {
        StaticPlanner planner = StaticPlanner.builder().plan(RAG).plannerId("rag-pipeline")
                .rationale("retrieval-augmented answer").build();

        PlanTrace trace = planner.createPlan(CTX, request("q")).trace().orElseThrow();

        assertThat(planner.plannerId()).isEqualTo("rag-pipeline");
        assertThat(trace.plannerId()).isEqualTo("rag-pipeline");
        assertThat(trace.rationale()).isEqualTo("retrieval-augmented answer");
    }

    @Test
    void aTraceAlreadyOnTheConfiguredPlanIsReplaced() {
        ExecutionPlan traced = RAG.withTrace(PlanTrace.forPlan("someone-else", "old", Instant.EPOCH, RAG));

        PlanTrace trace = StaticPlanner.of(traced).createPlan(CTX, request("q")).trace().orElseThrow();

        assertThat(trace).isEqualTo(new PlanTrace("static", "fixed plan", NOW, 3));
    }

    @Test
    void aLookupFunctionChoosesThePlanPerRequest() {
        StaticPlanner planner = StaticPlanner.of(request -> request.messages().get(0).content().endsWith("?")
                ? RAG : DIRECT);

        assertThat(planner.createPlan(CTX, request("Why?")).stepCount()).isEqualTo(3);
        ExecutionPlan direct = planner.createPlan(CTX, request("Say hi."));
        assertThat(direct.stepCount()).isEqualTo(1);
        assertThat(direct.trace().orElseThrow().rationale()).isEqualTo("plan chosen by lookup");
    }

    @Test
    void aPlanTableIsKeyedBySomethingInTheRequest() {
        StaticPlanner planner = StaticPlanner.builder()
                .table(request -> request.messages().get(0).content(), Map.of("rag", RAG, "direct", DIRECT))
                .build();

        ExecutionPlan plan = planner.createPlan(CTX, request("rag"));

        assertThat(plan.stages()).isEqualTo(RAG.stages());
        assertThat(plan.trace().orElseThrow().rationale()).isEqualTo("plan for key 'rag'");
    }

    @Test
    void aKeyWithoutAPlanIsAConfigurationError() {
        StaticPlanner planner = StaticPlanner.builder()
                .table(request -> request.messages().get(0).content(), Map.of("rag", RAG))
                .build();

        assertThatThrownBy(() -> planner.createPlan(CTX, request("unknown")))
                .isInstanceOfSatisfying(PaganticException.class, e -> {
                    assertThat(e.code()).isEqualTo(ErrorCode.CONFIG_INVALID);
                    assertThat(e.details()).containsEntry("key", "unknown").containsEntry("planner_id", "static");
                });
    }

    @Test
    void aLookupThatReturnsNoPlanIsAConfigurationError() {
        StaticPlanner planner = StaticPlanner.of(request -> null);

        assertThatThrownBy(() -> planner.createPlan(CTX, request("q")))
                .isInstanceOfSatisfying(PaganticException.class,
                        e -> assertThat(e.code()).isEqualTo(ErrorCode.CONFIG_INVALID));
    }

    @Test
    void aLookupThatThrowsIsWrappedAsAConfigurationError() {
        StaticPlanner planner = StaticPlanner.of(request -> {
            throw new IllegalStateException("boom");
        });

        assertThatThrownBy(() -> planner.createPlan(CTX, request("q")))
                .isInstanceOfSatisfying(PaganticException.class, e -> {
                    assertThat(e.code()).isEqualTo(ErrorCode.CONFIG_INVALID);
                    assertThat(e.getCause()).isInstanceOf(IllegalStateException.class);
                });
    }

    @Test
    void aStaticPlannerNeedsExactlyOneSourceOfPlans() {
        assertThatThrownBy(() -> StaticPlanner.builder().build())
                .isInstanceOfSatisfying(PaganticException.class,
                        e -> assertThat(e.code()).isEqualTo(ErrorCode.CONFIG_INVALID));
        assertThatThrownBy(() -> StaticPlanner.builder().plan(RAG).lookup(request -> DIRECT).build())
                .isInstanceOfSatisfying(PaganticException.class,
                        e -> assertThat(e.code()).isEqualTo(ErrorCode.CONFIG_INVALID));
        assertThatThrownBy(() -> StaticPlanner.builder().plan(RAG).plannerId(" ").build())
                .isInstanceOfSatisfying(PaganticException.class,
                        e -> assertThat(e.code()).isEqualTo(ErrorCode.CONFIG_INVALID));
    }

    @Test
    void aPlannerIsALambda() {
        Planner planner = (ctx, request) -> DIRECT;

        assertThat(planner.createPlan(CTX, request("q"))).isSameAs(DIRECT);
    }
}
