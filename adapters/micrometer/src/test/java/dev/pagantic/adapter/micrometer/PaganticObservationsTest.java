package dev.pagantic.adapter.micrometer;

import static io.micrometer.observation.tck.TestObservationRegistryAssert.assertThat;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.pagantic.core.ErrorCode;
import dev.pagantic.core.PaganticException;
import dev.pagantic.core.Schema;
import dev.pagantic.core.ToolDefinition;
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
import io.micrometer.core.instrument.Timer;
import io.micrometer.core.instrument.observation.DefaultMeterObservationHandler;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import io.micrometer.observation.Observation;
import io.micrometer.observation.ObservationHandler;
import io.micrometer.observation.tck.TestObservationRegistry;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.function.Consumer;
import org.assertj.core.data.Offset;
import org.junit.jupiter.api.Test;

/**
 * The observations and meters of the same runs as the OpenTelemetry adapter's test, through Micrometer's test
 * registry (which also checks that every observation is started, stopped and scoped correctly) and a simple meter
 * registry with Micrometer's default meter handler, as Spring Boot configures it.
 */
class PaganticObservationsTest {

    private static final Schema ANSWER = Schema.object().required("answer", Schema.enumOf("yes", "no")).build();

    private final TestObservationRegistry observations = TestObservationRegistry.create();
    private final SimpleMeterRegistry meters = new SimpleMeterRegistry();

    private final List<Observation.Context> stopped = new CopyOnWriteArrayList<>();

    PaganticObservationsTest() {
        observations.observationConfig().observationHandler(new DefaultMeterObservationHandler(meters))
                .observationHandler(new ObservationHandler<>() {
                    @Override
                    public void onStop(Observation.Context context) {
                        stopped.add(context);
                    }

                    @Override
                    public boolean supportsContext(Observation.Context context) {
                        return true;
                    }
                });
    }

    private SystemResponse run(ScriptedEngine engine, SystemRequest request, Consumer<Orchestrator.Builder> wiring) {
        Orchestrator.Builder builder = Orchestrator.builder().engine(engine)
                .observer(PaganticObservations.of(observations, meters));
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

    private List<Observation.Context> contexts(String name) {
        return stopped.stream().filter(context -> context.getName().equals(name)).toList();
    }

    @Test
    void aToolCallingChatIsObservedWithSpringAisKeysAndNested() {
        ScriptedEngine engine = ScriptedEngine.builder().modelName("tiny")
                .replyCallingTool("weather", Map.of("city", "Paris")).reply("It is sunny.").build();
        SystemResponse response = run(engine, SystemRequest.builder().requestId("r-chat").sessionId("s-1")
                .hints(ExecutionHints.builder().maxTokens(64).temperature(0.2).build()).user("Weather?").build(),
                builder -> builder.tools(weather()));
        assertThat(response.error()).isEmpty();

        assertThat(observations).hasNumberOfObservationsWithNameEqualTo(PaganticObservations.REQUEST, 1)
                .hasNumberOfObservationsWithNameEqualTo(PaganticObservations.TURN, 1)
                .hasNumberOfObservationsWithNameEqualTo(PaganticObservations.INFERENCE, 2)
                .hasNumberOfObservationsWithNameEqualTo(PaganticObservations.TOOL, 1);
        assertThat(observations).hasObservationWithNameEqualTo(PaganticObservations.REQUEST).that()
                .hasContextualNameEqualTo("invoke_workflow pagantic.chat")
                .hasLowCardinalityKeyValue("pagantic.mode", "chat")
                .hasLowCardinalityKeyValue("error.type", "none")
                .hasHighCardinalityKeyValue("gen_ai.conversation.id", "s-1")
                .hasHighCardinalityKeyValue("pagantic.request.id", "r-chat");
        assertThat(observations).hasObservationWithNameEqualTo(PaganticObservations.INFERENCE).that()
                .hasContextualNameEqualTo("chat tiny")
                .hasLowCardinalityKeyValue("gen_ai.operation.name", "chat")
                .hasLowCardinalityKeyValue("gen_ai.system", "pagantic")
                .hasLowCardinalityKeyValue("gen_ai.request.model", "tiny")
                .hasHighCardinalityKeyValue("gen_ai.request.max_tokens", "64")
                .hasHighCardinalityKeyValue("gen_ai.request.temperature", "0.2")
                .hasParentObservationContextMatching(parent -> parent.getName().equals(PaganticObservations.TURN));
        assertThat(observations).hasObservationWithNameEqualTo(PaganticObservations.TOOL).that()
                .hasContextualNameEqualTo("execute_tool weather")
                .hasLowCardinalityKeyValue("gen_ai.tool.name", "weather")
                .hasHighCardinalityKeyValue("gen_ai.tool.call.id", response.toolCallsMade().get(0).id())
                .hasParentObservationContextMatching(parent -> parent.getName().equals(PaganticObservations.TURN));
        assertThat(contexts(PaganticObservations.TURN).get(0).getParentObservation().getContextView().getName())
                .isEqualTo(PaganticObservations.REQUEST);

        Timer inferences = meters.get(PaganticObservations.INFERENCE).tag("gen_ai.request.model", "tiny").timer();
        assertThat(inferences.count()).isEqualTo(2);
        assertThat(meters.get(PaganticObservations.TOOL).tag("gen_ai.tool.name", "weather").timer().count())
                .isEqualTo(1);
        double input = meters.get(PaganticObservations.TOKEN_USAGE).tag("gen_ai.token.type", "input").counter()
                .count();
        assertThat(input).isEqualTo(response.tokenUsage().promptTokens());
        assertThat(meters.get(PaganticObservations.TOKEN_USAGE).tag("gen_ai.token.type", "total").counter().count())
                .isEqualTo(response.tokenUsage().promptTokens() + response.tokenUsage().outputTokens());
    }

    @Test
    void aStructuredCallWithOneRetryIsOneRequestOfTwoInferences() {
        ScriptedEngine engine = ScriptedEngine.builder().modelName("tiny")
                .reply("no json here").reply("{\"answer\": \"yes\"}").build();
        SystemResponse response = run(engine, SystemRequest.builder().requestId("r-structured")
                .mode(Mode.STRUCTURED).output(OutputContract.of(ANSWER)).user("Answer.").build(), builder -> { });
        assertThat(response.error()).as("%s", response.error()).isEmpty();

        assertThat(observations).hasNumberOfObservationsWithNameEqualTo(PaganticObservations.REQUEST, 1)
                .hasNumberOfObservationsWithNameEqualTo(PaganticObservations.INFERENCE, 2);
        assertThat(contexts(PaganticObservations.INFERENCE)).allSatisfy(context ->
                assertThat(context.getParentObservation().getContextView().getName())
                        .isEqualTo(PaganticObservations.REQUEST));
        assertThat(meters.get(PaganticObservations.REQUEST).tag("pagantic.mode", "structured").timer().count())
                .isEqualTo(1);
    }

    @Test
    void aPlanIsObservedStepByStep() {
        ScriptedEngine engine = ScriptedEngine.builder().modelName("tiny").reply("an outline").reply("the answer")
                .build();
        StaticPlanner planner = StaticPlanner.fromJson("{\"rationale\": \"two steps\", \"steps\": ["
                + "{\"name\": \"outline\", \"type\": \"infer\"},"
                + "{\"name\": \"answer\", \"type\": \"infer\", \"depends_on\": [\"outline\"]}]}");
        SystemResponse response = run(engine, SystemRequest.builder().requestId("r-plan").mode(Mode.PLAN)
                .user("Plan it.").build(), builder -> builder.planner(planner));
        assertThat(response.error()).as("%s", response.error()).isEmpty();

        assertThat(observations).hasNumberOfObservationsWithNameEqualTo(PaganticObservations.STEP, 2);
        assertThat(contexts(PaganticObservations.STEP)).extracting(Observation.Context::getContextualName)
                .containsExactly("plan_step outline", "plan_step answer");
        assertThat(contexts(PaganticObservations.INFERENCE)).allSatisfy(context ->
                assertThat(context.getParentObservation().getContextView().getName())
                        .isEqualTo(PaganticObservations.STEP));
        assertThat(meters.get(PaganticObservations.STEP).tag("pagantic.step.name", "answer").timer().count())
                .isEqualTo(1);
    }

    @Test
    void aRedundantVoteRecordsItsConfidenceAndParentsReplicasToTheRequest() {
        String json = "{\"answer\": \"yes\"}";
        ScriptedEngine engine = ScriptedEngine.builder().modelName("tiny").reply(json).reply(json)
                .reply("{\"answer\": \"no\"}").build();
        ExecutorService pool = Executors.newFixedThreadPool(3);
        try {
            SystemResponse response = run(engine, SystemRequest.builder().requestId("r-vote").mode(Mode.REDUNDANT)
                    .output(OutputContract.of(ANSWER)).user("Vote.").build(),
                    builder -> builder.replicas(3).replicaExecutor(pool));
            assertThat(response.error()).as("%s", response.error()).isEmpty();
        } finally {
            pool.shutdownNow();
        }

        assertThat(contexts(PaganticObservations.INFERENCE)).hasSize(3).allSatisfy(context ->
                assertThat(context.getParentObservation().getContextView().getName())
                        .isEqualTo(PaganticObservations.REQUEST));
        assertThat(meters.get(PaganticObservations.VOTE_CONFIDENCE).summary().mean())
                .isCloseTo(2.0 / 3, Offset.offset(1e-9));
    }

    @Test
    void aFailedInferenceTagsEveryTimerWithTheErrorCode() {
        ScriptedEngine engine = ScriptedEngine.builder().modelName("tiny")
                .fail(PaganticException.of(ErrorCode.INFERENCE_CONTEXT_EXCEEDED, "the prompt is too long")).build();
        SystemResponse response = run(engine, SystemRequest.builder().requestId("r-fail").user("Hi").build(),
                builder -> { });
        assertThat(response.error()).isPresent();

        assertThat(observations).hasObservationWithNameEqualTo(PaganticObservations.INFERENCE).that()
                .hasLowCardinalityKeyValue("error.type", "INFERENCE_CONTEXT_EXCEEDED").assertThatError()
                .isInstanceOf(PaganticException.class);
        assertThat(meters.get(PaganticObservations.REQUEST).tag("error.type", "INFERENCE_CONTEXT_EXCEEDED").timer()
                .count()).isEqualTo(1);
    }

    @Test
    void aBlankProviderIsRefused() {
        assertThatThrownBy(() -> PaganticObservations.of(observations)
                        .withProvider(" "))
                .isInstanceOfSatisfying(PaganticException.class,
                        failure -> assertThat(failure.code()).isEqualTo(ErrorCode.CONFIG_INVALID));
    }
}
