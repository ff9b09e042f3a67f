package dev.pagantic.engine.routing;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.catchThrowableOfType;

import dev.pagantic.core.ErrorCode;
import dev.pagantic.core.PaganticException;
import dev.pagantic.inference.Request;
import dev.pagantic.inference.Result;
import dev.pagantic.testkit.FailingEngine;
import dev.pagantic.testkit.ScriptedEngine;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/** Replica health: unhealthy after failures, skipped for a cooldown, half-open after it, healthy after a success. */
class ReplicaHealthTest {

    private static final Request HELLO = Request.of("hello");
    private static final Duration COOLDOWN = Duration.ofSeconds(5);

    private final ManualClock clock = new ManualClock();
    private final ExecutorService callers = Executors.newSingleThreadExecutor();

    @AfterEach
    void stopTheCallers() throws InterruptedException {
        callers.shutdownNow();
        callers.awaitTermination(10, TimeUnit.SECONDS);
    }

    @Test
    void aFailingReplicaIsSkippedDuringItsCooldownTriedAfterItAndRecoversOnSuccess() {
        FakeReplica a = FakeReplica.named("a");
        FakeReplica b = FakeReplica.named("b");
        RoutingEngine engine = RoutingEngine.builder().replicas(a, b).cooldown(COOLDOWN).clock(clock).build();
        Instant start = clock.instant();
        a.kill();

        assertThat(engine.infer(HELLO).content()).as("failed over").isEqualTo("b");
        ReplicaHealth marked = engine.health().get(0);
        assertThat(marked.healthy()).isFalse();
        assertThat(marked.consecutiveFailures()).isEqualTo(1);
        assertThat(marked.unhealthyUntil()).contains(start.plus(COOLDOWN));

        a.revive();
        clock.advance(COOLDOWN.minusMillis(1));
        for (int i = 0; i < 4; i++) {
            assertThat(engine.infer(HELLO).content()).as("a is skipped during its cooldown").isEqualTo("b");
        }
        assertThat(a.calls()).isEqualTo(1);

        clock.advance(Duration.ofMillis(1));
        assertThat(engine.infer(HELLO).content()).as("the trial call after the cooldown").isEqualTo("a");
        ReplicaHealth recovered = engine.health().get(0);
        assertThat(recovered.healthy()).isTrue();
        assertThat(recovered.consecutiveFailures()).isZero();
        assertThat(recovered.unhealthyUntil()).isEmpty();
        assertThat(recovered.requestsServed()).isEqualTo(1);
        assertThat(engine.infer(HELLO).content()).as("back in turn").isEqualTo("b");
        assertThat(engine.infer(HELLO).content()).isEqualTo("a");
    }

    @Test
    void aFailedTrialStartsAnotherCooldownAndTheCallFailsOver() {
        FakeReplica a = FakeReplica.named("a");
        FakeReplica b = FakeReplica.named("b");
        RoutingEngine engine = RoutingEngine.builder().replicas(a, b).cooldown(COOLDOWN).clock(clock).build();
        a.kill();
        engine.infer(HELLO);

        clock.advance(COOLDOWN);
        Instant trial = clock.instant();
        assertThat(engine.infer(HELLO).content()).as("the trial failed over").isEqualTo("b");

        assertThat(a.calls()).isEqualTo(2);
        ReplicaHealth health = engine.health().get(0);
        assertThat(health.healthy()).isFalse();
        assertThat(health.consecutiveFailures()).isEqualTo(2);
        assertThat(health.unhealthyUntil()).contains(trial.plus(COOLDOWN));
        clock.advance(COOLDOWN.minusMillis(1));
        engine.infer(HELLO);
        engine.infer(HELLO);
        assertThat(a.calls()).as("skipped during the new cooldown").isEqualTo(2);
    }

    @Test
    void aReplicaIsMarkedUnhealthyOnlyAfterTheConfiguredFailuresInARow() {
        FakeReplica a = FakeReplica.named("a");
        FakeReplica b = FakeReplica.named("b");
        RoutingEngine engine = RoutingEngine.builder().replicas(a, b).unhealthyAfter(2).cooldown(COOLDOWN)
                .clock(clock).build();
        a.kill();

        assertThat(engine.infer(HELLO).content()).isEqualTo("b");
        assertThat(engine.health().get(0).healthy()).as("one failure of two").isTrue();
        assertThat(engine.health().get(0).consecutiveFailures()).isEqualTo(1);

        assertThat(engine.infer(HELLO).content()).isEqualTo("b");
        assertThat(engine.health().get(0).healthy()).as("two failures of two").isFalse();
        assertThat(a.calls()).isEqualTo(2);
    }

    @Test
    void aSuccessResetsTheFailuresInARow() {
        FailingEngine a = FailingEngine.builder().failures(1).delegate(ScriptedEngine.replying("a1", "a2")).build();
        ScriptedEngine b = ScriptedEngine.replying("b1", "b2");
        RoutingEngine engine = RoutingEngine.builder().replicas(a, b).unhealthyAfter(2).build();

        assertThat(engine.infer(HELLO).content()).isEqualTo("b1"); // a fails once, b answers
        assertThat(engine.infer(HELLO).content()).isEqualTo("a1");

        ReplicaHealth health = engine.health().get(0);
        assertThat(health.healthy()).isTrue();
        assertThat(health.consecutiveFailures()).isZero();
    }

    @Test
    void whenNoReplicaIsHealthyTheOneWhoseCooldownEndsFirstIsTried() {
        FakeReplica a = FakeReplica.named("a");
        FakeReplica b = FakeReplica.named("b");
        RoutingEngine engine = RoutingEngine.builder().replicas(a, b).failover(false).cooldown(COOLDOWN)
                .clock(clock).build();
        assertThat(engine.infer(HELLO).content()).isEqualTo("a");
        b.kill();
        assertThatThrownBy(() -> engine.infer(HELLO)).isInstanceOf(PaganticException.class); // b: until +5 s
        clock.advance(Duration.ofSeconds(1));
        a.kill();
        assertThatThrownBy(() -> engine.infer(HELLO)).isInstanceOf(PaganticException.class); // a: until +6 s
        assertThat(engine.health()).noneMatch(ReplicaHealth::healthy);

        a.revive();
        b.revive();
        clock.advance(Duration.ofSeconds(1)); // both still cooling down

        assertThat(engine.infer(HELLO).content()).as("b's cooldown ends first").isEqualTo("b");
        assertThat(engine.health().get(1).healthy()).isTrue();
        assertThat(engine.health().get(0).healthy()).isFalse();
    }

    @Test
    void aFleetThatIsEntirelyDownFailsOverToTheReplicaThatRecoversFirst() {
        FakeReplica a = FakeReplica.named("a");
        FakeReplica b = FakeReplica.named("b");
        RoutingEngine engine = RoutingEngine.builder().replicas(a, b).cooldown(COOLDOWN).clock(clock).build();
        a.kill();
        b.kill();
        PaganticException failure = catchThrowableOfType(PaganticException.class, () -> engine.infer(HELLO));
        assertThat(failure.code()).isEqualTo(ErrorCode.INFERENCE_ENGINE_ERROR);
        assertThat(a.calls() + b.calls()).as("one call and one retry").isEqualTo(2);

        b.revive();
        Result result = engine.infer(HELLO); // a and b cool down until the same instant: the tie goes to a

        assertThat(result.content()).as("a failed, the retry went to b, the only other replica").isEqualTo("b");
        assertThat(engine.health().get(1).healthy()).isTrue();
    }

    @Test
    void afterTheCooldownOnlyOneTrialCallAtATimeGoesToTheReplica() throws Exception {
        FakeReplica a = FakeReplica.named("a");
        FakeReplica b = FakeReplica.named("b");
        RoutingEngine engine = RoutingEngine.builder().replicas(a, b).cooldown(COOLDOWN).clock(clock).build();
        a.kill();
        engine.infer(HELLO); // a marked unhealthy; the call went to b, and a is next in turn
        a.revive();
        a.hold();
        clock.advance(COOLDOWN);

        CompletableFuture<Result> trial = CompletableFuture.supplyAsync(() -> engine.infer(HELLO), callers);
        a.awaitEntry(); // the failed call's entry
        a.awaitEntry(); // the trial's
        List<String> duringTheTrial = List.of(engine.infer(HELLO).content(), engine.infer(HELLO).content(),
                engine.infer(HELLO).content());
        a.release();

        assertThat(trial.get(20, TimeUnit.SECONDS).content()).isEqualTo("a");
        assertThat(duringTheTrial).containsOnly("b");
        assertThat(engine.health().get(0).healthy()).isTrue();
    }

    @Test
    void aSuccessOfACallThatStartedBeforeTheReplicaWasMarkedUnhealthyDoesNotMakeItHealthy() throws Exception {
        FakeReplica a = FakeReplica.named("a");
        FakeReplica b = FakeReplica.named("b");
        RoutingEngine engine = RoutingEngine.builder().replicas(a, b).cooldown(COOLDOWN).clock(clock).build();
        a.hold();
        CompletableFuture<Result> early = CompletableFuture.supplyAsync(() -> engine.infer(HELLO), callers);
        a.awaitEntry();
        a.kill(); // the held call entered before: it will still succeed
        assertThat(engine.infer(HELLO).content()).isEqualTo("b");
        assertThat(engine.infer(HELLO).content()).as("a failed, b answered").isEqualTo("b");
        assertThat(engine.health().get(0).healthy()).isFalse();

        a.release();

        assertThat(early.get(20, TimeUnit.SECONDS).content()).isEqualTo("a");
        ReplicaHealth health = engine.health().get(0);
        assertThat(health.healthy()).as("the early success reports on the time before the outage").isFalse();
        assertThat(health.requestsServed()).isEqualTo(1);
    }

    @Test
    void theHealthSnapshotIsImmutableAndDoesNotChangeWithLaterCalls() {
        FakeReplica a = FakeReplica.named("a");
        RoutingEngine engine = RoutingEngine.builder().replicas(a).build();
        List<ReplicaHealth> before = engine.health();

        engine.infer(HELLO);

        assertThat(before).singleElement().satisfies(replica -> {
            assertThat(replica.index()).isZero();
            assertThat(replica.modelName()).isEqualTo("a");
            assertThat(replica.healthy()).isTrue();
            assertThat(replica.inFlight()).isZero();
            assertThat(replica.requestsServed()).isZero();
        });
        assertThat(engine.health().get(0).requestsServed()).isEqualTo(1);
        assertThatThrownBy(() -> before.add(before.get(0))).isInstanceOf(UnsupportedOperationException.class);
    }
}
