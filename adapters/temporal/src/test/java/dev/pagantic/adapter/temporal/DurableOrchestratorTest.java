package dev.pagantic.adapter.temporal;

import static org.assertj.core.api.Assertions.assertThat;

import dev.pagantic.core.ErrorCode;
import dev.pagantic.core.PaganticException;
import dev.pagantic.core.Schema;
import dev.pagantic.core.ToolDefinition;
import dev.pagantic.orchestrate.facade.Mode;
import dev.pagantic.orchestrate.facade.Orchestrator;
import dev.pagantic.orchestrate.facade.StaticPlanner;
import dev.pagantic.orchestrate.facade.SystemRequest;
import dev.pagantic.orchestrate.facade.SystemResponse;
import dev.pagantic.orchestrate.facade.ToolCallRecord;
import dev.pagantic.testkit.ScriptedEngine;
import dev.pagantic.testkit.SlowEngine;
import dev.pagantic.tool.Tool;
import dev.pagantic.tool.ToolRegistry;
import io.temporal.api.enums.v1.EventType;
import io.temporal.api.history.v1.HistoryEvent;
import io.temporal.client.WorkflowClient;
import io.temporal.client.WorkflowClientOptions;
import io.temporal.serviceclient.RpcRetryOptions;
import io.temporal.serviceclient.WorkflowServiceStubs;
import io.temporal.serviceclient.WorkflowServiceStubsOptions;
import io.temporal.testing.TestEnvironmentOptions;
import io.temporal.testing.TestWorkflowEnvironment;
import io.temporal.worker.Worker;
import io.temporal.worker.WorkerFactory;
import io.temporal.worker.WorkerOptions;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

class DurableOrchestratorTest {

    private static final String QUEUE = "pagantic-test";
    private static final String ACTIVITIES = "pagantic-test-activities";
    private static final String PLAN = "{\"rationale\":\"two passes\",\"steps\":[{\"name\":\"draft\",\"type\":\"infer\"},"
            + "{\"name\":\"final\",\"type\":\"infer\"}]}";

    private TestWorkflowEnvironment env;
    private WorkflowClient client;

    @BeforeEach
    void startTestServer() {
        // Real time, not skipped: the tests wait on activities that run on worker threads.
        env = TestWorkflowEnvironment.newInstance(TestEnvironmentOptions.newBuilder().setUseTimeskipping(false).build());
        client = env.getWorkflowClient();
    }

    @AfterEach
    void stopTestServer() {
        env.close();
    }

    private static Orchestrator.Builder planning(ScriptedEngine engine) {
        return Orchestrator.builder().engine(engine).planner(StaticPlanner.fromJson(PLAN));
    }

    private DurableOrchestrator durable(Orchestrator.Builder orchestrator) {
        return DurableOrchestrator.builder().orchestrator(orchestrator).client(client).taskQueue(QUEUE)
                .initialRetryInterval(Duration.ofMillis(100)).callTimeout(Duration.ofSeconds(5)).build();
    }

    /** A long call timeout and a short heartbeat timeout: only a missing heartbeat ends a call within the tests. */
    private DurableOrchestrator durable(Orchestrator.Builder orchestrator, String activityQueue) {
        return DurableOrchestrator.builder().orchestrator(orchestrator).client(client).taskQueue(QUEUE)
                .activityTaskQueue(activityQueue).initialRetryInterval(Duration.ofMillis(100))
                .callTimeout(Duration.ofMinutes(5)).heartbeatTimeout(Duration.ofSeconds(1)).build();
    }

    private DurableOrchestrator durableOnWorker(Orchestrator.Builder orchestrator) {
        DurableOrchestrator durable = durable(orchestrator);
        Worker worker = env.newWorker(QUEUE);
        durable.registerWith(worker);
        env.start();
        return durable;
    }

    private static SystemRequest planRequest(String id) {
        return SystemRequest.builder().requestId(id).mode(Mode.PLAN).user("Write a haiku.").build();
    }

    private static void assertSameResult(SystemResponse actual, SystemResponse expected) {
        assertThat(actual.error()).isEqualTo(expected.error());
        assertThat(actual.content()).isEqualTo(expected.content());
        assertThat(actual.structuredOutput()).isEqualTo(expected.structuredOutput());
        assertThat(actual.finishReason()).isEqualTo(expected.finishReason());
        assertThat(actual.tokenUsage().withGenerationTime(Duration.ZERO))
                .isEqualTo(expected.tokenUsage().withGenerationTime(Duration.ZERO));
        assertThat(actual.toolCallsMade()).usingRecursiveFieldByFieldElementComparatorIgnoringFields("id", "duration")
                .isEqualTo(expected.toolCallsMade());
    }

    private List<HistoryEvent> history(String workflowId) {
        return client.fetchHistory(workflowId).getHistory().getEventsList();
    }

    @Test
    void aPlanRunThroughTemporalGivesTheSameResultAsInProcess() {
        ScriptedEngine direct = ScriptedEngine.replying("Draft.", "Final answer.");
        SystemResponse expected;
        try (Orchestrator orchestrator = planning(direct).build()) {
            expected = orchestrator.execute(planRequest("plan-direct"));
        }
        ScriptedEngine engine = ScriptedEngine.replying("Draft.", "Final answer.");
        try (DurableOrchestrator durable = durableOnWorker(planning(engine))) {
            SystemResponse response = durable.execute(planRequest("plan-1"));

            assertThat(response.isSuccess()).isTrue();
            assertThat(response.content()).isEqualTo("Final answer.");
            assertSameResult(response, expected);
            // Each engine call ran once, as its own activity; rebuilding the response ran none again.
            assertThat(engine.callCount()).isEqualTo(2);
            assertThat(history("plan-1")).filteredOn(e -> e.getEventType() == EventType.EVENT_TYPE_ACTIVITY_TASK_COMPLETED)
                    .hasSize(3);
        }
    }

    @Test
    void toolCallsAreRecordedAndReportedLikeInProcess() {
        Tool weather = Tool.builder(ToolDefinition.of("get_weather", "Weather of a city",
                        Schema.object().required("city", Schema.string()).build()))
                .handler((ctx, args) -> "Sunny in " + args.get("city")).build();
        SystemRequest request = SystemRequest.builder().requestId("tool-1").user("Weather in Paris?").build();
        SystemResponse expected;
        try (Orchestrator orchestrator = Orchestrator.builder().tools(ToolRegistry.of(weather))
                .engine(ScriptedEngine.builder().replyCallingTool("get_weather", Map.of("city", "Paris"))
                        .reply("It is sunny.").build()).build()) {
            expected = orchestrator.execute(request);
        }
        ScriptedEngine engine = ScriptedEngine.builder().replyCallingTool("get_weather", Map.of("city", "Paris"))
                .reply("It is sunny.").build();
        try (DurableOrchestrator durable = durableOnWorker(Orchestrator.builder().tools(ToolRegistry.of(weather))
                .engine(engine))) {
            SystemResponse response = durable.execute(request);

            assertThat(response.content()).isEqualTo("It is sunny.");
            assertThat(response.toolCallsMade()).extracting(ToolCallRecord::result).containsExactly("Sunny in Paris");
            assertSameResult(response, expected);
            assertThat(engine.callCount()).isEqualTo(2);
        }
    }

    @Test
    void aDeadWorkerIsDetectedByItsMissingHeartbeatsAndTheReplacementResumesWithoutRerunningTheCompletedCall()
            throws Exception {
        CountDownLatch secondCallStarted = new CountDownLatch(1);
        CountDownLatch testOver = new CountDownLatch(1);
        // The second call never returns while the test runs, interrupted or not: its worker is gone, not failing.
        // The call timeout (5 minutes) is far beyond the test's wait: only the missing heartbeats can end that attempt.
        ScriptedEngine first = ScriptedEngine.builder().reply("Draft.").replyWith(request -> {
            secondCallStarted.countDown();
            awaitIgnoringInterrupts(testOver);
            throw PaganticException.of(ErrorCode.INFERENCE_ENGINE_ERROR, "the worker was killed");
        }).build();
        // The client and workflow worker stay; the activity worker (the one holding the model) is killed and
        // replaced. Each is its own DurableOrchestrator, as in separate processes; the client's engine never runs.
        DurableOrchestrator caller = durable(planning(ScriptedEngine.replying()), ACTIVITIES);
        caller.registerWorkflowWith(env.newWorker(QUEUE));
        env.start();
        DurableOrchestrator firstSide = durable(planning(first), ACTIVITIES);
        WorkerFactory firstFactory = WorkerFactory.newInstance(client);
        firstSide.registerActivitiesWith(firstFactory.newWorker(ACTIVITIES));
        firstFactory.start();

        CompletableFuture<SystemResponse> running = CompletableFuture.supplyAsync(
                () -> caller.execute(planRequest("resume-1")));
        assertThat(secondCallStarted.await(30, TimeUnit.SECONDS)).isTrue();
        // The process dies: its worker stops polling and its activities stop heartbeating.
        firstFactory.shutdownNow();
        firstSide.close();

        ScriptedEngine second = ScriptedEngine.replying("Final answer.");
        DurableOrchestrator secondSide = durable(planning(second), ACTIVITIES);
        WorkerFactory secondFactory = WorkerFactory.newInstance(client);
        secondSide.registerActivitiesWith(secondFactory.newWorker(ACTIVITIES));
        secondFactory.start();
        try {
            // Well within the call timeout (5 minutes): the missing heartbeats ended the dead attempt.
            SystemResponse response = running.get(40, TimeUnit.SECONDS);

            assertThat(response.isSuccess()).isTrue();
            assertThat(response.content()).isEqualTo("Final answer.");
            // The draft ran once, on the first worker; the second worker ran only the final step, on the draft.
            assertThat(first.callCount()).isEqualTo(2);
            assertThat(second.callCount()).isEqualTo(1);
            assertThat(second.requests().get(0).messages().get(0).content()).isEqualTo("Draft.");
            assertThat(history("resume-1")).filteredOn(e -> e.getEventType() == EventType.EVENT_TYPE_ACTIVITY_TASK_STARTED)
                    .extracting(e -> e.getActivityTaskStartedEventAttributes().getAttempt())
                    .containsExactly(1, 2, 1);
        } finally {
            testOver.countDown();
            secondFactory.shutdownNow();
        }
    }

    @Test
    void aReplacementWorkerThatLacksTheJournalGetsItWholeAndRerunsNoCompletedCall() throws Exception {
        String threeSteps = "{\"rationale\":\"three passes\",\"steps\":[{\"name\":\"draft\",\"type\":\"infer\"},"
                + "{\"name\":\"review\",\"type\":\"infer\"},{\"name\":\"final\",\"type\":\"infer\"}]}";
        CountDownLatch thirdCallStarted = new CountDownLatch(1);
        CountDownLatch testOver = new CountDownLatch(1);
        ScriptedEngine first = ScriptedEngine.builder().reply("Draft.").reply("Reviewed.").replyWith(request -> {
            thirdCallStarted.countDown();
            awaitIgnoringInterrupts(testOver);
            throw PaganticException.of(ErrorCode.INFERENCE_ENGINE_ERROR, "the worker was killed");
        }).build();
        DurableOrchestrator caller = durable(Orchestrator.builder().engine(ScriptedEngine.replying())
                .planner(StaticPlanner.fromJson(threeSteps)), ACTIVITIES);
        caller.registerWorkflowWith(env.newWorker(QUEUE));
        env.start();
        DurableOrchestrator firstSide = durable(Orchestrator.builder().engine(first)
                .planner(StaticPlanner.fromJson(threeSteps)), ACTIVITIES);
        WorkerFactory firstFactory = WorkerFactory.newInstance(client);
        firstSide.registerActivitiesWith(firstFactory.newWorker(ACTIVITIES));
        firstFactory.start();

        CompletableFuture<SystemResponse> running = CompletableFuture.supplyAsync(
                () -> caller.execute(planRequest("resume-miss-1")));
        assertThat(thirdCallStarted.await(30, TimeUnit.SECONDS)).isTrue();
        firstFactory.shutdownNow();
        firstSide.close();
        ScriptedEngine second = ScriptedEngine.replying("Final answer.");
        DurableOrchestrator secondSide = durable(Orchestrator.builder().engine(second)
                .planner(StaticPlanner.fromJson(threeSteps)), ACTIVITIES);
        WorkerFactory secondFactory = WorkerFactory.newInstance(client);
        secondSide.registerActivitiesWith(secondFactory.newWorker(ACTIVITIES));
        secondFactory.start();
        try {
            SystemResponse response = running.get(40, TimeUnit.SECONDS);

            assertThat(response.isSuccess()).isTrue();
            assertThat(response.content()).isEqualTo("Final answer.");
            assertThat(first.callCount()).isEqualTo(3);
            assertThat(second.callCount()).as("only the final step ran on the replacement").isEqualTo(1);
            assertThat(second.requests().get(0).messages().get(0).content()).isEqualTo("Reviewed.");
            // The third step's retry reached a worker holding none of the journal sent before: it said so, and the
            // workflow sent the whole journal in a new activity.
            assertThat(history("resume-miss-1"))
                    .filteredOn(e -> e.getEventType() == EventType.EVENT_TYPE_ACTIVITY_TASK_FAILED)
                    .extracting(e -> e.getActivityTaskFailedEventAttributes().getFailure()
                            .getApplicationFailureInfo().getType())
                    .containsExactly(JournalCache.MISS);
        } finally {
            testOver.countDown();
            secondFactory.shutdownNow();
            secondSide.close();
            caller.close();
        }
    }

    @Test
    void eachActivityReceivesOnlyTheJournalEntriesAddedSinceThePreviousOne() {
        Tool lookup = Tool.builder(ToolDefinition.of("lookup", "Looks a question up",
                        Schema.object().required("q", Schema.string()).build()))
                .handler((ctx, args) -> "The answer to " + args.get("q")).build();
        ScriptedEngine.Builder script = ScriptedEngine.builder();
        for (int i = 0; i < 10; i++) {
            script.replyCallingTool("lookup", Map.of("q", "question " + i));
        }
        try (DurableOrchestrator durable = durableOnWorker(Orchestrator.builder().tools(ToolRegistry.of(lookup))
                .engine(script.reply("Done.").build()))) {
            SystemResponse response = durable.execute(SystemRequest.builder().requestId("journal-1").user("Go").build());

            assertThat(response.content()).isEqualTo("Done.");
            List<Integer> inputs = history("journal-1").stream()
                    .filter(e -> e.getEventType() == EventType.EVENT_TYPE_ACTIVITY_TASK_SCHEDULED)
                    .map(e -> e.getActivityTaskScheduledEventAttributes().getInput().getSerializedSize()).toList();
            assertThat(inputs).hasSize(22);
            // The second activity carries one entry (the first engine call); the last one, with 21 recorded calls
            // before it, carries no more than about one entry too: the worker holds the rest.
            assertThat(inputs.get(21)).isLessThan(inputs.get(1) * 3 / 2);
        }
    }

    /**
     * A worker that runs no sticky workflow tasks: each workflow task goes to the task queue every worker polls, so
     * a replacement worker picks up the next one. The test server never moves a task off a dead worker's sticky
     * queue (it implements no sticky schedule-to-start timeout; a real cluster does, after 5 s by default).
     */
    private static final WorkerOptions NOT_STICKY = WorkerOptions.newBuilder()
            .setStickyQueueScheduleToStartTimeout(Duration.ZERO).build();

    @Test
    void aReplacedWorkflowWorkerResumesTheWorkflowFromItsHistoryWithoutRerunningTheCompletedCall()
            throws Exception {
        CountDownLatch secondCallStarted = new CountDownLatch(1);
        CountDownLatch testOver = new CountDownLatch(1);
        ScriptedEngine first = ScriptedEngine.builder().reply("Draft.").replyWith(request -> {
            secondCallStarted.countDown();
            awaitIgnoringInterrupts(testOver);
            throw PaganticException.of(ErrorCode.INFERENCE_ENGINE_ERROR, "the worker was killed");
        }).build();
        // One process runs the workflow and its activities; it dies mid-plan and a process with a fresh
        // WorkerFactory (its own workflow cache, its own identity) takes over the same task queue. The caller runs
        // no worker at all.
        DurableOrchestrator caller = durable(planning(ScriptedEngine.replying()), QUEUE);
        env.start();
        DurableOrchestrator firstSide = durable(planning(first), QUEUE);
        WorkerFactory firstFactory = WorkerFactory.newInstance(clientWithIdentity("first-process"));
        firstSide.registerWith(firstFactory.newWorker(QUEUE, NOT_STICKY));
        firstFactory.start();

        CompletableFuture<SystemResponse> running = CompletableFuture.supplyAsync(
                () -> caller.execute(planRequest("resume-workflow-1")));
        assertThat(secondCallStarted.await(30, TimeUnit.SECONDS)).isTrue();
        firstFactory.shutdownNow();
        firstSide.close();

        ScriptedEngine second = ScriptedEngine.replying("Final answer.");
        DurableOrchestrator secondSide = durable(planning(second), QUEUE);
        WorkerFactory secondFactory = WorkerFactory.newInstance(clientWithIdentity("second-process"));
        secondSide.registerWith(secondFactory.newWorker(QUEUE, NOT_STICKY));
        secondFactory.start();
        try {
            SystemResponse response = running.get(40, TimeUnit.SECONDS);

            assertThat(response.isSuccess()).isTrue();
            assertThat(response.content()).isEqualTo("Final answer.");
            assertThat(first.callCount()).isEqualTo(2);
            assertThat(second.callCount()).as("the draft was not run again").isEqualTo(1);
            assertThat(second.requests().get(0).messages().get(0).content()).isEqualTo("Draft.");
            List<HistoryEvent> history = history("resume-workflow-1");
            assertThat(history).filteredOn(e -> e.getEventType() == EventType.EVENT_TYPE_ACTIVITY_TASK_STARTED)
                    .extracting(e -> e.getActivityTaskStartedEventAttributes().getAttempt())
                    .containsExactly(1, 2, 1);
            List<String> workflowTaskWorkers = history.stream()
                    .filter(e -> e.getEventType() == EventType.EVENT_TYPE_WORKFLOW_TASK_STARTED)
                    .map(e -> e.getWorkflowTaskStartedEventAttributes().getIdentity()).toList();
            // The first process ran the workflow until it died; the second replayed its history and finished it.
            assertThat(workflowTaskWorkers).first().isEqualTo("first-process");
            assertThat(workflowTaskWorkers).last().isEqualTo("second-process");
        } finally {
            testOver.countDown();
            secondFactory.shutdownNow();
            secondSide.close();
            caller.close();
        }
    }

    private WorkflowClient clientWithIdentity(String identity) {
        return WorkflowClient.newInstance(env.getWorkflowServiceStubs(), WorkflowClientOptions.newBuilder()
                .setNamespace(env.getNamespace()).setIdentity(identity).build());
    }

    private static void awaitIgnoringInterrupts(CountDownLatch latch) {
        boolean interrupted = false;
        while (true) {
            try {
                latch.await(60, TimeUnit.SECONDS);
                break;
            } catch (InterruptedException e) {
                interrupted = true;
            }
        }
        if (interrupted) {
            Thread.currentThread().interrupt();
        }
    }

    @Test
    void aGenerationLongerThanTheHeartbeatTimeoutOnALiveWorkerIsNotCut() {
        // About 2.4 s of streaming (8 words, 300 ms each), against a 1 s heartbeat timeout.
        ScriptedEngine script = ScriptedEngine.replying("one two three four five six seven eight");
        SlowEngine slow = SlowEngine.builder().delegate(script).delayPerToken(Duration.ofMillis(300)).build();
        DurableOrchestrator durable = DurableOrchestrator.builder().orchestrator(Orchestrator.builder().engine(slow))
                .client(client).taskQueue(QUEUE).initialRetryInterval(Duration.ofMillis(100))
                .callTimeout(Duration.ofSeconds(30)).heartbeatTimeout(Duration.ofSeconds(1)).build();
        durable.registerWith(env.newWorker(QUEUE));
        env.start();
        try (durable) {
            SystemResponse response = durable.execute(SystemRequest.builder().requestId("slow-1").user("Count.").build());

            assertThat(response.isSuccess()).isTrue();
            assertThat(response.content()).isEqualTo("one two three four five six seven eight");
            assertThat(script.callCount()).isEqualTo(1);
            assertThat(history("slow-1")).filteredOn(e -> e.getEventType() == EventType.EVENT_TYPE_ACTIVITY_TASK_STARTED)
                    .isNotEmpty()
                    .allSatisfy(e -> assertThat(e.getActivityTaskStartedEventAttributes().getAttempt()).isEqualTo(1));
        }
    }

    @Test
    void theHeartbeatTimeoutMustBeShorterThanTheCallTimeout() {
        org.assertj.core.api.Assertions.assertThatThrownBy(() -> DurableOrchestrator.builder()
                        .orchestrator(planning(ScriptedEngine.replying())).callTimeout(Duration.ofSeconds(10))
                        .heartbeatTimeout(Duration.ofSeconds(10)).build())
                .isInstanceOfSatisfying(PaganticException.class,
                        e -> assertThat(e.code()).isEqualTo(ErrorCode.CONFIG_INVALID));
        org.assertj.core.api.Assertions.assertThatThrownBy(() -> DurableOrchestrator.builder()
                        .orchestrator(planning(ScriptedEngine.replying())).fanOutWindow(Duration.ofMillis(-1)).build())
                .isInstanceOfSatisfying(PaganticException.class,
                        e -> assertThat(e.code()).isEqualTo(ErrorCode.CONFIG_INVALID));
    }

    @Test
    void aRetryableEngineErrorIsRetriedByTemporalAndTheRequestSucceeds() {
        ScriptedEngine engine = ScriptedEngine.builder().fail(ErrorCode.INFERENCE_ENGINE_ERROR, "flaky")
                .reply("Draft.").reply("Final answer.").build();
        try (DurableOrchestrator durable = durableOnWorker(planning(engine))) {
            SystemResponse response = durable.execute(planRequest("retry-1"));

            assertThat(response.isSuccess()).isTrue();
            assertThat(response.content()).isEqualTo("Final answer.");
            assertThat(engine.callCount()).isEqualTo(3);
            assertThat(history("retry-1")).filteredOn(e -> e.getEventType() == EventType.EVENT_TYPE_ACTIVITY_TASK_STARTED)
                    .anySatisfy(e -> assertThat(e.getActivityTaskStartedEventAttributes().getAttempt()).isEqualTo(2));
        }
    }

    @Test
    void aNonRetryableErrorFailsFastWithItsCode() {
        ScriptedEngine engine = ScriptedEngine.builder().fail(ErrorCode.CONFIG_INVALID, "bad configuration")
                .reply("never").reply("never").build();
        try (DurableOrchestrator durable = durableOnWorker(planning(engine))) {
            SystemResponse response = durable.execute(planRequest("fail-1"));

            assertThat(response.isSuccess()).isFalse();
            assertThat(response.error().orElseThrow().code()).isEqualTo(ErrorCode.CONFIG_INVALID);
            assertThat(engine.callCount()).isEqualTo(1);
            assertThat(history("fail-1")).filteredOn(e -> e.getEventType() == EventType.EVENT_TYPE_ACTIVITY_TASK_STARTED)
                    .isNotEmpty()
                    .allSatisfy(e -> assertThat(e.getActivityTaskStartedEventAttributes().getAttempt()).isEqualTo(1));
        }
    }

    @Test
    void withoutAClientTheRequestRunsInProcessWithTheSameResult() {
        SystemResponse expected;
        try (Orchestrator orchestrator = planning(ScriptedEngine.replying("Draft.", "Final answer.")).build()) {
            expected = orchestrator.execute(planRequest("local-direct"));
        }
        ScriptedEngine engine = ScriptedEngine.replying("Draft.", "Final answer.");
        try (DurableOrchestrator local = DurableOrchestrator.builder().orchestrator(planning(engine)).build()) {
            SystemResponse response = local.execute(planRequest("local-1"));

            assertThat(local.isDurable()).isFalse();
            assertSameResult(response, expected);
            assertThat(engine.callCount()).isEqualTo(2);
        }
    }

    @Test
    void anUnreachableClusterFallsBackToInProcessExecution() {
        // Nothing listens on port 1: submitting fails as UNAVAILABLE, quickly with one attempt and a short timeout.
        WorkflowServiceStubs nowhere = WorkflowServiceStubs.newServiceStubs(WorkflowServiceStubsOptions.newBuilder()
                .setTarget("127.0.0.1:1").setRpcTimeout(Duration.ofSeconds(2))
                .setRpcRetryOptions(RpcRetryOptions.newBuilder().setMaximumAttempts(1)
                        .setExpiration(Duration.ofSeconds(2)).validateBuildWithDefaults())
                .build());
        ScriptedEngine engine = ScriptedEngine.replying("Draft.", "Final answer.");
        try (DurableOrchestrator durable = DurableOrchestrator.builder().orchestrator(planning(engine))
                .client(WorkflowClient.newInstance(nowhere)).build()) {
            SystemResponse response = durable.execute(planRequest("unreachable-1"));

            assertThat(durable.isDurable()).isTrue();
            assertThat(response.isSuccess()).isTrue();
            assertThat(response.content()).isEqualTo("Final answer.");
            assertThat(engine.callCount()).isEqualTo(2);
        } finally {
            nowhere.shutdownNow();
        }
    }

    @Test
    void aBuilderWithoutAnOrchestratorIsRefused() {
        org.assertj.core.api.Assertions.assertThatThrownBy(() -> DurableOrchestrator.builder().build())
                .isInstanceOfSatisfying(PaganticException.class,
                        e -> assertThat(e.code()).isEqualTo(ErrorCode.CONFIG_INVALID));
    }

    @Test
    void theRetryPolicyNeverRetriesTheCodesTheTaxonomyMarksNonRetryable() {
        var options = DurableOrchestrator.retryOptions(5, Duration.ofSeconds(1));

        assertThat(options.getDoNotRetry()).contains("CONFIG_INVALID", "TOOL_NOT_FOUND", "CANCELLED_TIMEOUT")
                .doesNotContain("INFERENCE_ENGINE_ERROR", "INFERENCE_SATURATED");
    }
}
