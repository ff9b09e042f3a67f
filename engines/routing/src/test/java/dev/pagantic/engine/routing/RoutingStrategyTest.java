package dev.pagantic.engine.routing;

import static org.assertj.core.api.Assertions.assertThat;

import dev.pagantic.inference.Request;
import dev.pagantic.inference.Result;
import dev.pagantic.testkit.ScriptedEngine;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/** Round robin spreads calls evenly; least-busy sends a call to the idle replica. */
class RoutingStrategyTest {

    private static final Request HELLO = Request.of("hello");

    private final ExecutorService callers = Executors.newFixedThreadPool(2);

    @AfterEach
    void stopTheCallers() throws InterruptedException {
        callers.shutdownNow();
        callers.awaitTermination(10, TimeUnit.SECONDS);
    }

    @Test
    void roundRobinIsTheDefaultAndSendsEachCallToTheNextReplicaInTurn() {
        FakeReplica a = FakeReplica.named("a");
        FakeReplica b = FakeReplica.named("b");
        FakeReplica c = FakeReplica.named("c");
        RoutingEngine engine = RoutingEngine.builder().replicas(a, b, c).build();

        List<String> answeredBy = new ArrayList<>();
        for (int i = 0; i < 6; i++) {
            answeredBy.add(engine.infer(HELLO).content());
        }

        assertThat(answeredBy).containsExactly("a", "b", "c", "a", "b", "c");
    }

    @Test
    void roundRobinSpreadsCallsEvenlyOverTheReplicas() {
        ScriptedEngine a = ScriptedEngine.replying(answers("a", 10));
        ScriptedEngine b = ScriptedEngine.replying(answers("b", 10));
        ScriptedEngine c = ScriptedEngine.replying(answers("c", 10));
        RoutingEngine engine = RoutingEngine.builder().replicas(a, b, c)
                .strategy(RoutingEngine.Strategy.ROUND_ROBIN).build();

        for (int i = 0; i < 30; i++) {
            engine.infer(HELLO);
        }

        assertThat(List.of(a.callCount(), b.callCount(), c.callCount())).containsOnly(10);
        assertThat(engine.health()).extracting(ReplicaHealth::requestsServed).containsExactly(10L, 10L, 10L);
    }

    @Test
    void leastBusySendsCallsToAnIdleReplicaWhileAnotherIsBusy() throws Exception {
        FakeReplica a = FakeReplica.named("a");
        FakeReplica b = FakeReplica.named("b");
        FakeReplica c = FakeReplica.named("c");
        RoutingEngine engine = RoutingEngine.builder().replicas(a, b, c)
                .strategy(RoutingEngine.Strategy.LEAST_BUSY).build();
        a.hold();

        CompletableFuture<Result> slow = CompletableFuture.supplyAsync(() -> engine.infer(HELLO), callers);
        a.awaitEntry(); // all idle: the tie goes to the first replica, which now holds the call
        List<String> whileBusy = new ArrayList<>();
        for (int i = 0; i < 3; i++) {
            whileBusy.add(engine.infer(HELLO).content());
        }
        assertThat(engine.health().get(0).inFlight()).isEqualTo(1);
        a.release();

        assertThat(slow.get(20, TimeUnit.SECONDS).content()).isEqualTo("a");
        // b and c are equally idle after each call, so the tie goes to b each time; a, busy, is never chosen.
        assertThat(whileBusy).containsExactly("b", "b", "b");
        assertThat(a.calls()).isEqualTo(1);
        assertThat(engine.health()).extracting(ReplicaHealth::inFlight).containsOnly(0);
    }

    @Test
    void leastBusySendsACallToTheOnlyIdleReplica() throws Exception {
        FakeReplica a = FakeReplica.named("a");
        FakeReplica b = FakeReplica.named("b");
        FakeReplica c = FakeReplica.named("c");
        RoutingEngine engine = RoutingEngine.builder().replicas(a, b, c)
                .strategy(RoutingEngine.Strategy.LEAST_BUSY).build();
        a.hold();
        b.hold();

        CompletableFuture<Result> first = CompletableFuture.supplyAsync(() -> engine.infer(HELLO), callers);
        a.awaitEntry();
        CompletableFuture<Result> second = CompletableFuture.supplyAsync(() -> engine.infer(HELLO), callers);
        b.awaitEntry();
        String third = engine.infer(HELLO).content();
        a.release();
        b.release();

        assertThat(third).isEqualTo("c");
        assertThat(first.get(20, TimeUnit.SECONDS).content()).isEqualTo("a");
        assertThat(second.get(20, TimeUnit.SECONDS).content()).isEqualTo("b");
    }

    private static String[] answers(String text, int count) {
        String[] answers = new String[count];
        Arrays.fill(answers, text);
        return answers;
    }
}
