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
import dev.pagantic.tool.Tool;
import dev.pagantic.tool.ToolRegistry;
import io.temporal.api.enums.v1.EventType;
import io.temporal.api.history.v1.HistoryEvent;
import io.temporal.client.WorkflowClient;
import io.temporal.serviceclient.RpcRetryOptions;
import io.temporal.serviceclient.WorkflowServiceStubs;
import io.temporal.serviceclient.WorkflowServiceStubsOptions;
import io.temporal.testing.TestEnvironmentOptions;
import io.temporal.testing.TestWorkflowEnvironment;
import io.temporal.worker.Worker;
import io.temporal.worker.WorkerFactory;
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

    private DurableOrchestrator durable(Orchestrator.Builder orchestrator, String activityQueue) {
        return DurableOrchestrator.builder().orchestrator(orchestrator).client(client).taskQueue(QUEUE)
                .activityTaskQueue(activityQueue)
                .initialRetryInterval(Duration.ofMillis(100)).callTimeout(Duration.ofSeconds(3)).build();
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
    void aReplacedWorkerResumesThePlanWithoutRerunningTheCompletedCall() throws Exception {
        CountDownLatch secondCallStarted = new CountDownLatch(1);
        CountDownLatch testOver = new CountDownLatch(1);
        // The second call never returns while the test runs, interrupted or not: its worker is gone, not failing.
        // Only the call timeout can end that attempt, so the final step's second attempt proves the kill was seen.
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
        firstFactory.shutdownNow();

        ScriptedEngine second = ScriptedEngine.replying("Final answer.");
        DurableOrchestrator secondSide = durable(planning(second), ACTIVITIES);
        WorkerFactory secondFactory = WorkerFactory.newInstance(client);
        secondSide.registerActivitiesWith(secondFactory.newWorker(ACTIVITIES));
        secondFactory.start();
        try {
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
