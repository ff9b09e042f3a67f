package dev.pagantic.orchestrate.lifecycle;

import static dev.pagantic.orchestrate.lifecycle.LifecycleState.CANCELLED;
import static dev.pagantic.orchestrate.lifecycle.LifecycleState.COMPLETE;
import static dev.pagantic.orchestrate.lifecycle.LifecycleState.ERROR;
import static dev.pagantic.orchestrate.lifecycle.LifecycleState.EXECUTE;
import static dev.pagantic.orchestrate.lifecycle.LifecycleState.INIT;
import static dev.pagantic.orchestrate.lifecycle.LifecycleState.PLAN;
import static dev.pagantic.orchestrate.lifecycle.LifecycleState.PREPARE;
import static dev.pagantic.orchestrate.lifecycle.LifecycleState.VALIDATE;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.pagantic.core.CallContext;
import dev.pagantic.core.ErrorCode;
import dev.pagantic.core.IdGenerator;
import dev.pagantic.core.PaganticException;
import java.time.Instant;
import java.time.InstantSource;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.Test;

class ExecutionLifecycleTest {

    private static final Instant T0 = Instant.parse("2026-01-01T00:00:00Z");

    private final AtomicLong millis = new AtomicLong();
    private final InstantSource clock = () -> T0.plusMillis(millis.getAndAdd(10));
    private final CallContext ctx = CallContext.builder().clock(clock).idGenerator(IdGenerator.sequential("id-"))
            .requestId("req-1").build();
    private final List<Transition> transitions = new ArrayList<>();

    private ExecutionLifecycle start(PatternPath path) {
        return ExecutionLifecycle.start(ctx, path, transitions::add);
    }

    private List<LifecycleState> visited() {
        List<LifecycleState> states = new ArrayList<>();
        states.add(INIT);
        transitions.forEach(t -> states.add(t.to()));
        return states;
    }

    @Test
    void agentLoopCompletesFromExecuteWithoutValidating() {
        ExecutionLifecycle lifecycle = start(PatternPath.AGENT_LOOP);

        lifecycle.prepare("tools resolved");
        lifecycle.execute("tool loop");
        lifecycle.complete("final answer");

        assertThat(visited()).containsExactly(INIT, PREPARE, EXECUTE, COMPLETE);
        assertThat(lifecycle.state().current()).isEqualTo(COMPLETE);
    }

    @Test
    void specializedLoopRetriesFromValidateAndCountsAttempts() {
        ExecutionLifecycle lifecycle = start(PatternPath.SPECIALIZED_LOOP);

        lifecycle.prepare("schema ready");
        lifecycle.execute("inference");
        lifecycle.validate("constraint pipeline");
        lifecycle.retry("CONSTRAINT_SCHEMA_INVALID: missing field");
        lifecycle.validate("constraint pipeline");
        lifecycle.complete("valid");

        assertThat(visited()).containsExactly(INIT, PREPARE, EXECUTE, VALIDATE, EXECUTE, VALIDATE, COMPLETE);
        assertThat(lifecycle.state().attempt()).isEqualTo(2);
        assertThat(transitions.get(3).attempt()).isEqualTo(2);
        assertThat(transitions.get(3).reason()).contains("missing field");
    }

    @Test
    void specializedLoopCannotCompleteWithoutValidating() {
        ExecutionLifecycle lifecycle = start(PatternPath.SPECIALIZED_LOOP);
        lifecycle.prepare("p");
        lifecycle.execute("e");

        assertThatThrownBy(() -> lifecycle.complete("too early"))
                .isInstanceOf(IllegalStateException.class).hasMessageContaining("EXECUTE -> COMPLETE");
    }

    @Test
    void planExecutorPassesThroughPlanAndCountsSteps() {
        ExecutionLifecycle lifecycle = start(PatternPath.PLAN_EXECUTOR);

        lifecycle.plan("planner");
        lifecycle.prepare("handlers");
        lifecycle.execute("steps");
        lifecycle.stepCompleted("retrieve");
        lifecycle.stepCompleted("infer");
        lifecycle.validate("validate step");
        lifecycle.complete("done");

        assertThat(visited()).containsExactly(INIT, PLAN, PREPARE, EXECUTE, VALIDATE, COMPLETE);
        assertThat(lifecycle.state().totalSteps()).isEqualTo(2);
        assertThat(lifecycle.state().lastStep()).isEqualTo("infer");
    }

    @Test
    void onlyThePlanExecutorVisitsPlan() {
        assertThatThrownBy(() -> start(PatternPath.AGENT_LOOP).plan("no"))
                .isInstanceOf(IllegalStateException.class).hasMessageContaining("never visits PLAN");
    }

    @Test
    void redundantLoopNeverRetriesFromValidateBecauseVotingReplacesRetry() {
        ExecutionLifecycle lifecycle = start(PatternPath.REDUNDANT_LOOP);
        lifecycle.prepare("p");
        lifecycle.execute("N inferences");
        lifecycle.validate("vote");

        assertThatThrownBy(() -> lifecycle.retry("again"))
                .isInstanceOf(IllegalStateException.class).hasMessageContaining("does not retry");
    }

    @Test
    void statesCannotBeSkippedOrRevisitedOutOfOrder() {
        ExecutionLifecycle lifecycle = start(PatternPath.SPECIALIZED_LOOP);

        assertThatThrownBy(() -> lifecycle.execute("skip prepare")).isInstanceOf(IllegalStateException.class);
        lifecycle.prepare("p");
        assertThatThrownBy(() -> lifecycle.prepare("twice")).isInstanceOf(IllegalStateException.class);
        assertThatThrownBy(() -> lifecycle.retry("not validating")).isInstanceOf(IllegalStateException.class);
        assertThat(transitions).hasSize(1);
    }

    @Test
    void aFailureEndsInErrorAndBecomesTheLastError() {
        ExecutionLifecycle lifecycle = start(PatternPath.AGENT_LOOP);
        lifecycle.prepare("p");
        lifecycle.execute("e");
        PaganticException failure = PaganticException.of(ErrorCode.ORCHESTRATION_ITERATION_LIMIT, "20 rounds");

        lifecycle.fail(failure);

        assertThat(lifecycle.state().current()).isEqualTo(ERROR);
        assertThat(lifecycle.state().lastError()).contains(failure);
        assertThat(transitions.get(transitions.size() - 1).reason()).startsWith("ORCHESTRATION_ITERATION_LIMIT");
    }

    @Test
    void aCancellationEndsInCancelledFromAnyNonTerminalState() {
        ExecutionLifecycle lifecycle = start(PatternPath.PLAN_EXECUTOR);
        lifecycle.plan("p");

        lifecycle.fail(PaganticException.of(ErrorCode.CANCELLED_TIMEOUT, "deadline"));

        assertThat(visited()).containsExactly(INIT, PLAN, CANCELLED);
    }

    @Test
    void aTerminalStateHasNoWayOut() {
        ExecutionLifecycle lifecycle = start(PatternPath.AGENT_LOOP);
        lifecycle.fail(PaganticException.of(ErrorCode.CONFIG_NO_ENGINE, "none"));

        assertThatThrownBy(() -> lifecycle.prepare("again")).isInstanceOf(IllegalStateException.class);
        assertThatThrownBy(() -> lifecycle.fail(PaganticException.of(ErrorCode.CANCELLED_SIGNAL, "late")))
                .isInstanceOf(IllegalStateException.class);
        assertThat(lifecycle.state().current()).isEqualTo(ERROR);
    }

    @Test
    void aRecoveredErrorIsRecordedWithoutATransition() {
        ExecutionLifecycle lifecycle = start(PatternPath.REDUNDANT_LOOP);
        PaganticException replicaFailure = PaganticException.of(ErrorCode.INFERENCE_ENGINE_ERROR, "replica 2");

        lifecycle.recordRecoveredError(replicaFailure);

        assertThat(lifecycle.state().current()).isEqualTo(INIT);
        assertThat(lifecycle.state().lastError()).contains(replicaFailure);
        assertThat(transitions).isEmpty();
    }

    @Test
    void transitionsCarryTheCorrelationAndTheClocksTime() {
        ExecutionLifecycle lifecycle = start(PatternPath.AGENT_LOOP);

        lifecycle.prepare("p");

        Transition transition = transitions.get(0);
        assertThat(transition.correlation().requestId()).isEqualTo("req-1");
        assertThat(transition.from()).isEqualTo(INIT);
        assertThat(transition.to()).isEqualTo(PREPARE);
        assertThat(transition.at()).isAfter(T0);
        assertThat(lifecycle.state().enteredAt()).isEqualTo(transition.at());
    }

    @Test
    void everyPathVisitsInitAndTheTerminalStates() {
        for (PatternPath path : PatternPath.values()) {
            assertThat(path.visits(INIT)).isTrue();
            assertThat(path.visits(COMPLETE)).isTrue();
            assertThat(path.visits(ERROR)).isTrue();
            assertThat(path.visits(CANCELLED)).isTrue();
        }
    }
}
