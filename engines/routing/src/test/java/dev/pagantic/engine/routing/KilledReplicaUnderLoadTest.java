package dev.pagantic.engine.routing;

import static org.assertj.core.api.Assertions.assertThat;

import dev.pagantic.core.CallContext;
import dev.pagantic.inference.Request;
import dev.pagantic.inference.Result;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/**
 * The requirement: with one replica killed mid-run under a stream of requests, every request id gets exactly
 * one response, and no request is sent to more than one replica except a single retry after a retryable failure.
 */
class KilledReplicaUnderLoadTest {

    private static final int REQUESTS = 200;
    private static final int THREADS = 8;
    private static final Request HELLO = Request.of("hello");

    @ParameterizedTest
    @EnumSource(RoutingEngine.Strategy.class)
    void everyRequestGetsExactlyOneResponseAndReachesASecondReplicaOnlyAfterARetryableFailure(
            RoutingEngine.Strategy strategy) throws Exception {
        List<FakeReplica> replicas = List.of(FakeReplica.named("r0"), FakeReplica.named("r1"),
                FakeReplica.named("r2"));
        replicas.forEach(replica -> replica.delay(Duration.ofMillis(1))); // so that calls overlap
        FakeReplica victim = replicas.get(1);
        // A short cooldown on the system clock: the dead replica gets trial calls (which fail and fail over) while
        // the run lasts, so that path is exercised under load too.
        RoutingEngine engine = RoutingEngine.builder().replicas(replicas).strategy(strategy)
                .cooldown(Duration.ofMillis(20)).build();

        Map<String, List<Result>> responses = new ConcurrentHashMap<>();
        Map<String, Throwable> failures = new ConcurrentHashMap<>();
        AtomicInteger started = new AtomicInteger();
        List<String> ids = new ArrayList<>();
        ExecutorService callers = Executors.newFixedThreadPool(THREADS);
        try {
            List<Future<?>> calls = new ArrayList<>();
            for (int i = 0; i < REQUESTS; i++) {
                String id = "req-" + i;
                ids.add(id);
                calls.add(callers.submit(() -> {
                    if (started.incrementAndGet() == REQUESTS / 3) {
                        victim.kill();
                    }
                    try {
                        Result result = engine.infer(CallContext.builder().requestId(id).build(), HELLO);
                        responses.computeIfAbsent(id, key -> new CopyOnWriteArrayList<>()).add(result);
                    } catch (RuntimeException e) {
                        failures.put(id, e);
                    }
                }));
            }
            for (Future<?> call : calls) {
                call.get(30, TimeUnit.SECONDS); // a hang guard, not a speed limit
            }
        } finally {
            callers.shutdownNow();
            callers.awaitTermination(10, TimeUnit.SECONDS);
        }

        assertThat(failures).as("no request failed").isEmpty();
        assertThat(responses.keySet()).containsExactlyInAnyOrderElementsOf(ids);
        assertThat(responses.values()).as("no request was answered twice")
                .allSatisfy(list -> assertThat(list).hasSize(1));

        for (String id : ids) {
            List<FakeReplica> sawIt = new ArrayList<>();
            for (FakeReplica replica : replicas) {
                int times = Collections.frequency(replica.seenIds(), id);
                assertThat(times).as("%s saw %s", replica, id).isLessThanOrEqualTo(1);
                if (times == 1) {
                    sawIt.add(replica);
                }
            }
            List<FakeReplica> failedIt = sawIt.stream().filter(replica -> replica.failedIds().contains(id)).toList();
            List<FakeReplica> answeredIt = sawIt.stream().filter(replica -> !replica.failedIds().contains(id))
                    .toList();
            assertThat(answeredIt).as("replicas that answered %s", id).hasSize(1);
            assertThat(sawIt).as("replicas that saw %s", id).hasSizeBetween(1, 2);
            assertThat(failedIt).as("a second replica saw %s only after the first failed it", id)
                    .hasSize(sawIt.size() - 1);
            assertThat(responses.get(id).get(0).content()).as("the response to %s", id)
                    .isEqualTo(answeredIt.get(0).modelInfo().name());
        }

        assertThat(victim.failedIds()).as("the killed replica failed calls, which were retried").isNotEmpty();
        assertThat(replicas).filteredOn(replica -> replica != victim)
                .allSatisfy(replica -> assertThat(replica.failedIds()).isEmpty());
        int callsMade = replicas.stream().mapToInt(FakeReplica::calls).sum();
        assertThat(callsMade).as("one call per request plus one retry per failure")
                .isEqualTo(REQUESTS + victim.failedIds().size());
        assertThat(engine.health()).extracting(ReplicaHealth::inFlight).containsOnly(0);
    }
}
