package dev.pagantic.adapter.temporal;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowable;
import static org.assertj.core.api.Assertions.catchThrowableOfType;

import dev.pagantic.core.CallContext;
import dev.pagantic.core.Cancellation;
import dev.pagantic.core.Schema;
import dev.pagantic.orchestrate.facade.FacadeJson;
import dev.pagantic.orchestrate.facade.Mode;
import dev.pagantic.orchestrate.facade.Orchestrator;
import dev.pagantic.orchestrate.facade.OutputContract;
import dev.pagantic.orchestrate.facade.SystemRequest;
import dev.pagantic.orchestrate.spi.Invocation;
import dev.pagantic.orchestrate.spi.InvocationKind;
import dev.pagantic.testkit.ScriptedEngine;
import io.temporal.failure.ApplicationFailure;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.Executor;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;

class InvocationActivitiesImplTest {

    private final ResultCodec codec = new ResultCodec();
    private final ReplayInterceptor interceptor = new ReplayInterceptor(codec);
    private final ScriptedEngine engine = ScriptedEngine.replying("Hello.");
    private final InvocationActivitiesImpl activities = new InvocationActivitiesImpl(
            Orchestrator.builder().engine(engine).interceptor(interceptor).build(), interceptor, codec,
            Duration.ofSeconds(10), Duration.ZERO);
    private final String request = FacadeJson.toJson(
            SystemRequest.builder().requestId("req-1").user("Hi").build());

    @Test
    void anAttemptWhileAnEarlierOneStillRunsIsRefusedAsRetryableWithoutCallingTheEngine() {
        interceptor.open("req-1", List.of(), null, Duration.ZERO); // the hung earlier attempt

        ApplicationFailure refused = catchThrowableOfType(() -> activities.advance(request, 0, List.of(), null),
                ApplicationFailure.class);

        assertThat(refused.getType()).isEqualTo(InvocationActivitiesImpl.EARLIER_ATTEMPT_RUNNING);
        assertThat(refused.isNonRetryable()).isFalse();
        assertThat(DurableOrchestrator.retryOptions(5, Duration.ofSeconds(1)).getDoNotRetry())
                .doesNotContain(InvocationActivitiesImpl.EARLIER_ATTEMPT_RUNNING);
        assertThat(engine.callCount()).isZero();
    }

    @Test
    void aCallAssumingJournalEntriesThisWorkerLacksIsRefusedNamingHowManyItHolds() {
        ApplicationFailure missed = catchThrowableOfType(() -> activities.advance(request, 1, List.of(), null),
                ApplicationFailure.class);

        assertThat(missed.getType()).isEqualTo(JournalCache.MISS);
        assertThat(missed.isNonRetryable()).isTrue();
        assertThat(missed.getDetails().get(Integer.class)).isZero();
        assertThat(engine.callCount()).isZero();
    }

    @Test
    void aWorkerJoinsTheEntriesItHoldsWithTheNewOnes() {
        JournalCache cache = new JournalCache(2);
        JournalEntry a = JournalEntry.failure("a", "INFERENCE_ENGINE_ERROR", "a");
        JournalEntry b = JournalEntry.failure("b", "INFERENCE_ENGINE_ERROR", "b");
        JournalEntry c = JournalEntry.failure("c", "INFERENCE_ENGINE_ERROR", "c");

        cache.resolve("run-1", 0, List.of(a, b));

        assertThat(cache.resolve("run-1", 2, List.of(c))).containsExactly(a, b, c);
        assertThat(cache.resolve("run-1", 1, List.of(b))).as("a shorter prefix, as a parallel sibling sends")
                .containsExactly(a, b);
        assertThat(cache.resolve("run-1", 3, List.of())).as("the longest journal is kept").containsExactly(a, b, c);
        cache.resolve("run-2", 0, List.of(a));
        cache.resolve("run-3", 0, List.of(a));
        assertThat(catchThrowableOfType(() -> cache.resolve("run-1", 1, List.of()), ApplicationFailure.class))
                .as("the least recently used run was evicted").isNotNull();
    }

    @Test
    void aStaleAttemptClosingItsSessionLeavesTheCurrentAttemptsSessionInPlace() {
        ReplayInterceptor.Session stale = interceptor.open("req-1", List.of(), null, Duration.ZERO);
        interceptor.close("req-1", stale);
        ReplayInterceptor.Session current = interceptor.open("req-1", List.of(), null, Duration.ZERO);

        interceptor.close("req-1", stale);

        assertThat(catchThrowableOfType(() -> activities.advance(request, 0, List.of(), null),
                ApplicationFailure.class))
                .as("the current attempt's session is still registered").isNotNull();
        interceptor.close("req-1", current);
        assertThat(activities.advance(request, 0, List.of(), null).next()).as("the engine call, recorded").isNotNull();
        assertThat(engine.callCount()).isEqualTo(1);
    }

    @Test
    void aReplicaThatReachesItsCallAfterTheRunIsOverNeverCallsTheEngine() throws InterruptedException {
        // The third replica's thread starts only when the test says so: after the activity has returned.
        CountDownLatch releaseLast = new CountDownLatch(1);
        AtomicInteger submitted = new AtomicInteger();
        List<Thread> threads = new CopyOnWriteArrayList<>();
        Executor replicas = task -> {
            boolean last = submitted.getAndIncrement() == 2;
            Thread thread = new Thread(() -> {
                if (last) {
                    awaitUninterruptibly(releaseLast);
                }
                task.run();
            });
            threads.add(thread);
            thread.start();
        };
        ScriptedEngine replicaEngine = ScriptedEngine.replying("{\"answer\": \"yes\"}", "{\"answer\": \"no\"}",
                "{\"answer\": \"yes\"}");
        InvocationActivitiesImpl redundant = new InvocationActivitiesImpl(Orchestrator.builder().engine(replicaEngine)
                .replicas(3).replicaExecutor(replicas).interceptor(interceptor).build(), interceptor, codec,
                Duration.ofSeconds(10), Duration.ofMillis(100));
        String redundantRequest = FacadeJson.toJson(SystemRequest.builder().requestId("req-2").mode(Mode.REDUNDANT)
                .user("Is it sunny?").output(OutputContract.of(Schema.object().required("answer", Schema.string())
                        .build())).build());

        InvocationActivities.Advance advance = redundant.advance(redundantRequest, 0, List.of(), null);
        releaseLast.countDown();
        for (Thread thread : threads) {
            thread.join(10_000);
        }

        assertThat(advance.pending()).as("the two replicas found together").hasSize(2);
        assertThat(threads).hasSize(3);
        assertThat(replicaEngine.callCount()).as("engine calls, the late replica's included").isZero();
    }

    @Test
    void aCallOfARunThatIsOverNeverRunsNeitherAloneNorInTheNextRunOfItsRequest() {
        Cancellation over = new Cancellation();
        over.cancel("durable run over");
        CallContext straggler = CallContext.builder().requestId("req-3").cancellation(over).build();
        AtomicInteger ran = new AtomicInteger();
        Invocation<String> call = Invocation.of(InvocationKind.INFERENCE, "default", straggler, "input",
                () -> "ran " + ran.incrementAndGet());

        assertThat(catchThrowable(() -> interceptor.intercept(call))).as("with no session open")
                .isInstanceOf(ReplayInterceptor.Suspended.class);
        ReplayInterceptor.Session next = interceptor.open("req-3", List.of(), null, Duration.ZERO);
        assertThat(catchThrowable(() -> interceptor.intercept(call))).as("with the next run's session open")
                .isInstanceOf(ReplayInterceptor.Suspended.class);
        assertThat(next.running()).as("nothing claimed in the next run").isNull();
        interceptor.close("req-3", next);
        assertThat(ran).hasValue(0);
    }

    private static void awaitUninterruptibly(CountDownLatch latch) {
        try {
            latch.await(10, TimeUnit.SECONDS);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }
}
