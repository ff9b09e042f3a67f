package dev.pagantic.adapter.opentelemetry;

import static dev.pagantic.adapter.opentelemetry.Telemetry.attribute;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.offset;

import dev.pagantic.core.ErrorCode;
import dev.pagantic.core.PaganticException;
import dev.pagantic.core.Schema;
import dev.pagantic.core.ToolDefinition;
import dev.pagantic.observe.PriceTable;
import dev.pagantic.orchestrate.facade.ExecutionHints;
import dev.pagantic.orchestrate.facade.Mode;
import dev.pagantic.orchestrate.facade.Orchestrator;
import dev.pagantic.orchestrate.facade.OutputContract;
import dev.pagantic.orchestrate.facade.StaticPlanner;
import dev.pagantic.orchestrate.facade.SystemRequest;
import dev.pagantic.orchestrate.facade.SystemResponse;
import dev.pagantic.testkit.ScriptedEngine;
import dev.pagantic.tool.Tool;
import dev.pagantic.tool.ToolRegistry;
import io.opentelemetry.api.trace.SpanKind;
import io.opentelemetry.api.trace.StatusCode;
import io.opentelemetry.sdk.metrics.data.HistogramPointData;
import io.opentelemetry.sdk.metrics.data.MetricData;
import io.opentelemetry.sdk.trace.data.SpanData;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.function.Consumer;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * The span tree, attributes and metrics of each mode, read back from the OpenTelemetry SDK's in-memory exporter and
 * checked against the GenAI semantic conventions (v1.41.0).
 */
class PaganticTelemetryTest {

    private static final Schema ANSWER = Schema.object().required("answer", Schema.enumOf("yes", "no")).build();
    private static final ExecutionHints HINTS = ExecutionHints.builder().maxTokens(64).temperature(0.2).seed(7)
            .build();

    private final Telemetry otel = new Telemetry();

    private SystemResponse run(ScriptedEngine engine, PaganticTelemetry telemetry, SystemRequest request,
                               Consumer<Orchestrator.Builder> wiring) {
        Orchestrator.Builder builder = Orchestrator.builder().engine(engine).observer(telemetry);
        wiring.accept(builder);
        try (Orchestrator orchestrator = builder.build()) {
            return orchestrator.execute(request);
        }
    }

    private static ToolRegistry weather() {
        return ToolRegistry.of(Tool.builder(ToolDefinition.of("weather", "the weather in a city",
                        Schema.object().required("city", Schema.string()).build()))
                .handler((ctx, args) -> "sunny in " + args.get("city")).build());
    }

    @Test
    void aToolCallingChatIsAWorkflowAroundAnAgentTurnOfTwoInferencesAndATool() {
        ScriptedEngine engine = ScriptedEngine.builder().modelName("tiny")
                .replyCallingTool("weather", Map.of("city", "Paris")).reply("It is sunny.").build();
        SystemResponse response = run(engine, PaganticTelemetry.builder(otel.sdk).providerName("pagantic-test")
                        .build(),
                SystemRequest.builder().requestId("r-chat").sessionId("s-1").hints(HINTS).user("Weather?").build(),
                builder -> builder.tools(weather()));
        assertThat(response.error()).isEmpty();

        SpanData request = otel.named("invoke_workflow pagantic.chat");
        assertThat(request.getParentSpanContext().isValid()).isFalse();
        assertThat(request.getKind()).isEqualTo(SpanKind.INTERNAL);
        assertThat(attribute(request, GenAi.OPERATION_NAME)).isEqualTo("invoke_workflow");
        assertThat(attribute(request, GenAi.WORKFLOW_NAME)).isEqualTo("pagantic.chat");
        assertThat(attribute(request, GenAi.REQUEST_ID)).isEqualTo("r-chat");
        assertThat(attribute(request, GenAi.CONVERSATION_ID)).isEqualTo("s-1");
        assertThat(attribute(request, GenAi.LIFECYCLE_STATE)).isEqualTo("COMPLETE");
        assertThat(attribute(request, GenAi.FINISH_REASON)).isEqualTo("stop");
        assertThat(request.getEvents()).extracting(event -> event.getAttributes().get(GenAi.TO_STATE))
                .startsWith("PREPARE").endsWith("COMPLETE");
        assertThat(otel.childNames(request)).containsExactly("invoke_agent");

        SpanData turn = otel.named("invoke_agent");
        assertThat(attribute(turn, GenAi.OPERATION_NAME)).isEqualTo("invoke_agent");
        assertThat(attribute(turn, GenAi.PROVIDER_NAME)).isEqualTo("pagantic-test");
        assertThat(attribute(turn, GenAi.REQUEST_MODEL)).isEqualTo("tiny");
        assertThat(otel.childNames(turn)).containsExactly("chat tiny", "execute_tool weather", "chat tiny");

        List<SpanData> inferences = otel.all("chat tiny");
        for (SpanData chat : inferences) {
            assertThat(chat.getKind()).isEqualTo(SpanKind.CLIENT);
            assertThat(attribute(chat, GenAi.OPERATION_NAME)).isEqualTo("chat");
            assertThat(attribute(chat, GenAi.PROVIDER_NAME)).isEqualTo("pagantic-test");
            assertThat(attribute(chat, GenAi.REQUEST_MODEL)).isEqualTo("tiny");
            assertThat(attribute(chat, GenAi.REQUEST_MAX_TOKENS)).isEqualTo(64L);
            assertThat(attribute(chat, GenAi.REQUEST_TEMPERATURE)).isEqualTo(0.2);
            assertThat(attribute(chat, GenAi.REQUEST_SEED)).isEqualTo(7L);
            assertThat(attribute(chat, GenAi.USAGE_INPUT_TOKENS)).isPositive();
            assertThat(attribute(chat, GenAi.USAGE_OUTPUT_TOKENS)).isNotNegative();
            assertThat(chat.getAttributes().get(GenAi.INPUT_MESSAGES)).as("content is off by default").isNull();
        }
        assertThat(inferences).extracting(chat -> attribute(chat, GenAi.RESPONSE_FINISH_REASONS))
                .containsExactlyInAnyOrder(List.of("tool_calls"), List.of("stop"));
        long input = inferences.stream().mapToLong(chat -> attribute(chat, GenAi.USAGE_INPUT_TOKENS)).sum();
        assertThat(attribute(turn, GenAi.USAGE_INPUT_TOKENS)).isEqualTo(input);
        assertThat(attribute(request, GenAi.USAGE_INPUT_TOKENS)).isEqualTo(input);

        SpanData tool = otel.named("execute_tool weather");
        assertThat(tool.getKind()).isEqualTo(SpanKind.INTERNAL);
        assertThat(attribute(tool, GenAi.OPERATION_NAME)).isEqualTo("execute_tool");
        assertThat(attribute(tool, GenAi.TOOL_NAME)).isEqualTo("weather");
        assertThat(attribute(tool, GenAi.TOOL_CALL_ID)).isEqualTo(response.toolCallsMade().get(0).id());
        assertThat(attribute(tool, GenAi.TOOL_TYPE)).isEqualTo("function");
        assertThat(otel.finished()).allSatisfy(span -> {
            assertThat(span.getTraceId()).isEqualTo(request.getTraceId());
            assertThat(attribute(span, GenAi.REQUEST_ID)).isEqualTo("r-chat");
        });

        MetricData tokens = otel.metric(GenAiMetrics.TOKEN_USAGE).orElseThrow();
        assertThat(tokens.getUnit()).isEqualTo("{token}");
        HistogramPointData inputPoint = tokens.getHistogramData().getPoints().stream()
                .filter(point -> "input".equals(point.getAttributes().get(GenAi.TOKEN_TYPE))).findFirst().orElseThrow();
        assertThat(inputPoint.getCount()).isEqualTo(2);
        assertThat(inputPoint.getSum()).isEqualTo(input);
        assertThat(inputPoint.getBoundaries()).containsExactlyElementsOf(
                GenAiMetrics.TOKEN_BUCKETS.stream().map(Long::doubleValue).toList());
        assertThat(inputPoint.getAttributes().get(GenAi.OPERATION_NAME)).isEqualTo("chat");
        assertThat(inputPoint.getAttributes().get(GenAi.REQUEST_MODEL)).isEqualTo("tiny");
        MetricData duration = otel.metric(GenAiMetrics.OPERATION_DURATION).orElseThrow();
        assertThat(duration.getUnit()).isEqualTo("s");
        HistogramPointData durationPoint = duration.getHistogramData().getPoints().iterator().next();
        assertThat(durationPoint.getCount()).isEqualTo(2);
        assertThat(durationPoint.getBoundaries()).containsExactlyElementsOf(GenAiMetrics.DURATION_BUCKETS);
        HistogramPointData toolPoint = otel.metric(GenAiMetrics.TOOL_DURATION).orElseThrow().getHistogramData()
                .getPoints().iterator().next();
        assertThat(toolPoint.getCount()).isEqualTo(1);
        assertThat(toolPoint.getAttributes().get(GenAi.TOOL_NAME)).isEqualTo("weather");
    }

    @Test
    void aStructuredCallWithOneRetryShowsBothAttemptsAndTheValidationSteps() {
        ScriptedEngine engine = ScriptedEngine.builder().modelName("tiny")
                .reply("no json here").reply("{\"answer\": \"yes\"}").build();
        SystemResponse response = run(engine, PaganticTelemetry.create(otel.sdk),
                SystemRequest.builder().requestId("r-structured").mode(Mode.STRUCTURED)
                        .output(OutputContract.of(ANSWER)).user("Answer.").build(), builder -> { });
        assertThat(response.error()).as("%s", response.error()).isEmpty();

        SpanData request = otel.named("invoke_workflow pagantic.structured");
        assertThat(attribute(request, GenAi.LIFECYCLE_STATE)).isEqualTo("COMPLETE");
        assertThat(attribute(request, GenAi.ATTEMPT)).isEqualTo(2L);
        assertThat(attribute(request, GenAi.VALIDATION_STEPS)).isEqualTo(response.validationResult().orElseThrow()
                .stepsRun());
        assertThat(request.getEvents()).anySatisfy(event ->
                assertThat(event.getAttributes().get(GenAi.FROM_STATE)).isEqualTo("VALIDATE"));
        List<SpanData> attempts = otel.childrenOf(request);
        assertThat(attempts).extracting(SpanData::getName).containsExactly("chat tiny", "chat tiny");
        assertThat(attempts).extracting(chat -> attribute(chat, GenAi.ATTEMPT)).containsExactly(1L, 2L);
    }

    @Test
    void aPlanHasOneSpanPerStepWithItsInferenceInside() {
        ScriptedEngine engine = ScriptedEngine.builder().modelName("tiny").reply("an outline").reply("the answer")
                .build();
        StaticPlanner planner = StaticPlanner.fromJson("{\"rationale\": \"two steps\", \"steps\": ["
                + "{\"name\": \"outline\", \"type\": \"infer\"},"
                + "{\"name\": \"answer\", \"type\": \"infer\", \"depends_on\": [\"outline\"]}]}");
        SystemResponse response = run(engine, PaganticTelemetry.create(otel.sdk),
                SystemRequest.builder().requestId("r-plan").mode(Mode.PLAN).user("Plan it.").build(),
                builder -> builder.planner(planner));
        assertThat(response.error()).as("%s", response.error()).isEmpty();

        SpanData request = otel.named("invoke_workflow pagantic.plan");
        assertThat(otel.childNames(request)).containsExactly("plan_step outline", "plan_step answer");
        for (String step : List.of("outline", "answer")) {
            SpanData span = otel.named("plan_step " + step);
            assertThat(attribute(span, GenAi.STEP_NAME)).isEqualTo(step);
            assertThat(otel.childNames(span)).containsExactly("chat tiny");
        }
    }

    @Test
    void aRedundantVoteParentsEveryReplicaToTheRequestAndRecordsTheConfidence() {
        String json = "{\"answer\": \"yes\"}";
        ScriptedEngine engine = ScriptedEngine.builder().modelName("tiny").reply(json).reply(json)
                .reply("{\"answer\": \"no\"}").build();
        ExecutorService pool = Executors.newFixedThreadPool(3);
        try {
            SystemResponse response = run(engine, PaganticTelemetry.builder(otel.sdk)
                            .priceTable(PriceTable.builder().model("tiny", "1000", "2000").build()).build(),
                    SystemRequest.builder().requestId("r-vote").mode(Mode.REDUNDANT)
                            .output(OutputContract.of(ANSWER)).user("Vote.").build(),
                    builder -> builder.replicas(3).replicaExecutor(pool));
            assertThat(response.error()).as("%s", response.error()).isEmpty();

            SpanData request = otel.named("invoke_workflow pagantic.redundant");
            assertThat(otel.childNames(request)).containsOnly("chat tiny").hasSize(3);
            assertThat(attribute(request, GenAi.CONFIDENCE)).isCloseTo(2.0 / 3, offset(1e-9));
            assertThat(attribute(request, GenAi.CONFIDENCE_SOURCE)).isEqualTo("voting");
            long input = attribute(request, GenAi.USAGE_INPUT_TOKENS);
            long output = attribute(request, GenAi.USAGE_OUTPUT_TOKENS);
            assertThat(attribute(request, GenAi.COST)).isCloseTo((input * 1000.0 + output * 2000.0) / 1e6,
                    offset(1e-9));
            HistogramPointData confidence = otel.metric(GenAiMetrics.VOTE_CONFIDENCE).orElseThrow()
                    .getHistogramData().getPoints().iterator().next();
            assertThat(confidence.getCount()).isEqualTo(1);
            assertThat(confidence.getSum()).isCloseTo(2.0 / 3, offset(1e-9));
        } finally {
            pool.shutdownNow();
        }
    }

    @Test
    void aFailedInferenceEndsItsSpansWithTheErrorCodeAsErrorType() {
        ScriptedEngine engine = ScriptedEngine.builder().modelName("tiny")
                .fail(PaganticException.of(ErrorCode.INFERENCE_CONTEXT_EXCEEDED, "the prompt is too long")).build();
        SystemResponse response = run(engine, PaganticTelemetry.create(otel.sdk),
                SystemRequest.builder().requestId("r-fail").user("Hi").build(), builder -> { });
        assertThat(response.error()).isPresent();

        for (String name : List.of("chat tiny", "invoke_agent", "invoke_workflow pagantic.chat")) {
            SpanData span = otel.named(name);
            assertThat(span.getStatus().getStatusCode()).as(name).isEqualTo(StatusCode.ERROR);
            assertThat(attribute(span, GenAi.ERROR_TYPE)).as(name).isEqualTo("INFERENCE_CONTEXT_EXCEEDED");
        }
        assertThat(attribute(otel.named("invoke_workflow pagantic.chat"), GenAi.LIFECYCLE_STATE)).isEqualTo("ERROR");
        HistogramPointData failed = otel.metric(GenAiMetrics.OPERATION_DURATION).orElseThrow().getHistogramData()
                .getPoints().iterator().next();
        assertThat(failed.getAttributes().get(GenAi.ERROR_TYPE)).isEqualTo("INFERENCE_CONTEXT_EXCEEDED");
        assertThat(otel.metric(GenAiMetrics.TOKEN_USAGE)).isEmpty();
    }

    @Test
    void contentIsRecordedOnlyWhenTheUserOptsIn() {
        ScriptedEngine engine = ScriptedEngine.builder().modelName("tiny")
                .replyCallingTool("weather", Map.of("city", "Oslo")).reply("Sunny in Oslo.").build();
        run(engine, PaganticTelemetry.builder(otel.sdk).captureContent(true).build(),
                SystemRequest.builder().requestId("r-content").user("Weather in Oslo?").build(),
                builder -> builder.tools(weather()));

        List<SpanData> chats = otel.all("chat tiny");
        assertThat(attribute(chats.get(0), GenAi.INPUT_MESSAGES))
                .isEqualTo("[{\"role\":\"user\",\"parts\":[{\"type\":\"text\",\"content\":\"Weather in Oslo?\"}]}]");
        assertThat(attribute(chats.get(1), GenAi.OUTPUT_MESSAGES)).isEqualTo("[{\"role\":\"assistant\",\"parts\":"
                + "[{\"type\":\"text\",\"content\":\"Sunny in Oslo.\"}],\"finish_reason\":\"stop\"}]");
        SpanData tool = otel.named("execute_tool weather");
        assertThat(attribute(tool, GenAi.TOOL_CALL_ARGUMENTS)).isEqualTo("{\"city\":\"Oslo\"}");
        assertThat(attribute(tool, GenAi.TOOL_CALL_RESULT)).isEqualTo("sunny in Oslo");
    }

    @Test
    void anIncomingTraceparentBecomesTheParentOfTheRequestSpan() {
        ScriptedEngine engine = ScriptedEngine.replying("Hello.");
        run(engine, PaganticTelemetry.create(otel.sdk), SystemRequest.builder().requestId("r-traced").user("Hi")
                .traceContext(Map.of("traceparent", "00-4bf92f3577b34da6a3ce929d0e0e4736-00f067aa0ba902b7-01"))
                .build(), builder -> { });

        SpanData request = otel.named("invoke_workflow pagantic.chat");
        assertThat(request.getTraceId()).isEqualTo("4bf92f3577b34da6a3ce929d0e0e4736");
        assertThat(request.getParentSpanId()).isEqualTo("00f067aa0ba902b7");
        assertThat(request.getParentSpanContext().isRemote()).isTrue();
    }

    @Test
    void aBlankProviderNameIsRefusedAtBuildTime() {
        assertThatThrownBy(() -> PaganticTelemetry.builder(otel.sdk).providerName(" ")
                        .build())
                .isInstanceOfSatisfying(PaganticException.class,
                        failure -> assertThat(failure.code()).isEqualTo(ErrorCode.CONFIG_INVALID));
    }

    @AfterEach
    void close() {
        otel.close();
    }
}
