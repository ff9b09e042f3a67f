package dev.pagantic.adapter.temporal;

import static org.assertj.core.api.Assertions.assertThat;

import dev.pagantic.core.Schema;
import dev.pagantic.core.TokenUsage;
import dev.pagantic.inference.Result;
import dev.pagantic.orchestrate.facade.Mode;
import dev.pagantic.orchestrate.facade.OutputContract;
import dev.pagantic.orchestrate.facade.Orchestrator;
import dev.pagantic.orchestrate.facade.SystemRequest;
import dev.pagantic.orchestrate.facade.SystemResponse;
import dev.pagantic.orchestrate.multimodel.EngineCatalogue;
import dev.pagantic.testkit.ScriptedEngine;
import io.temporal.api.enums.v1.EventType;
import io.temporal.api.history.v1.HistoryEvent;
import io.temporal.client.WorkflowClient;
import io.temporal.testing.TestEnvironmentOptions;
import io.temporal.testing.TestWorkflowEnvironment;
import io.temporal.worker.Worker;
import java.math.BigDecimal;
import java.time.Duration;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.Supplier;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * Every mode through Temporal gives the in-process result on the same scripted engine, with the engine calls run on
 * the worker only: the caller's own engine has no replies, so any call there would fail the request.
 */
class DurableModesTest {

    private static final String QUEUE = "pagantic-modes";
    private static final Schema ANSWER = Schema.object().required("answer", Schema.string()).build();

    private TestWorkflowEnvironment env;
    private WorkflowClient client;
    private ExecutorService replicaThreads;

    @BeforeEach
    void startTestServer() {
        env = TestWorkflowEnvironment.newInstance(TestEnvironmentOptions.newBuilder().setUseTimeskipping(false).build());
        client = env.getWorkflowClient();
        replicaThreads = Executors.newFixedThreadPool(3);
    }

    @AfterEach
    void stopTestServer() {
        env.close();
        replicaThreads.shutdownNow();
    }

    /** The in-process response and the durable one, each on a fresh engine from the factory. */
    private SystemResponse[] inProcessAndDurable(Supplier<ScriptedEngine> engines,
                                                 java.util.function.Function<ScriptedEngine, Orchestrator.Builder> setup,
                                                 SystemRequest request, ScriptedEngine[] used) {
        ScriptedEngine direct = engines.get();
        SystemResponse expected;
        try (Orchestrator orchestrator = setup.apply(direct).build()) {
            expected = orchestrator.execute(request.toBuilder().requestId(request.requestId() + "-direct").build());
        }
        ScriptedEngine engine = engines.get();
        DurableOrchestrator worker = DurableOrchestrator.builder().orchestrator(setup.apply(engine)).client(client)
                .taskQueue(QUEUE).initialRetryInterval(Duration.ofMillis(100)).callTimeout(Duration.ofSeconds(20))
                .build();
        Worker temporalWorker = env.newWorker(QUEUE);
        worker.registerWith(temporalWorker);
        env.start();
        ScriptedEngine callerEngine = ScriptedEngine.replying();
        try (DurableOrchestrator caller = DurableOrchestrator.builder().orchestrator(setup.apply(callerEngine))
                .client(client).taskQueue(QUEUE).build()) {
            SystemResponse response = caller.execute(request);
            assertThat(callerEngine.callCount()).as("engine calls on the caller").isZero();
            assertThat(engine.callCount()).as("engine calls on the worker").isEqualTo(direct.callCount());
            used[0] = engine;
            return new SystemResponse[] {expected, response};
        } finally {
            worker.close();
        }
    }

    private static void assertSameResult(SystemResponse actual, SystemResponse expected) {
        assertThat(actual.error()).isEqualTo(expected.error());
        assertThat(actual.content()).isEqualTo(expected.content());
        assertThat(actual.structuredOutput()).isEqualTo(expected.structuredOutput());
        assertThat(actual.validationResult()).isEqualTo(expected.validationResult());
        assertThat(actual.confidence()).isEqualTo(expected.confidence());
        assertThat(actual.confidenceSource()).isEqualTo(expected.confidenceSource());
        assertThat(actual.finishReason()).isEqualTo(expected.finishReason());
        assertThat(actual.toolCallsRequested()).isEqualTo(expected.toolCallsRequested());
        assertThat(actual.tokenUsage().withGenerationTime(Duration.ZERO))
                .isEqualTo(expected.tokenUsage().withGenerationTime(Duration.ZERO));
        assertThat(actual.toolCallsMade()).usingRecursiveFieldByFieldElementComparatorIgnoringFields("id", "duration")
                .isEqualTo(expected.toolCallsMade());
    }

    private List<HistoryEvent> history(String workflowId) {
        return client.fetchHistory(workflowId).getHistory().getEventsList();
    }

    private long activities(String workflowId) {
        return history(workflowId).stream()
                .filter(e -> e.getEventType() == EventType.EVENT_TYPE_ACTIVITY_TASK_COMPLETED).count();
    }

    @Test
    void aStructuredRequestWithARetryAndARepairGivesTheInProcessResult() {
        Supplier<ScriptedEngine> engines = () -> ScriptedEngine.replying("I cannot answer in JSON.",
                "{\"answer\": \"yes\",}");
        SystemRequest request = SystemRequest.builder().requestId("structured-1").mode(Mode.STRUCTURED)
                .user("Is it sunny?").output(OutputContract.of(ANSWER)).build();
        ScriptedEngine[] used = new ScriptedEngine[1];

        SystemResponse[] results = inProcessAndDurable(engines, e -> Orchestrator.builder().engine(e), request, used);

        SystemResponse expected = results[0];
        assertThat(expected.isSuccess()).isTrue();
        assertThat(used[0].callCount()).as("the invalid answer was retried").isEqualTo(2);
        assertThat(expected.validationResult().orElseThrow().repaired()).as("the second answer was repaired")
                .isTrue();
        assertSameResult(results[1], expected);
        assertThat(results[1].structuredOutput()).contains(Map.of("answer", "yes"));
        // One activity per engine call, and one that found nothing left to run.
        assertThat(activities("structured-1")).isEqualTo(3);
    }

    @Test
    void aSequentialRedundantRequestGivesTheInProcessVoteAndSummedUsage() {
        Supplier<ScriptedEngine> engines = () -> ScriptedEngine.replying("{\"answer\": \"yes\"}",
                "{\"answer\": \"no\"}", "{\"answer\": \"yes\"}");
        SystemRequest request = SystemRequest.builder().requestId("redundant-seq").mode(Mode.REDUNDANT)
                .user("Is it sunny?").output(OutputContract.of(ANSWER)).build();
        ScriptedEngine[] used = new ScriptedEngine[1];

        SystemResponse[] results = inProcessAndDurable(engines, e -> Orchestrator.builder().engine(e).replicas(3),
                request, used);

        assertThat(results[0].isSuccess()).isTrue();
        assertSameResult(results[1], results[0]);
        assertThat(results[1].content()).contains("yes");
        assertThat(results[1].confidence().getAsDouble()).isEqualTo(2.0 / 3);
        assertThat(results[1].tokenUsage().outputTokens()).isEqualTo(3 * 2);
        assertThat(activities("redundant-seq")).isEqualTo(4);
    }

    /**
     * Each reply waits until all three replicas' calls are in flight at once, which only parallel activities
     * achieve; a sequential run would see the first call give up waiting, and the count of calls that saw all three.
     */
    private static ScriptedEngine latchedReplicas(CountDownLatch allInFlight, AtomicInteger sawAll) {
        ScriptedEngine.Builder engine = ScriptedEngine.builder();
        for (String answer : new String[] {"yes", "no", "yes"}) {
            engine.replyWith(request -> {
                allInFlight.countDown();
                try {
                    if (allInFlight.await(10, TimeUnit.SECONDS)) {
                        sawAll.incrementAndGet();
                    }
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                }
                String content = "{\"answer\": \"" + answer + "\"}";
                return Result.of(content, TokenUsage.of(4, 2));
            });
        }
        return engine.build();
    }

    @Test
    void concurrentRedundantReplicasRunAsParallelActivitiesWithTheInProcessResult() {
        AtomicInteger directSawAll = new AtomicInteger();
        AtomicInteger durableSawAll = new AtomicInteger();
        AtomicInteger engineCount = new AtomicInteger();
        Supplier<ScriptedEngine> engines = () -> engineCount.getAndIncrement() == 0
                ? latchedReplicas(new CountDownLatch(3), directSawAll)
                : latchedReplicas(new CountDownLatch(3), durableSawAll);
        SystemRequest request = SystemRequest.builder().requestId("redundant-par").mode(Mode.REDUNDANT)
                .user("Is it sunny?").output(OutputContract.of(ANSWER)).build();
        ScriptedEngine[] used = new ScriptedEngine[1];

        SystemResponse[] results = inProcessAndDurable(engines,
                e -> Orchestrator.builder().engine(e).replicas(3).replicaExecutor(replicaThreads), request, used);

        assertThat(directSawAll.get()).as("in process, the replicas ran concurrently").isEqualTo(3);
        assertThat(durableSawAll.get()).as("durably, the three calls were in flight at once").isEqualTo(3);
        assertSameResult(results[1], results[0]);
        assertThat(results[1].confidence().getAsDouble()).isEqualTo(2.0 / 3);
        // A first activity found the three calls, three ran them side by side, a last one voted.
        assertThat(activities("redundant-par")).isEqualTo(5);
        assertThat(firstBatchScheduledTogether("redundant-par"))
                .as("activities scheduled before any of them completed").isEqualTo(3);
    }

    /**
     * The size of the first batch of activities that were all scheduled before any of them completed (1 when every
     * activity was scheduled alone).
     */
    private int firstBatchScheduledTogether(String workflowId) {
        int scheduledTogether = 0;
        for (HistoryEvent event : history(workflowId)) {
            if (event.getEventType() == EventType.EVENT_TYPE_ACTIVITY_TASK_SCHEDULED) {
                scheduledTogether++;
            } else if (event.getEventType() == EventType.EVENT_TYPE_ACTIVITY_TASK_COMPLETED && scheduledTogether > 1) {
                break;
            } else if (event.getEventType() == EventType.EVENT_TYPE_ACTIVITY_TASK_COMPLETED) {
                scheduledTogether = 0;
            }
        }
        return scheduledTogether;
    }

    @Test
    void adversarialModeGivesTheInProcessPlanCritiqueAndRefinementWithItsCost() {
        Supplier<ScriptedEngine> engines = () -> ScriptedEngine.replying("Plan: index the table.",
                "Critique: which table?", "Plan: index the orders table.");
        SystemRequest request = SystemRequest.builder().requestId("adversarial-1").mode(Mode.ADVERSARIAL)
                .user("Cut database load").build();
        ScriptedEngine[] used = new ScriptedEngine[1];

        SystemResponse[] results = inProcessAndDurable(engines, e -> Orchestrator.builder().engine(e), request, used);

        assertThat(results[0].isSuccess()).isTrue();
        assertSameResult(results[1], results[0]);
        assertThat(results[1].content()).isEqualTo("Plan: index the orders table.");
        assertThat(used[0].callCount()).isEqualTo(3);
        // Plan, critique and refinement each their own activity, and one that found nothing left to run.
        assertThat(activities("adversarial-1")).isEqualTo(4);
    }

    @Test
    void voteModeGivesTheInProcessSelectionAndUsage() {
        Supplier<ScriptedEngine> engines = () -> ScriptedEngine.replying("Add an index.",
                "{\"selected\": 0, \"reason\": \"the only answer\"}");
        SystemRequest request = SystemRequest.builder().requestId("vote-1").mode(Mode.VOTE)
                .user("Cut database load").build();
        ScriptedEngine[] used = new ScriptedEngine[1];

        SystemResponse[] results = inProcessAndDurable(engines, e -> Orchestrator.builder().engine(e), request, used);

        assertThat(results[0].isSuccess()).isTrue();
        assertSameResult(results[1], results[0]);
        assertThat(results[1].content()).isEqualTo("Add an index.");
        // The one voter and the judge each their own activity, and one that found nothing left to run.
        assertThat(activities("vote-1")).isEqualTo(3);
    }

    /** Three voters with their own engines and prices, and a judge (the heaviest entry) that picks the second. */
    private record Panel(ScriptedEngine[] voters, ScriptedEngine judge, AtomicInteger sawAll) {

        /** Each voter's reply waits until all three voters' calls are in flight at once (10 s at most). */
        static Panel latched() {
            CountDownLatch allInFlight = new CountDownLatch(3);
            AtomicInteger sawAll = new AtomicInteger();
            String[] answers = {"Add an index.", "Cache the hot queries.", "Shard the table."};
            ScriptedEngine[] voters = new ScriptedEngine[answers.length];
            for (int i = 0; i < answers.length; i++) {
                String answer = answers[i];
                int promptTokens = 10 + i;
                voters[i] = ScriptedEngine.builder().replyWith(request -> {
                    allInFlight.countDown();
                    try {
                        if (allInFlight.await(10, TimeUnit.SECONDS)) {
                            sawAll.incrementAndGet();
                        }
                    } catch (InterruptedException e) {
                        Thread.currentThread().interrupt();
                    }
                    return Result.of(answer, TokenUsage.of(promptTokens, 3));
                }).build();
            }
            ScriptedEngine judge = ScriptedEngine.replying("{\"selected\": 1, \"reason\": \"caching is cheapest\"}");
            return new Panel(voters, judge, sawAll);
        }

        Orchestrator.Builder orchestrator(ExecutorService threads) {
            BigDecimal cent = new BigDecimal("0.01");
            EngineCatalogue catalogue = EngineCatalogue.builder()
                    .add("voter-a", voters[0], 1, cent, cent)
                    .add("voter-b", voters[1], 1, cent, cent.add(cent))
                    .add("voter-c", voters[2], 1, cent, cent)
                    .add("judge", judge, 5, cent, cent)
                    .build();
            return Orchestrator.builder().engine(judge).catalogue(catalogue).replicaExecutor(threads);
        }

        int calls() {
            return Arrays.stream(voters).mapToInt(ScriptedEngine::callCount).sum() + judge.callCount();
        }
    }

    @Test
    @SuppressWarnings("unchecked")
    void voteModeVotersRunAsParallelActivitiesWithTheInProcessSelectionUsageAndCost() {
        SystemRequest request = SystemRequest.builder().requestId("vote-par").mode(Mode.VOTE)
                .user("Cut database load").build();
        Panel direct = Panel.latched();
        SystemResponse expected;
        try (Orchestrator orchestrator = direct.orchestrator(replicaThreads).build()) {
            expected = orchestrator.execute(request.toBuilder().requestId("vote-par-direct").build());
        }
        Panel worker = Panel.latched();
        DurableOrchestrator durableWorker = DurableOrchestrator.builder()
                .orchestrator(worker.orchestrator(replicaThreads))
                .client(client).taskQueue(QUEUE).callTimeout(Duration.ofSeconds(20))
                // Wider than the default, so that a loaded machine starting the voters' threads late still finds all
                // three together.
                .fanOutWindow(Duration.ofMillis(250)).build();
        durableWorker.registerWith(env.newWorker(QUEUE));
        env.start();
        Panel caller = new Panel(new ScriptedEngine[] {ScriptedEngine.replying(), ScriptedEngine.replying(),
            ScriptedEngine.replying()}, ScriptedEngine.replying(), new AtomicInteger());
        SystemResponse response;
        try (DurableOrchestrator durable = DurableOrchestrator.builder()
                .orchestrator(caller.orchestrator(replicaThreads)).client(client).taskQueue(QUEUE).build()) {
            response = durable.execute(request);
        } finally {
            durableWorker.close();
        }

        assertThat(expected.isSuccess()).isTrue();
        assertThat(expected.content()).isEqualTo("Cache the hot queries.");
        assertThat(direct.sawAll().get()).as("in process, the voters ran concurrently").isEqualTo(3);
        assertThat(worker.sawAll().get()).as("durably, the three voters' calls were in flight at once").isEqualTo(3);
        assertSameResult(response, expected);
        // Equal to the in-process structured output (above), with the cost summed over the four calls' prices.
        assertThat((Map<String, Object>) response.structuredOutput().orElseThrow()).containsEntry("judge", "judge")
                .containsEntry("selected", 1L).containsEntry("cost", "0.00091");
        assertThat(caller.calls()).as("engine calls on the caller").isZero();
        assertThat(Arrays.stream(worker.voters()).map(ScriptedEngine::callCount)).as("each voter ran once")
                .containsExactly(1, 1, 1);
        assertThat(worker.judge().callCount()).isEqualTo(1);
        // A first activity found the three voters, three ran them side by side, one ran the judge, a last one
        // answered.
        assertThat(activities("vote-par")).isEqualTo(6);
        assertThat(firstBatchScheduledTogether("vote-par"))
                .as("voter activities scheduled before any of them completed").isEqualTo(3);
    }

    @Test
    void refineModeGivesTheInProcessRefinement() {
        Supplier<ScriptedEngine> engines = () -> ScriptedEngine.replying("Index.", "Index the table.",
                "Index the orders table.");
        SystemRequest request = SystemRequest.builder().requestId("refine-1").mode(Mode.REFINE)
                .user("Cut database load").build();
        ScriptedEngine[] used = new ScriptedEngine[1];

        SystemResponse[] results = inProcessAndDurable(engines, e -> Orchestrator.builder().engine(e), request, used);

        assertThat(results[0].isSuccess()).isTrue();
        assertSameResult(results[1], results[0]);
        assertThat(results[1].content()).isEqualTo("Index the orders table.");
        // The initial answer and both rounds each their own activity, and one that found nothing left to run.
        assertThat(activities("refine-1")).isEqualTo(4);
    }
}
