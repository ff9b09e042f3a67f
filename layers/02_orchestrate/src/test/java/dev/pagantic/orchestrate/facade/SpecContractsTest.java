package dev.pagantic.orchestrate.facade;

import static org.assertj.core.api.Assertions.assertThat;

import dev.pagantic.core.ErrorCode;
import dev.pagantic.core.FailureCategory;
import dev.pagantic.core.IdGenerator;
import dev.pagantic.core.Message;
import dev.pagantic.core.Schema;
import dev.pagantic.core.TokenUsage;
import dev.pagantic.core.ToolCall;
import dev.pagantic.core.ToolDefinition;
import dev.pagantic.inference.Capability;
import dev.pagantic.inference.Request;
import dev.pagantic.inference.Result;
import dev.pagantic.inference.grammar.GbnfGrammar;
import dev.pagantic.observe.Event;
import dev.pagantic.observe.InMemoryEventLog;
import dev.pagantic.observe.LifecycleTransitionEvent;
import dev.pagantic.orchestrate.plan.ExecutionPlan;
import dev.pagantic.orchestrate.plan.Step;
import dev.pagantic.orchestrate.plan.StepHandlers;
import dev.pagantic.orchestrate.plan.StepInput;
import dev.pagantic.orchestrate.plan.StepType;
import dev.pagantic.testkit.ScriptedEngine;
import dev.pagantic.tool.Tool;
import dev.pagantic.tool.ToolRegistry;
import java.time.Duration;
import java.time.Instant;
import java.time.InstantSource;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.Test;

/**
 * Facade claims of seed 001 (contracts) that no other test asserted. Each test is named after its claim;
 * {@code docs/spec-coverage.md} maps every claim of seeds 000 and 001 to the test that checks it.
 */
class SpecContractsTest {

    private static final Schema CITY = Schema.object().required("city", Schema.string()).build();
    private static final Schema SENTIMENT = Schema.object()
            .required("sentiment", Schema.enumOf("positive", "negative", "neutral")).build();
    private static final String POSITIVE = "{\"sentiment\":\"positive\"}";
    private static final String ANGRY = "{\"sentiment\":\"angry\"}";

    private final InMemoryEventLog events = InMemoryEventLog.unbounded();

    private static Tool weather() {
        return Tool.builder(ToolDefinition.of("get_weather", "Weather of a city", CITY))
                .handler((ctx, args) -> "Sunny in " + args.get("city")).build();
    }

    private Orchestrator.Builder orchestrator(ScriptedEngine engine) {
        return Orchestrator.builder().engine(engine).eventLog(events).idGenerator(IdGenerator.sequential("id-"));
    }

    private List<Event> transitionEvents(String requestId) {
        return events.eventsOfRequest(requestId).stream()
                .filter(e -> e.action().equals(LifecycleTransitionEvent.ACTION)).toList();
    }

    // ------------------------------------------------------------------------------------------------ correlation

    @Test
    void aMissingRequestIdIsGeneratedAsAUuidByDefault() {
        try (Orchestrator facade = Orchestrator.builder().engine(ScriptedEngine.replying("hi")).eventLog(events)
                .build()) {
            SystemResponse response = facade.execute(SystemRequest.builder().user("hi").build());

            String id = response.requestId();
            assertThat(UUID.fromString(id).toString()).isEqualTo(id);
            assertThat(events.eventsOfRequest(id)).isNotEmpty();
        }
    }

    @Test
    void aCallersTraceIdIsPropagatedToEveryEventOfTheRequest() {
        ScriptedEngine engine = ScriptedEngine.builder()
                .replyWithToolCalls(ToolCall.of("call-1", "get_weather", Map.of("city", "Oslo")))
                .reply("Sunny.")
                .build();
        try (Orchestrator facade = orchestrator(engine).tools(ToolRegistry.of(weather())).build()) {
            facade.execute(SystemRequest.builder().requestId("r-trace").traceId("trace-from-caller").user("Oslo?")
                    .build());
        }
        List<Event> timeline = events.eventsOfRequest("r-trace");
        assertThat(timeline).extracting(Event::action).contains("lifecycle_transition", "inference_start",
                "inference_end", "tool");
        assertThat(timeline).allSatisfy(e -> assertThat(e.correlation().traceId()).isEqualTo("trace-from-caller"));
    }

    @Test
    void toolSpansAreChildrenOfTheRequestSpanInTheSameTrace() {
        ScriptedEngine engine = ScriptedEngine.builder()
                .replyWithToolCalls(ToolCall.of("call-1", "get_weather", Map.of("city", "Oslo")))
                .reply("Sunny.")
                .build();
        try (Orchestrator facade = orchestrator(engine).tools(ToolRegistry.of(weather())).build()) {
            facade.execute(SystemRequest.builder().requestId("r-span").traceId("t-span").user("Oslo?").build());
        }
        List<Event> timeline = events.eventsOfRequest("r-span");
        String rootSpan = transitionEvents("r-span").get(0).correlation().spanId();
        Event tool = timeline.stream().filter(e -> e.action().equals("tool")).findFirst().orElseThrow();

        assertThat(rootSpan).isNotBlank();
        assertThat(tool.correlation().traceId()).isEqualTo("t-span");
        assertThat(tool.correlation().parentSpanId()).isEqualTo(rootSpan);
        assertThat(tool.correlation().spanId()).isNotEqualTo(rootSpan);
        assertThat(tool.correlation().causedBy()).isEqualTo("call-1");
    }

    @Test
    void eventsOfTheRequestsOfOneSessionShareTheSessionId() {
        try (Orchestrator facade = orchestrator(ScriptedEngine.replying("one", "two")).build()) {
            facade.execute(SystemRequest.builder().requestId("r1").sessionId("conv").user("first").build());
            facade.execute(SystemRequest.builder().requestId("r2").sessionId("conv").user("second").build());
        }
        List<Event> conversation = events.events(e -> e.correlation().sessionId().equals("conv"));

        assertThat(conversation).extracting(Event::requestId).contains("r1", "r2");
        assertThat(events.eventsOfRequest("r1")).isNotEmpty().allSatisfy(e ->
                assertThat(e.correlation().sessionId()).isEqualTo("conv"));
        assertThat(events.eventsOfRequest("r2")).isNotEmpty().allSatisfy(e ->
                assertThat(e.correlation().sessionId()).isEqualTo("conv"));
    }

    @Test
    void executionContextCarriesTheTraceIdStartTimeAndMetadata() {
        Instant now = Instant.parse("2026-03-04T05:06:07Z");
        List<ExecutionContext> contexts = new ArrayList<>();
        try (Orchestrator facade = orchestrator(ScriptedEngine.replying("ok")).clock(InstantSource.fixed(now))
                .executionListener(contexts::add).build()) {
            facade.execute(SystemRequest.builder().requestId("e").traceId("t-e").user("hi").build());
        }
        ExecutionContext context = contexts.get(0);
        assertThat(context.traceId()).isEqualTo("t-e");
        assertThat(context.startedAt()).isEqualTo(now);
        assertThat(context.metadata()).isEmpty();
        context.putMetadata("tenant", "acme");
        assertThat(context.metadata()).containsEntry("tenant", "acme");
    }

    // ------------------------------------------------------------------------------------------------ response fields

    @Test
    void toolCallsMadeAreLoggedInInvocationOrder() {
        ScriptedEngine engine = ScriptedEngine.builder()
                .replyWithToolCalls(ToolCall.of("c1", "get_weather", Map.of("city", "Oslo")),
                        ToolCall.of("c2", "get_weather", Map.of("city", "Rome")))
                .replyWithToolCalls(ToolCall.of("c3", "get_weather", Map.of("city", "Paris")))
                .reply("Done.")
                .build();
        try (Orchestrator facade = orchestrator(engine).tools(ToolRegistry.of(weather())).build()) {
            SystemResponse response = facade.execute(SystemRequest.builder().user("Three cities?").build());

            assertThat(response.toolCallsMade()).extracting(ToolCallRecord::id).containsExactly("c1", "c2", "c3");
            assertThat(response.toolCallsMade()).extracting(ToolCallRecord::result)
                    .containsExactly("Sunny in Oslo", "Sunny in Rome", "Sunny in Paris");
        }
    }

    @Test
    void aChatResponseHasNoValidationResultAndNoStructuredOutput() {
        try (Orchestrator facade = orchestrator(ScriptedEngine.replying("Hello.")).build()) {
            SystemResponse response = facade.execute(SystemRequest.builder().user("hi").build());

            assertThat(response.content()).isEqualTo("Hello.");
            assertThat(response.validationResult()).isEmpty();
            assertThat(response.structuredOutput()).isEmpty();
        }
    }

    @Test
    void structuredModeResponseCarriesTheTokenUsage() {
        ScriptedEngine engine = ScriptedEngine.builder()
                .reply(Result.builder().content(POSITIVE).usage(TokenUsage.of(12, 5)).build()).build();
        try (Orchestrator facade = orchestrator(engine).build()) {
            SystemResponse response = facade.execute(SystemRequest.builder().mode(Mode.STRUCTURED).user("x")
                    .output(OutputContract.of(SENTIMENT)).build());

            assertThat(response.tokenUsage()).isEqualTo(TokenUsage.of(12, 5));
            assertThat(response.validationResult()).isPresent();
        }
    }

    @Test
    void redundantModeResponseCarriesTheTokenUsageOfAllReplicas() {
        ScriptedEngine engine = ScriptedEngine.builder()
                .reply(Result.builder().content(POSITIVE).usage(TokenUsage.of(10, 5)).build())
                .reply(Result.builder().content(POSITIVE).usage(TokenUsage.of(10, 6)).build())
                .reply(Result.builder().content(POSITIVE).usage(TokenUsage.of(10, 7)).build())
                .build();
        try (Orchestrator facade = orchestrator(engine).build()) {
            SystemResponse response = facade.execute(SystemRequest.builder().mode(Mode.REDUNDANT).user("x")
                    .output(OutputContract.of(SENTIMENT)).build());

            assertThat(response.tokenUsage()).isEqualTo(TokenUsage.of(30, 18));
            assertThat(response.confidence()).hasValue(1.0);
        }
    }

    @Test
    void planModeResponseCarriesTheTokenUsageOfItsInferenceSteps() {
        ScriptedEngine engine = ScriptedEngine.builder()
                .reply(Result.builder().content("Answer.").usage(TokenUsage.of(7, 3)).build()).build();
        ExecutionPlan plan = ExecutionPlan.of(Step.of("infer", StepType.INFER, StepInput.text("q")));
        try (Orchestrator facade = orchestrator(engine).planner(StaticPlanner.of(plan))
                .handler(StepType.INFER, StepHandlers.infer(engine)).build()) {
            SystemResponse response = facade.execute(SystemRequest.builder().mode(Mode.PLAN).user("q").build());

            assertThat(response.content()).isEqualTo("Answer.");
            assertThat(response.tokenUsage()).isEqualTo(TokenUsage.of(7, 3));
        }
    }

    @Test
    void aFailedPlanKeepsTheCompletedStepsOutputsAsPartialOutput() {
        ScriptedEngine engine = ScriptedEngine.builder().fail(ErrorCode.INFERENCE_ENGINE_ERROR, "down").build();
        ExecutionPlan plan = ExecutionPlan.of(
                Step.of("retrieve", StepType.RETRIEVE, StepInput.text("interfaces")),
                Step.of("infer", StepType.INFER));
        try (Orchestrator facade = orchestrator(engine).planner(StaticPlanner.of(plan))
                .handler(StepType.RETRIEVE, StepHandlers.retrieve((ctx, q) -> List.of(Message.system("docs: " + q))))
                .handler(StepType.INFER, StepHandlers.infer(engine)).build()) {
            SystemResponse response = facade.execute(SystemRequest.builder().mode(Mode.PLAN).user("q").build());

            assertThat(response.error().orElseThrow().code()).isEqualTo(ErrorCode.INFERENCE_ENGINE_ERROR);
            assertThat(response.structuredOutput()).contains(Map.of("retrieve", "docs: interfaces"));
        }
    }

    // ------------------------------------------------------------------------------------------------ contract, hints

    @Test
    void aGrammarInTheOutputContractIsSentToTheEngineDecoder() {
        String grammar = "root ::= \"{\" [^}]* \"}\"";
        ScriptedEngine engine = ScriptedEngine.builder().capabilities(Capability.GRAMMAR).reply(POSITIVE).build();
        try (Orchestrator facade = orchestrator(engine).build()) {
            SystemResponse response = facade.execute(SystemRequest.builder().mode(Mode.STRUCTURED).user("x")
                    .output(OutputContract.builder().schema(SENTIMENT).grammar(grammar).build()).build());

            assertThat(response.isSuccess()).isTrue();
            assertThat(engine.lastRequest().orElseThrow().grammar()).contains(GbnfGrammar.parse(grammar));
        }
    }

    @Test
    void strictValidationMakesAnyViolationTerminalWithNoPartialOutput() {
        try (Orchestrator facade = orchestrator(ScriptedEngine.replying(ANGRY, ANGRY, ANGRY)).build()) {
            SystemResponse response = facade.execute(SystemRequest.builder().mode(Mode.STRUCTURED).user("x")
                    .output(OutputContract.builder().schema(SENTIMENT).strictValidation(true).build()).build());

            assertThat(response.error().orElseThrow().category()).isEqualTo(FailureCategory.CONSTRAINT);
            assertThat(response.content()).isEmpty();
            assertThat(response.structuredOutput()).isEmpty();
            assertThat(response.validationResult()).isEmpty();
        }
    }

    @Test
    void exhaustedRetriesEndTheRequestInErrorWithTheLastFailureCategory() {
        try (Orchestrator facade = orchestrator(ScriptedEngine.replying(ANGRY, ANGRY, ANGRY)).build()) {
            SystemResponse response = facade.execute(SystemRequest.builder().requestId("retry").mode(Mode.STRUCTURED)
                    .user("x").output(OutputContract.builder().schema(SENTIMENT).strictValidation(true).build())
                    .build());

            assertThat(response.error().orElseThrow().category()).isEqualTo(FailureCategory.CONSTRAINT);
        }
        List<Event> transitions = transitionEvents("retry");
        assertThat(transitions).extracting(e -> e.data().get("to_state")).containsExactly("PREPARE", "EXECUTE",
                "VALIDATE", "EXECUTE", "VALIDATE", "EXECUTE", "VALIDATE", "ERROR");
        assertThat(transitions).extracting(e -> e.data().get("attempt")).containsExactly(1, 1, 1, 2, 2, 3, 3, 3);
        assertThat(String.valueOf(transitions.get(transitions.size() - 1).data().get("reason")))
                .startsWith("CONSTRAINT_");
    }

    @Test
    void hintsApplyToTheInferencesOfStructuredAndRedundantModes() {
        ScriptedEngine engine = ScriptedEngine.replying(POSITIVE, POSITIVE, POSITIVE, POSITIVE);
        ExecutionHints hints = ExecutionHints.builder().maxTokens(64).temperature(0.1).topP(0.9).option("top_k", 40)
                .build();
        try (Orchestrator facade = orchestrator(engine).build()) {
            facade.execute(SystemRequest.builder().mode(Mode.STRUCTURED).user("x").hints(hints)
                    .output(OutputContract.of(SENTIMENT)).build());
            facade.execute(SystemRequest.builder().mode(Mode.REDUNDANT).user("x").hints(hints)
                    .output(OutputContract.of(SENTIMENT)).build());
        }
        List<Request> requests = engine.requests();
        assertThat(requests).hasSize(4).allSatisfy(request -> {
            assertThat(request.settings().maxTokens()).isEqualTo(64);
            assertThat(request.settings().temperature()).hasValue(0.1);
            assertThat(request.settings().topP()).hasValue(0.9);
            assertThat(request.settings().options()).containsEntry("top_k", 40);
        });
    }

    @Test
    void aTimeoutHintOfZeroMeansNoDeadline() {
        AtomicReference<Instant> now = new AtomicReference<>(Instant.parse("2026-01-01T00:00:00Z"));
        ScriptedEngine engine = ScriptedEngine.builder()
                .replyWith(request -> {
                    now.set(now.get().plus(Duration.ofHours(5))); // a very slow inference
                    return Result.builder().content("finally").build();
                })
                .build();
        try (Orchestrator facade = orchestrator(engine).clock(now::get).build()) {
            SystemResponse response = facade.execute(SystemRequest.builder().user("go")
                    .hints(ExecutionHints.builder().timeout(Duration.ZERO).build()).build());

            assertThat(response.isSuccess()).isTrue();
            assertThat(response.content()).isEqualTo("finally");
        }
    }
}
