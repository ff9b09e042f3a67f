package dev.pagantic.orchestrate.facade;

import static org.assertj.core.api.Assertions.assertThat;

import dev.pagantic.core.Cancellation;
import dev.pagantic.core.Candidate;
import dev.pagantic.core.ErrorCode;
import dev.pagantic.core.FailureCategory;
import dev.pagantic.core.FinishReason;
import dev.pagantic.core.IdGenerator;
import dev.pagantic.core.Message;
import dev.pagantic.core.PaganticException;
import dev.pagantic.core.Role;
import dev.pagantic.core.Schema;
import dev.pagantic.core.TokenUsage;
import dev.pagantic.core.ToolCall;
import dev.pagantic.core.ToolDefinition;
import dev.pagantic.core.ToolResult;
import dev.pagantic.inference.Capability;
import dev.pagantic.inference.Request;
import dev.pagantic.inference.Result;
import dev.pagantic.inference.StreamHandler;
import dev.pagantic.memory.InMemoryConversationStore;
import dev.pagantic.observe.Event;
import dev.pagantic.observe.InMemoryEventLog;
import dev.pagantic.observe.LifecycleTransitionEvent;
import dev.pagantic.orchestrate.lifecycle.LifecycleState;
import dev.pagantic.orchestrate.plan.ExecutionPlan;
import dev.pagantic.orchestrate.plan.Step;
import dev.pagantic.orchestrate.plan.StepHandlers;
import dev.pagantic.orchestrate.plan.StepInput;
import dev.pagantic.orchestrate.plan.StepType;
import dev.pagantic.testkit.ScriptedEngine;
import dev.pagantic.testkit.SlowEngine;
import dev.pagantic.tool.Tool;
import dev.pagantic.tool.ToolRegistry;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.time.InstantSource;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class OrchestratorTest {

    private static final Schema CITY = Schema.object().required("city", Schema.string()).build();
    private static final Schema SENTIMENT = Schema.object()
            .required("sentiment", Schema.enumOf("positive", "negative", "neutral")).build();
    private static final String POSITIVE = "{\"sentiment\":\"positive\"}";
    private static final ToolDefinition CLOCK = ToolDefinition.of("get_time", "The caller's local time",
            Schema.object().build());

    private final InMemoryEventLog events = InMemoryEventLog.unbounded();
    private final List<String> weatherCalls = new ArrayList<>();

    private Tool weather() {
        return Tool.builder(ToolDefinition.of("get_weather", "Weather of a city", CITY))
                .handler((ctx, args) -> {
                    weatherCalls.add(String.valueOf(args.get("city")));
                    return "Sunny in " + args.get("city");
                }).build();
    }

    private Orchestrator.Builder orchestrator(ScriptedEngine engine) {
        return Orchestrator.builder().engine(engine).eventLog(events).idGenerator(IdGenerator.sequential("id-"));
    }

    private static SystemRequest chat(String... userMessages) {
        SystemRequest.Builder request = SystemRequest.builder();
        for (String message : userMessages) {
            request.user(message);
        }
        return request.build();
    }

    private List<String> transitions(String requestId) {
        return events.eventsOfRequest(requestId).stream()
                .filter(e -> e.action().equals(LifecycleTransitionEvent.ACTION))
                .map(e -> String.valueOf(e.data().get("to_state"))).toList();
    }

    // ------------------------------------------------------------------------------------------------ INIT

    @Test
    void buildWithoutEngineFailsWithConfigNoEngine() {
        try {
            Orchestrator.builder().build();
            throw new AssertionError("expected CONFIG_NO_ENGINE");
        } catch (PaganticException expected) {
            assertThat(expected.code()).isEqualTo(ErrorCode.CONFIG_NO_ENGINE);
        }
    }

    @Test
    void missingRequestAndTraceIdsAreGeneratedAtInitAndEchoed() {
        try (Orchestrator facade = orchestrator(ScriptedEngine.replying("Hello!")).build()) {
            SystemResponse response = facade.execute(chat("Hi"));

            assertThat(response.requestId()).isEqualTo("id-1");
            assertThat(response.sessionId()).isEmpty();
            assertThat(events.eventsOfRequest("id-1")).allMatch(e -> e.correlation().traceId().equals("id-2"));
        }
    }

    @Test
    void requestWithoutMessagesFailsAtInitWithConfigInvalidAndEndsInError() {
        try (Orchestrator facade = orchestrator(ScriptedEngine.replying("unused")).build()) {
            SystemResponse response = facade.execute(SystemRequest.builder().requestId("r").build());

            assertThat(response.error().orElseThrow().code()).isEqualTo(ErrorCode.CONFIG_INVALID);
            assertThat(response.finishReason()).isEqualTo(FinishReason.ERROR);
            assertThat(transitions("r")).containsExactly("ERROR");
        }
    }

    @Test
    void structuredModeWithoutSchemaFailsWithConfigSchemaRequired() {
        try (Orchestrator facade = orchestrator(ScriptedEngine.replying("unused")).build()) {
            SystemResponse response = facade.execute(SystemRequest.builder().mode(Mode.STRUCTURED).user("x").build());

            SystemError error = response.error().orElseThrow();
            assertThat(error.code()).isEqualTo(ErrorCode.CONFIG_SCHEMA_REQUIRED);
            assertThat(error.category()).isEqualTo(FailureCategory.CONFIGURATION);
            assertThat(error.retryable()).isFalse();
        }
    }

    @Test
    void missingGrammarFileFailsWithGrammarNotFoundAndMalformedGrammarWithGrammarInvalid(@TempDir Path dir) {
        try (Orchestrator facade = orchestrator(ScriptedEngine.replying(POSITIVE, POSITIVE)).build()) {
            SystemResponse missing = facade.execute(SystemRequest.builder().mode(Mode.STRUCTURED).user("x")
                    .output(OutputContract.builder().schema(SENTIMENT).grammarFile(dir.resolve("nope.gbnf")).build())
                    .build());
            SystemResponse malformed = facade.execute(SystemRequest.builder().mode(Mode.STRUCTURED).user("x")
                    .output(OutputContract.builder().schema(SENTIMENT).grammar("root ::= (").build()).build());

            assertThat(missing.error().orElseThrow().code()).isEqualTo(ErrorCode.CONFIG_GRAMMAR_NOT_FOUND);
            assertThat(malformed.error().orElseThrow().code()).isEqualTo(ErrorCode.CONFIG_GRAMMAR_INVALID);
        }
    }

    // ------------------------------------------------------------------------------------------------ chat

    @Test
    void chatWithoutSessionTreatsTheMessagesAsTheWholeHistoryAndKeepsNothing() {
        ScriptedEngine engine = ScriptedEngine.replying("London is rainy.");
        try (Orchestrator facade = orchestrator(engine).systemPrompt("Be brief.").build()) {
            SystemResponse response = facade.execute(SystemRequest.builder()
                    .user("Paris?").message(Message.assistant("Sunny.")).user("London?").build());

            assertThat(response.content()).isEqualTo("London is rainy.");
            assertThat(response.finishReason()).isEqualTo(FinishReason.STOP);
            assertThat(engine.lastRequest().orElseThrow().messages()).containsExactly(Message.system("Be brief."),
                    Message.user("Paris?"), Message.assistant("Sunny."), Message.user("London?"));
            assertThat(facade.liveSessions()).isZero();
        }
    }

    @Test
    void chatFillsContentToolCallsMadeAndUsage() {
        ScriptedEngine engine = ScriptedEngine.builder()
                .reply(Result.builder().toolCalls(List.of(ToolCall.of("call-1", "get_weather",
                        Map.of("city", "Paris")))).usage(TokenUsage.of(20, 5)).build())
                .reply(Result.builder().content("Sunny in Paris.").usage(TokenUsage.of(30, 4)).build())
                .build();
        try (Orchestrator facade = orchestrator(engine).tools(ToolRegistry.of(weather())).build()) {
            SystemResponse response = facade.execute(chat("Weather in Paris?"));

            assertThat(response.content()).isEqualTo("Sunny in Paris.");
            assertThat(response.toolCallsMade()).singleElement().satisfies(record -> {
                assertThat(record.id()).isEqualTo("call-1");
                assertThat(record.name()).isEqualTo("get_weather");
                assertThat(record.arguments()).containsEntry("city", "Paris");
                assertThat(record.result()).isEqualTo("Sunny in Paris");
                assertThat(record.duration().isNegative()).isFalse();
            });
            assertThat(response.tokenUsage()).isEqualTo(TokenUsage.of(50, 9));
            assertThat(response.structuredOutput()).isEmpty();
            assertThat(response.confidence()).isEmpty();
        }
    }

    @Test
    void sessionKeepsTheLoopAndAppendsEachRequestsNewMessages() {
        ScriptedEngine engine = ScriptedEngine.replying("Paris is sunny.", "London is rainy.");
        InMemoryConversationStore store = new InMemoryConversationStore();
        try (Orchestrator facade = orchestrator(engine).conversationStore(store).systemPrompt("Be brief.").build()) {
            facade.execute(SystemRequest.builder().sessionId("s1").user("Paris?").build());
            SystemResponse second = facade.execute(SystemRequest.builder().sessionId("s1").user("London?").build());

            assertThat(second.sessionId()).isEqualTo("s1");
            assertThat(engine.lastRequest().orElseThrow().messages()).containsExactly(Message.system("Be brief."),
                    Message.user("Paris?"), Message.assistant("Paris is sunny."), Message.user("London?"));
            assertThat(store.load("s1").messages()).hasSize(5).last()
                    .isEqualTo(Message.assistant("London is rainy."));
        }
    }

    @Test
    void evictedSessionIsRestoredFromTheStore() {
        ScriptedEngine engine = ScriptedEngine.replying("one", "two", "three");
        try (Orchestrator facade = orchestrator(engine).maxSessions(1).build()) {
            facade.execute(SystemRequest.builder().sessionId("a").user("first in a").build());
            facade.execute(SystemRequest.builder().sessionId("b").user("first in b").build());
            assertThat(facade.liveSessions()).isEqualTo(1);

            facade.execute(SystemRequest.builder().sessionId("a").user("second in a").build());

            assertThat(engine.lastRequest().orElseThrow().messages()).containsExactly(Message.user("first in a"),
                    Message.assistant("one"), Message.user("second in a"));
        }
    }

    @Test
    void idleSessionsExpireAfterTheirTimeToLive() {
        AtomicReference<Instant> now = new AtomicReference<>(Instant.parse("2026-01-01T00:00:00Z"));
        InstantSource clock = now::get;
        try (Orchestrator facade = orchestrator(ScriptedEngine.replying("a", "b")).clock(clock)
                .sessionTtl(Duration.ofMinutes(5)).build()) {
            facade.execute(SystemRequest.builder().sessionId("old").user("hi").build());
            now.set(now.get().plus(Duration.ofMinutes(6)));
            facade.execute(SystemRequest.builder().sessionId("new").user("hi").build());

            assertThat(facade.liveSessions()).isEqualTo(1);
        }
    }

    @Test
    void onlyTheSessionsIdleLongerThanTheTimeToLiveExpireWhateverOrderTheyWereOpenedIn() {
        AtomicReference<Instant> now = new AtomicReference<>(Instant.parse("2026-01-01T00:00:00Z"));
        InstantSource clock = now::get;
        try (Orchestrator facade = orchestrator(ScriptedEngine.replying("1", "2", "3", "4", "5", "6")).clock(clock)
                .sessionTtl(Duration.ofMinutes(5)).build()) {
            facade.execute(SystemRequest.builder().sessionId("a").user("hi").build());
            facade.execute(SystemRequest.builder().sessionId("b").user("hi").build());
            now.set(now.get().plus(Duration.ofMinutes(3)));
            facade.execute(SystemRequest.builder().sessionId("a").user("again").build()); // a is now the most recent
            facade.execute(SystemRequest.builder().sessionId("c").user("hi").build());
            now.set(now.get().plus(Duration.ofMinutes(3))); // b idle 6 min, a and c 3 min

            facade.execute(SystemRequest.builder().sessionId("d").user("hi").build());

            assertThat(facade.liveSessions()).isEqualTo(3); // a, c and d; b expired
        }
    }

    @Test
    void callerToolCallsAreHandedBackUnexecutedAndTheNextRequestCarriesTheirResults() {
        ScriptedEngine engine = ScriptedEngine.builder()
                .replyWithToolCalls(ToolCall.of("call-9", "get_time", Map.of()))
                .reply("It is noon.")
                .build();
        try (Orchestrator facade = orchestrator(engine).build()) {
            SystemResponse first = facade.execute(SystemRequest.builder().user("What time is it?")
                    .callerTool(CLOCK).build());

            assertThat(first.finishReason()).isEqualTo(FinishReason.TOOL_CALLS);
            assertThat(first.isSuccess()).isTrue();
            assertThat(first.toolCallsRequested()).extracting(ToolCall::id).containsExactly("call-9");
            assertThat(first.toolCallsMade()).isEmpty();
            assertThat(engine.requests().get(0).tools()).extracting(ToolDefinition::name).containsExactly("get_time");

            SystemResponse second = facade.execute(SystemRequest.builder().callerTool(CLOCK)
                    .user("What time is it?")
                    .message(Message.assistant("", first.toolCallsRequested()))
                    .message(ToolResult.success("call-9", "get_time", "12:00").toMessage())
                    .build());

            assertThat(second.content()).isEqualTo("It is noon.");
            assertThat(engine.lastRequest().orElseThrow().messages()).last().extracting(Message::role)
                    .isEqualTo(Role.TOOL);
        }
    }

    @Test
    void callerToolsWorkWithinASessionToo() {
        ScriptedEngine engine = ScriptedEngine.builder()
                .replyWithToolCalls(ToolCall.of("call-1", "get_time", Map.of()))
                .reply("Noon.")
                .build();
        try (Orchestrator facade = orchestrator(engine).build()) {
            SystemResponse first = facade.execute(SystemRequest.builder().sessionId("s").user("Time?")
                    .callerTool(CLOCK).build());
            SystemResponse second = facade.execute(SystemRequest.builder().sessionId("s").callerTool(CLOCK)
                    .message(ToolResult.success("call-1", "get_time", "12:00").toMessage()).build());

            assertThat(first.hasToolCallsRequested()).isTrue();
            assertThat(second.content()).isEqualTo("Noon.");
            assertThat(engine.lastRequest().orElseThrow().messages()).extracting(Message::role)
                    .containsExactly(Role.USER, Role.ASSISTANT, Role.TOOL);
        }
    }

    @Test
    void registeredAndCallerToolsCoexist() {
        ScriptedEngine engine = ScriptedEngine.builder()
                .replyWithToolCalls(ToolCall.of("c1", "get_weather", Map.of("city", "Oslo")),
                        ToolCall.of("c2", "get_time", Map.of()))
                .build();
        try (Orchestrator facade = orchestrator(engine).tools(ToolRegistry.of(weather())).build()) {
            SystemResponse response = facade.execute(SystemRequest.builder().user("Weather and time?")
                    .callerTool(CLOCK).build());

            assertThat(weatherCalls).containsExactly("Oslo");
            assertThat(response.toolCallsMade()).extracting(ToolCallRecord::id).containsExactly("c1");
            assertThat(response.toolCallsRequested()).extracting(ToolCall::id).containsExactly("c2");
        }
    }

    @Test
    void toolOutsideTheWhitelistGetsToolNotFoundAndNothingRuns() {
        Tool secret = Tool.builder(ToolDefinition.of("launch", "Launches", Schema.object().build()))
                .handler((ctx, args) -> {
                    throw new AssertionError("must not run");
                }).build();
        ScriptedEngine engine = ScriptedEngine.builder()
                .replyCallingTool("launch", Map.of())
                .reply("I cannot do that.")
                .build();
        try (Orchestrator facade = orchestrator(engine).tools(ToolRegistry.of(weather(), secret)).build()) {
            SystemResponse response = facade.execute(SystemRequest.builder().user("Launch!").tools("get_weather")
                    .build());

            assertThat(engine.requests().get(0).tools()).extracting(ToolDefinition::name)
                    .containsExactly("get_weather");
            ToolCallRecord record = response.toolCallsMade().get(0);
            assertThat(record.isError()).isTrue();
            assertThat(record.errorCode()).contains(ErrorCode.TOOL_NOT_FOUND);
            assertThat(response.content()).isEqualTo("I cannot do that.");
        }
    }

    @Test
    void whitelistNamingAnUnknownToolIsAConfigurationError() {
        try (Orchestrator facade = orchestrator(ScriptedEngine.replying("x")).tools(ToolRegistry.of(weather()))
                .build()) {
            SystemResponse response = facade.execute(SystemRequest.builder().user("hi").tools("get_wether").build());

            assertThat(response.error().orElseThrow().code()).isEqualTo(ErrorCode.CONFIG_INVALID);
        }
    }

    @Test
    void toolArgumentsAreValidatedAgainstTheParameterSchemaBeforeExecution() {
        ScriptedEngine engine = ScriptedEngine.builder()
                .replyCallingTool("get_weather", Map.of("town", "Paris"))
                .reply("Sorry.")
                .build();
        try (Orchestrator facade = orchestrator(engine).tools(ToolRegistry.of(weather())).build()) {
            SystemResponse response = facade.execute(chat("Weather?"));

            assertThat(weatherCalls).isEmpty();
            assertThat(response.toolCallsMade().get(0).errorCode()).contains(ErrorCode.TOOL_INVALID_ARGUMENTS);
        }
    }

    // ------------------------------------------------------------------------------------------------ hints

    @Test
    void hintsApplyToEveryInference() {
        ScriptedEngine engine = ScriptedEngine.replying("ok", "ok");
        try (Orchestrator facade = orchestrator(engine).build()) {
            facade.execute(SystemRequest.builder().user("a").hints(ExecutionHints.builder().maxTokens(64)
                    .temperature(0.0).topP(0.9).option("top_k", 40).build()).build());
            facade.execute(chat("b"));

            Request hinted = engine.requests().get(0);
            assertThat(hinted.settings().maxTokens()).isEqualTo(64);
            assertThat(hinted.settings().temperature()).hasValue(0.0);
            assertThat(hinted.settings().topP()).hasValue(0.9);
            assertThat(hinted.settings().options()).containsEntry("top_k", 40);
            Request plain = engine.requests().get(1);
            assertThat(plain.settings().maxTokens()).isEqualTo(2048);
            assertThat(plain.settings().temperature()).isEmpty();
            assertThat(plain.settings().topP()).isEmpty();
        }
    }

    @Test
    void timeoutHintCancelsTheRequestWithCancelledTimeout() {
        SlowEngine slow = SlowEngine.builder().delegate(ScriptedEngine.replying("a b c d e f g h"))
                .delayPerToken(Duration.ofMillis(200)).build();
        try (Orchestrator facade = Orchestrator.builder().engine(slow).eventLog(events).build()) {
            SystemResponse response = facade.execute(SystemRequest.builder().requestId("slow").user("go")
                    .hints(ExecutionHints.builder().timeout(Duration.ofMillis(100)).build()).build());

            assertThat(response.error().orElseThrow().code()).isEqualTo(ErrorCode.CANCELLED_TIMEOUT);
            assertThat(transitions("slow")).last().isEqualTo("CANCELLED");
        }
    }

    @Test
    void externalCancellationEndsTheRequestInCancelled() {
        Cancellation cancellation = new Cancellation();
        cancellation.cancel();
        try (Orchestrator facade = orchestrator(ScriptedEngine.replying("x")).build()) {
            SystemResponse response = facade.execute(SystemRequest.builder().requestId("c").user("hi").build(),
                    StreamHandler.NOOP, cancellation);

            assertThat(response.error().orElseThrow().code()).isEqualTo(ErrorCode.CANCELLED_SIGNAL);
            assertThat(transitions("c")).containsExactly("PREPARE", "CANCELLED");
        }
    }

    @Test
    void streamingReachesTheCallerThroughTheFacade() {
        StringBuilder streamed = new StringBuilder();
        StreamHandler handler = new StreamHandler() {
            @Override
            public void onContent(String delta) {
                streamed.append(delta);
            }
        };
        try (Orchestrator facade = orchestrator(ScriptedEngine.replying("streamed words")).build()) {
            facade.execute(chat("hi"), handler);
        }
        assertThat(streamed.toString()).isEqualTo("streamed words");
    }

    // ------------------------------------------------------------------------------------------------ modes

    @Test
    void structuredModeFillsRawContentStructuredOutputAndValidationResult() {
        ScriptedEngine engine = ScriptedEngine.replying("{\"sentiment\": \"Positive\"");
        try (Orchestrator facade = orchestrator(engine).build()) {
            SystemResponse response = facade.execute(SystemRequest.builder().mode(Mode.STRUCTURED)
                    .user("I love it").output(OutputContract.of(SENTIMENT)).build());

            assertThat(response.content()).isEqualTo("{\"sentiment\": \"Positive\"");
            assertThat(response.structuredOutput()).contains(Map.of("sentiment", "positive"));
            ValidationResult validation = response.validationResult().orElseThrow();
            assertThat(validation.repaired()).isTrue();
            assertThat(validation.valid()).isTrue();
            assertThat(response.confidence()).isEmpty();
        }
    }

    @Test
    void repairNotAllowedMakesMalformedOutputAConstraintFailure() {
        try (Orchestrator facade = orchestrator(ScriptedEngine.replying("{\"sentiment\": \"positive\"",
                "{\"sentiment\": \"positive\"", "{\"sentiment\": \"positive\"")).build()) {
            SystemResponse response = facade.execute(SystemRequest.builder().mode(Mode.STRUCTURED).user("x")
                    .output(OutputContract.builder().schema(SENTIMENT).repairAllowed(false).build()).build());

            SystemError error = response.error().orElseThrow();
            assertThat(error.code()).isEqualTo(ErrorCode.CONSTRAINT_JSON_INVALID);
            assertThat(error.retryable()).as("with repair off, a structural error is terminal (seed 001)").isFalse();
        }
    }

    @Test
    void lenientValidationReturnsTheOutputWithItsViolations() {
        try (Orchestrator facade = orchestrator(ScriptedEngine.replying("{\"sentiment\":\"angry\"}")).build()) {
            SystemResponse response = facade.execute(SystemRequest.builder().mode(Mode.STRUCTURED).user("x")
                    .output(OutputContract.builder().schema(SENTIMENT).strictValidation(false).build()).build());

            assertThat(response.isSuccess()).isTrue();
            assertThat(response.validationResult().orElseThrow().valid()).isFalse();
            assertThat(response.structuredOutput()).contains(Map.of("sentiment", "angry"));
        }
    }

    @Test
    void structuredRequestsOfOneSchemaKeepTheirOwnSystemMessageAndStrictness() {
        String angry = "{\"sentiment\":\"angry\"}";
        ScriptedEngine engine = ScriptedEngine.replying(POSITIVE, POSITIVE, angry, angry, angry, angry);
        try (Orchestrator facade = orchestrator(engine).build()) {
            OutputContract strict = OutputContract.builder().schema(SENTIMENT).strictValidation(true).build();
            OutputContract lenient = OutputContract.of(SENTIMENT);

            SystemResponse first = facade.execute(SystemRequest.builder().mode(Mode.STRUCTURED).system("Be A.")
                    .user("x").output(strict).build());
            SystemResponse second = facade.execute(SystemRequest.builder().mode(Mode.STRUCTURED).system("Be B.")
                    .user("x").output(strict).build());
            SystemResponse tolerated = facade.execute(SystemRequest.builder().mode(Mode.STRUCTURED).user("x")
                    .output(lenient).build());
            SystemResponse refused = facade.execute(SystemRequest.builder().mode(Mode.STRUCTURED).user("x")
                    .output(strict).build());

            assertThat(first.structuredOutput()).contains(Map.of("sentiment", "positive"));
            assertThat(second.structuredOutput()).contains(Map.of("sentiment", "positive"));
            assertThat(tolerated.structuredOutput()).contains(Map.of("sentiment", "angry"));
            assertThat(refused.error().orElseThrow().code()).isEqualTo(ErrorCode.CONSTRAINT_ENUM_UNRECOGNIZED);
        }
        assertThat(engine.requests().get(0).messages().get(0)).isEqualTo(Message.system("Be A."));
        assertThat(engine.requests().get(1).messages().get(0)).isEqualTo(Message.system("Be B."));
    }

    @Test
    void aGrammarFileChangedBetweenTwoStructuredRequestsConstrainsTheSecondWithItsNewText(@TempDir Path dir)
            throws Exception {
        Path file = Files.writeString(dir.resolve("sentiment.gbnf"),
                "root ::= \"{\\\"sentiment\\\":\\\"positive\\\"}\"");
        ScriptedEngine engine = ScriptedEngine.builder().capabilities(Capability.GRAMMAR)
                .reply(POSITIVE).reply(POSITIVE).build();
        try (Orchestrator facade = orchestrator(engine).build()) {
            OutputContract contract = OutputContract.builder().schema(SENTIMENT).grammarFile(file).build();
            facade.execute(SystemRequest.builder().mode(Mode.STRUCTURED).user("x").output(contract).build());
            Files.writeString(file, "root ::= \"{\\\"sentiment\\\": \\\"positive\\\"}\"");
            facade.execute(SystemRequest.builder().mode(Mode.STRUCTURED).user("x").output(contract).build());
        }
        assertThat(engine.requests().get(0).grammar().orElseThrow().text()).doesNotContain(": ");
        assertThat(engine.requests().get(1).grammar().orElseThrow().text()).contains(": ");
    }

    @Test
    void redundantModeReportsVotingConfidenceAndCandidates() {
        List<ExecutionContext> contexts = new ArrayList<>();
        ScriptedEngine engine = ScriptedEngine.replying(POSITIVE, POSITIVE, "{\"sentiment\":\"negative\"}");
        try (Orchestrator facade = orchestrator(engine).executionListener(contexts::add).build()) {
            SystemResponse response = facade.execute(SystemRequest.builder().mode(Mode.REDUNDANT)
                    .user("I love it").output(OutputContract.of(SENTIMENT)).build());

            assertThat(response.content()).isEqualTo(POSITIVE);
            assertThat(response.structuredOutput()).contains(Map.of("sentiment", "positive"));
            assertThat(response.confidence()).hasValue(2.0 / 3);
            assertThat(response.confidenceSource()).contains(ConfidenceSource.VOTING);
            assertThat(contexts.get(0).candidates()).hasSize(3);
        }
    }

    @Test
    void planModeRunsThePlannersPlanAndReportsEveryStep() {
        ScriptedEngine engine = ScriptedEngine.replying("Interfaces are implicit.");
        ExecutionPlan plan = ExecutionPlan.of(
                Step.of("retrieve", StepType.RETRIEVE, StepInput.text("How do interfaces work?")),
                Step.of("infer", StepType.INFER));
        try (Orchestrator facade = orchestrator(engine)
                .planner(StaticPlanner.of(plan))
                .handler(StepType.RETRIEVE, StepHandlers.retrieve((ctx, q) -> List.of(Message.system("docs: " + q))))
                .handler(StepType.INFER, StepHandlers.infer(engine))
                .build()) {
            SystemResponse response = facade.execute(SystemRequest.builder().requestId("p").mode(Mode.PLAN)
                    .user("How do interfaces work?").build());

            assertThat(response.content()).isEqualTo("Interfaces are implicit.");
            assertThat(response.structuredOutput()).contains(Map.of("retrieve", "docs: How do interfaces work?",
                    "infer", "Interfaces are implicit."));
            assertThat(transitions("p")).containsExactly("PLAN", "PREPARE", "EXECUTE", "VALIDATE", "COMPLETE");
            List<Event> steps = events.eventsOfRequest("p").stream().filter(e -> e.action().equals("step")).toList();
            assertThat(steps).extracting(e -> e.data().get("step_name")).containsExactly("retrieve", "infer");
            assertThat(steps).extracting(e -> e.correlation().causedBy()).containsExactly("retrieve", "infer");
        }
    }

    @Test
    void structuredModeWithRulesReportsTheirPassRateAsValidationConfidence() {
        try (Orchestrator facade = orchestrator(ScriptedEngine.replying(POSITIVE))
                .rules(dev.pagantic.validate.RuleValidator.of(dev.pagantic.validate.Rules.maxLength(100))).build()) {
            SystemResponse response = facade.execute(SystemRequest.builder().mode(Mode.STRUCTURED).user("x")
                    .output(OutputContract.of(SENTIMENT)).build());

            assertThat(response.confidence()).hasValue(1.0);
            assertThat(response.confidenceSource()).contains(ConfidenceSource.VALIDATION);
        }
    }

    @Test
    void planModeReportsTheToolCallsOfToolSteps() {
        ScriptedEngine engine = ScriptedEngine.replying("unused");
        ExecutionPlan plan = ExecutionPlan.of(Step.of("lookup", StepType.TOOL, StepInput.toolCalls(
                List.of(ToolCall.of("t-1", "get_weather", Map.of("city", "Oslo"))))));
        try (dev.pagantic.tool.ToolExecutor executor = dev.pagantic.tool.ToolExecutor.create();
             Orchestrator facade = orchestrator(engine).planner(StaticPlanner.of(plan))
                     .handler(StepType.TOOL, StepHandlers.tool(ToolRegistry.of(weather()), executor)).build()) {
            SystemResponse response = facade.execute(SystemRequest.builder().mode(Mode.PLAN).user("Oslo?").build());

            assertThat(response.toolCallsMade()).singleElement().satisfies(record -> {
                assertThat(record.id()).isEqualTo("t-1");
                assertThat(record.result()).isEqualTo("Sunny in Oslo");
            });
            assertThat(response.content()).isEqualTo("Sunny in Oslo");
        }
    }

    @Test
    void planModeRerankStepFillsTheExecutionContextsCandidateSet() {
        List<ExecutionContext> contexts = new ArrayList<>();
        ExecutionPlan plan = ExecutionPlan.of(
                Step.of("retrieve", StepType.RETRIEVE, StepInput.text("go")),
                Step.of("rerank", StepType.RERANK));
        try (Orchestrator facade = orchestrator(ScriptedEngine.replying("unused")).executionListener(contexts::add)
                .planner(StaticPlanner.of(plan))
                .handler(StepType.RETRIEVE, StepHandlers.retrieve((ctx, q) -> List.of(Message.system("a"),
                        Message.system("b"))))
                .handler(StepType.RERANK, StepHandlers.rerank((ctx, input) -> input.candidates().stream()
                        .map(c -> Candidate.of(c.content(), c.source(), 0.5))
                        .toList()))
                .build()) {
            facade.execute(SystemRequest.builder().mode(Mode.PLAN).user("go").build());
        }

        assertThat(contexts.get(0).candidates()).extracting(Candidate::content)
                .containsExactly("a", "b");
    }

    @Test
    void aPlanFileRunsOnTheBuiltInInferHandler() {
        ScriptedEngine engine = ScriptedEngine.replying("Draft.", "Final answer.");
        try (Orchestrator facade = orchestrator(engine).planner(StaticPlanner.fromJson(
                "{\"rationale\":\"two passes\",\"steps\":[{\"name\":\"draft\",\"type\":\"infer\"},"
                        + "{\"name\":\"final\",\"type\":\"infer\"}]}")).build()) {
            SystemResponse response = facade.execute(SystemRequest.builder().requestId("pf").mode(Mode.PLAN)
                    .user("Write a haiku.").build());

            assertThat(response.content()).isEqualTo("Final answer.");
            assertThat(engine.requests().get(0).messages()).containsExactly(Message.user("Write a haiku."));
            assertThat(engine.requests().get(1).messages()).containsExactly(Message.user("Draft."));
        }
    }

    @Test
    void aPlanFileThatIsNotAPlanIsRefused() {
        for (String json : List.of("nope", "{}", "{\"steps\":[{\"name\":\"a\",\"type\":\"Bad Type\"}]}")) {
            try {
                StaticPlanner.fromJson(json).createPlan(dev.pagantic.core.CallContext.background(),
                        SystemRequest.builder().user("x").build());
                throw new AssertionError("expected CONFIG_INVALID for " + json);
            } catch (PaganticException expected) {
                assertThat(expected.code()).as(json).isEqualTo(ErrorCode.CONFIG_INVALID);
            }
        }
    }

    @Test
    void planModeWithoutPlannerIsAConfigurationError() {
        try (Orchestrator facade = orchestrator(ScriptedEngine.replying("x")).build()) {
            SystemResponse response = facade.execute(SystemRequest.builder().mode(Mode.PLAN).user("x").build());

            assertThat(response.error().orElseThrow().code()).isEqualTo(ErrorCode.CONFIG_INVALID);
        }
    }

    // ------------------------------------------------------------------------------------------------ events

    @Test
    void eachLifecyclePathIsRecordedAsTransitionEvents() {
        ScriptedEngine engine = ScriptedEngine.replying("hi", POSITIVE, POSITIVE, POSITIVE, POSITIVE);
        try (Orchestrator facade = orchestrator(engine).build()) {
            facade.execute(SystemRequest.builder().requestId("chat").user("hi").build());
            facade.execute(SystemRequest.builder().requestId("structured").mode(Mode.STRUCTURED).user("x")
                    .output(OutputContract.of(SENTIMENT)).build());
            facade.execute(SystemRequest.builder().requestId("redundant").mode(Mode.REDUNDANT).user("x")
                    .output(OutputContract.of(SENTIMENT)).build());
        }
        assertThat(transitions("chat")).containsExactly("PREPARE", "EXECUTE", "COMPLETE");
        assertThat(transitions("structured")).containsExactly("PREPARE", "EXECUTE", "VALIDATE", "COMPLETE");
        assertThat(transitions("redundant")).containsExactly("PREPARE", "EXECUTE", "VALIDATE", "COMPLETE");
    }

    @Test
    void theRequestTimelineCanBeRebuiltFromTheEventLog() {
        ScriptedEngine engine = ScriptedEngine.builder()
                .replyWithToolCalls(ToolCall.of("call-7", "get_weather", Map.of("city", "Rome")))
                .reply("Sunny in Rome.")
                .build();
        try (Orchestrator facade = orchestrator(engine).tools(ToolRegistry.of(weather())).build()) {
            facade.execute(SystemRequest.builder().requestId("req-t").sessionId("sess-t").user("Rome?").build());
        }

        List<Event> timeline = events.eventsOfRequest("req-t");
        assertThat(timeline).extracting(Event::action).containsExactly(
                "lifecycle_transition", "lifecycle_transition",
                "inference_start", "inference_end",
                "tool_start", "tool_end", "tool",
                "inference_start", "inference_end",
                "lifecycle_transition");
        assertThat(timeline).allMatch(e -> e.correlation().sessionId().equals("sess-t"));
        assertThat(timeline.get(3).data()).containsEntry("tool_call_count", 1)
                .containsEntry("finish_reason", "tool_calls");
        for (Event tool : List.of(timeline.get(4), timeline.get(5), timeline.get(6))) {
            assertThat(tool.correlation().causedBy()).isEqualTo("call-7");
            assertThat(tool.data()).containsEntry("tool_call_id", "call-7");
        }
        assertThat(timeline.get(4).data()).containsKey("args_hash");
        assertThat(timeline.get(5).data()).containsEntry("success", true);
    }

    @Test
    void executionContextHoldsIdsModeStateAndSelectedTools() {
        List<ExecutionContext> contexts = new ArrayList<>();
        try (Orchestrator facade = orchestrator(ScriptedEngine.replying("ok")).tools(ToolRegistry.of(weather()))
                .executionListener(contexts::add).build()) {
            facade.execute(SystemRequest.builder().requestId("e").sessionId("s").user("hi").callerTool(CLOCK)
                    .build());
        }
        ExecutionContext context = contexts.get(0);
        assertThat(context.requestId()).isEqualTo("e");
        assertThat(context.sessionId()).isEqualTo("s");
        assertThat(context.mode()).isEqualTo(Mode.CHAT);
        assertThat(context.selectedTools()).containsExactly("get_weather", "get_time");
        assertThat(context.state().current()).isEqualTo(LifecycleState.COMPLETE);
    }
}
