package dev.pagantic.orchestrate.agent;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.pagantic.core.CallContext;
import dev.pagantic.core.Cancellation;
import dev.pagantic.core.ErrorCode;
import dev.pagantic.core.Message;
import dev.pagantic.core.PaganticException;
import dev.pagantic.core.Role;
import dev.pagantic.core.Schema;
import dev.pagantic.core.TokenUsage;
import dev.pagantic.core.ToolCall;
import dev.pagantic.core.ToolDefinition;
import dev.pagantic.inference.Capability;
import dev.pagantic.inference.InferenceSettings;
import dev.pagantic.inference.Request;
import dev.pagantic.inference.Result;
import dev.pagantic.inference.StreamHandler;
import dev.pagantic.inference.grammar.GbnfGrammar;
import dev.pagantic.observe.Event;
import dev.pagantic.observe.EventLog;
import dev.pagantic.observe.InMemoryEventLog;
import dev.pagantic.orchestrate.lifecycle.ExecutionLifecycle;
import dev.pagantic.orchestrate.lifecycle.LifecycleState;
import dev.pagantic.orchestrate.lifecycle.PatternPath;
import dev.pagantic.orchestrate.lifecycle.Transition;
import dev.pagantic.orchestrate.lifecycle.TransitionListener;
import dev.pagantic.orchestrate.spi.Interceptor;
import dev.pagantic.orchestrate.spi.Invocation;
import dev.pagantic.orchestrate.spi.InvocationKind;
import dev.pagantic.testkit.ScriptedEngine;
import dev.pagantic.tool.Tool;
import dev.pagantic.tool.ToolExecutor;
import dev.pagantic.tool.ToolRegistry;
import java.time.Duration;
import java.time.Instant;
import java.time.InstantSource;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.Test;

class AgentLoopTest {

    private static final Schema CITY = Schema.object().required("city", Schema.string()).build();
    private static final Schema SENTIMENT = Schema.object()
            .required("sentiment", Schema.enumOf("positive", "negative", "neutral"))
            .required("confidence", Schema.number())
            .build();
    private static final String SENTIMENT_GRAMMAR = "root ::= \"{\" [^}]* \"}\"";

    private static Tool weatherTool(List<String> calls) {
        return Tool.builder(ToolDefinition.of("get_weather", "Current weather of a city", CITY))
                .handler((ctx, args) -> {
                    calls.add(String.valueOf(args.get("city")));
                    return "Sunny in " + args.get("city");
                })
                .build();
    }

    private static Tool failingTool() {
        return Tool.builder(ToolDefinition.of("broken", "Always fails", Schema.object().build()))
                .handler((ctx, args) -> {
                    throw new IllegalStateException("disk on fire");
                })
                .build();
    }

    private static CallContext session() {
        return CallContext.builder().requestId("req-1").sessionId("chat-42").build();
    }

    private static PaganticException failure(Runnable action) {
        try {
            action.run();
        } catch (PaganticException expected) {
            return expected;
        }
        throw new AssertionError("expected a PaganticException");
    }

    // ------------------------------------------------------------------------------------------------ configuration

    @Test
    void buildWithoutEngineFailsWithConfigNoEngine() {
        assertThat(failure(() -> AgentLoop.builder().build()).code()).isEqualTo(ErrorCode.CONFIG_NO_ENGINE);
    }

    @Test
    void defaultsAreTheSpecificationsMaxTokensAndMaxToolIterations() {
        AgentLoop agent = AgentLoop.builder().engine(ScriptedEngine.replying("hi")).build();
        assertThat(agent.settings().inference().maxTokens()).isEqualTo(2048);
        assertThat(agent.settings().maxToolIterations()).isEqualTo(20);
    }

    @Test
    void invalidSettingsAreRefusedAtBuild() {
        ScriptedEngine engine = ScriptedEngine.replying("hi");
        assertThat(failure(() -> AgentLoop.builder().engine(engine).maxToolIterations(0).build()).code())
                .isEqualTo(ErrorCode.CONFIG_INVALID);
        assertThat(failure(() -> AgentLoop.builder().engine(engine).maxTokens(-1).build()).code())
                .isEqualTo(ErrorCode.CONFIG_INVALID);
        assertThat(failure(() -> AgentLoop.builder().engine(engine)
                .grammar(GbnfGrammar.parse("root ::= (")).build()).code())
                .isEqualTo(ErrorCode.CONFIG_GRAMMAR_INVALID);
        assertThat(failure(() -> AgentLoop.builder().engine(engine).systemPrompt("a")
                .promptProvider(() -> Message.system("b")).build()).code()).isEqualTo(ErrorCode.CONFIG_INVALID);
        assertThat(failure(() -> AgentLoop.builder().engine(engine)
                .promptProvider(() -> Message.user("not a system message")).build()).code())
                .isEqualTo(ErrorCode.CONFIG_INVALID);
    }

    // ------------------------------------------------------------------------------------------------ chat

    @Test
    void chatAppendsUserMessageAndStoresFinalAnswer() {
        ScriptedEngine engine = ScriptedEngine.replying("Hello there.");
        AgentLoop agent = AgentLoop.builder().engine(engine).systemPrompt("Be brief.").build();

        Result result = agent.chat(session(), "Hi");

        assertThat(result.content()).isEqualTo("Hello there.");
        assertThat(agent.messages()).containsExactly(
                Message.system("Be brief."), Message.user("Hi"), Message.assistant("Hello there."));
        assertThat(engine.requests().get(0).messages())
                .containsExactly(Message.system("Be brief."), Message.user("Hi"));
    }

    @Test
    void stateAccumulatesAcrossTurns() {
        ScriptedEngine engine = ScriptedEngine.replying("Paris is sunny.", "London is rainy.");
        AgentLoop agent = AgentLoop.builder().engine(engine).systemPrompt("sys").build();

        agent.chat(session(), "Paris?");
        agent.chat(session(), "London?");

        assertThat(agent.messages()).extracting(Message::content)
                .containsExactly("sys", "Paris?", "Paris is sunny.", "London?", "London is rainy.");
        assertThat(engine.requests().get(1).messages()).extracting(Message::content)
                .containsExactly("sys", "Paris?", "Paris is sunny.", "London?");
    }

    @Test
    void requestCarriesToolDefinitionsAndMaxTokens() {
        ScriptedEngine engine = ScriptedEngine.replying("ok");
        try (AgentLoop agent = AgentLoop.builder().engine(engine).maxTokens(100)
                .tools(ToolRegistry.of(weatherTool(new ArrayList<>()))).build()) {
            agent.chat(session(), "Hi");
        }
        Request request = engine.requests().get(0);
        assertThat(request.tools()).extracting(ToolDefinition::name).containsExactly("get_weather");
        assertThat(request.settings().maxTokens()).isEqualTo(100);
        assertThat(request.grammar()).isEmpty();
        assertThat(request.settings().temperature()).isEmpty();
    }

    @Test
    void ephemeralContextIsInsertedJustBeforeUserMessageAndNeverStored() {
        ScriptedEngine engine = ScriptedEngine.builder()
                .replyCallingTool("get_weather", Map.of("city", "Paris"))
                .reply("Sunny.")
                .reply("Rainy.")
                .build();
        List<String> queries = new ArrayList<>();
        try (AgentLoop agent = AgentLoop.builder().engine(engine).systemPrompt("sys")
                .tools(ToolRegistry.of(weatherTool(new ArrayList<>())))
                .contextProvider((ctx, query) -> {
                    queries.add(query);
                    return List.of(Message.system("context for " + query));
                })
                .build()) {
            agent.chat(session(), "Paris?");
            agent.chat(session(), "London?");

            assertThat(queries).containsExactly("Paris?", "London?");
            assertThat(agent.messages()).noneMatch(m -> m.content().startsWith("context for"));
        }
        // first inference: the context sits just before the user message
        assertThat(engine.requests().get(0).messages()).extracting(Message::content)
                .containsExactly("sys", "context for Paris?", "Paris?");
        // in the tool round of the same turn it still sits before the user message, not before the tool result
        List<Message> toolRound = engine.requests().get(1).messages();
        assertThat(toolRound.get(1).content()).isEqualTo("context for Paris?");
        assertThat(toolRound.get(2)).isEqualTo(Message.user("Paris?"));
        assertThat(toolRound.get(toolRound.size() - 1).role()).isEqualTo(Role.TOOL);
        // next turn: only the fresh context, none of the old one
        assertThat(engine.requests().get(2).messages()).extracting(Message::content)
                .containsOnlyOnce("context for London?")
                .doesNotContain("context for Paris?")
                .endsWith("context for London?", "London?");
    }

    @Test
    void ephemeralContextStaysBeforeUserMessageWhenBoundedMemoryEvictsMidTurn() {
        ScriptedEngine engine = ScriptedEngine.builder()
                .reply("a1")
                .replyCallingTool("get_weather", Map.of("city", "Paris"))
                .reply("Sunny.")
                .build();
        dev.pagantic.memory.ConversationBuffer memory = dev.pagantic.memory.ConversationBuffer.builder()
                .maxMessages(4).build();
        try (AgentLoop agent = AgentLoop.builder().engine(engine).memory(memory)
                .tools(ToolRegistry.of(weatherTool(new ArrayList<>())))
                .contextProvider((ctx, query) -> List.of(Message.system("context for " + query)))
                .build()) {
            agent.chat(session(), "u1");
            agent.chat(session(), "u2");
        }
        // the tool result evicted u1 during the second turn; the context still precedes u2
        assertThat(engine.requests().get(2).messages()).extracting(Message::content)
                .startsWith("a1", "context for u2", "u2");
    }

    @Test
    void contextProviderFailureDegradesGracefullyAndIsRecorded() {
        ScriptedEngine engine = ScriptedEngine.replying("Answer without context.");
        InMemoryEventLog log = EventLog.inMemory();
        AgentLoop agent = AgentLoop.builder().engine(engine).eventLog(log)
                .contextProvider((ctx, query) -> {
                    throw new IllegalStateException("index offline");
                })
                .build();

        Result result = agent.chat(session(), "Hi");

        assertThat(result.content()).isEqualTo("Answer without context.");
        assertThat(engine.requests().get(0).messages()).containsExactly(Message.user("Hi"));
        Event context = log.events().stream().filter(e -> e.action().equals("context")).findFirst().orElseThrow();
        assertThat(context.failed()).isTrue();
        assertThat(context.error().orElseThrow().message()).contains("index offline");
    }

    @Test
    void toolCallsAndResultsAreStoredInHistory() {
        List<String> cities = new ArrayList<>();
        ScriptedEngine engine = ScriptedEngine.builder()
                .replyCallingTool("get_weather", Map.of("city", "Paris"))
                .reply("It is sunny in Paris.")
                .build();
        try (AgentLoop agent = AgentLoop.builder().engine(engine).tools(ToolRegistry.of(weatherTool(cities)))
                .build()) {
            Result result = agent.chat(session(), "Weather in Paris?");

            assertThat(cities).containsExactly("Paris");
            assertThat(result.content()).isEqualTo("It is sunny in Paris.");
            List<Message> history = agent.messages();
            assertThat(history).extracting(Message::role)
                    .containsExactly(Role.USER, Role.ASSISTANT, Role.TOOL, Role.ASSISTANT);
            assertThat(history.get(1).toolCalls()).extracting(ToolCall::id).containsExactly("call_1");
            assertThat(history.get(2)).isEqualTo(Message.toolResult("call_1", "get_weather", "Sunny in Paris"));
            assertThat(result.messages()).isEqualTo(history.subList(1, 4));
        }
    }

    @Test
    void laterTurnsSeeEarlierToolResults() {
        ScriptedEngine engine = ScriptedEngine.builder()
                .replyCallingTool("get_weather", Map.of("city", "Paris"))
                .reply("Sunny.")
                .reply("As I said, sunny.")
                .build();
        try (AgentLoop agent = AgentLoop.builder().engine(engine)
                .tools(ToolRegistry.of(weatherTool(new ArrayList<>()))).build()) {
            agent.chat(session(), "Paris?");
            agent.chat(session(), "Again?");
        }
        assertThat(engine.requests().get(2).messages())
                .contains(Message.toolResult("call_1", "get_weather", "Sunny in Paris"));
    }

    @Test
    void toolErrorsComeBackAsErrorToolMessagesSoTheModelCanRetry() {
        ScriptedEngine engine = ScriptedEngine.builder()
                .replyCallingTool("broken", Map.of())
                .replyCallingTool("no_such_tool", Map.of())
                .replyCallingTool("get_weather", Map.of("city", "Rome"))
                .reply("Recovered.")
                .build();
        try (AgentLoop agent = AgentLoop.builder().engine(engine)
                .tools(ToolRegistry.of(weatherTool(new ArrayList<>()), failingTool())).build()) {
            Result result = agent.chat(session(), "Go");

            assertThat(result.content()).isEqualTo("Recovered.");
            List<Message> tools = agent.messages().stream().filter(m -> m.role() == Role.TOOL).toList();
            assertThat(tools).hasSize(3);
            assertThat(tools.get(0).content()).startsWith("TOOL_EXECUTION_FAILED").contains("disk on fire");
            assertThat(tools.get(1).content()).startsWith("TOOL_NOT_FOUND");
            assertThat(tools.get(2).content()).isEqualTo("Sunny in Rome");
        }
        assertThat(engine.requests().get(1).messages().get(2).content()).startsWith("TOOL_EXECUTION_FAILED");
    }

    @Test
    void chatTurnReportsTheToolExecutionsOfTheTurn() {
        ScriptedEngine engine = ScriptedEngine.builder()
                .replyWithToolCalls(ToolCall.of("a", "get_weather", Map.of("city", "Paris")),
                        ToolCall.of("b", "broken", Map.of()))
                .reply("done")
                .build();
        try (AgentLoop agent = AgentLoop.builder().engine(engine)
                .tools(ToolRegistry.of(weatherTool(new ArrayList<>()), failingTool())).build()) {
            AgentTurn turn = agent.chatTurn(session(), "go", TurnOptions.DEFAULTS);

            assertThat(turn.result().content()).isEqualTo("done");
            assertThat(turn.toolExecutions()).extracting(e -> e.call().id()).containsExactly("a", "b");
            assertThat(turn.toolExecutions().get(0).succeeded()).isTrue();
            assertThat(turn.toolExecutions().get(1).errorCode()).contains(ErrorCode.TOOL_EXECUTION_FAILED);
            assertThat(turn.toolExecutions()).allSatisfy(e -> assertThat(e.duration().isNegative()).isFalse());
        }
    }

    @Test
    void aTurnsSettingsApplyToEveryInferenceOfTheTurn() {
        ScriptedEngine engine = ScriptedEngine.builder()
                .replyCallingTool("get_weather", Map.of("city", "Paris"))
                .reply("Sunny.")
                .reply("{\"sentiment\":\"positive\",\"confidence\":1}")
                .build();
        InferenceSettings hints = InferenceSettings.builder().maxTokens(64).temperature(0.0).topP(0.9).seed(7)
                .option("top_k", 40).build();
        try (AgentLoop agent = AgentLoop.builder().engine(engine)
                .tools(ToolRegistry.of(weatherTool(new ArrayList<>()))).build()) {
            agent.chatTurn(session(), List.of(Message.user("Paris?")), hints, TurnOptions.DEFAULTS);
            agent.chatStructured(session(), "Analyze", SENTIMENT, hints, TurnOptions.DEFAULTS);
        }
        assertThat(engine.requests()).allSatisfy(request -> {
            assertThat(request.settings().maxTokens()).isEqualTo(64);
            assertThat(request.settings().temperature()).hasValue(0.0);
            assertThat(request.settings().topP()).hasValue(0.9);
            assertThat(request.settings().seed()).hasValue(7L);
            assertThat(request.settings().options()).containsEntry("top_k", 40);
        });
        assertThat(engine.requests().get(2).settings().options()).containsEntry("enable_thinking", false);
    }

    @Test
    void toolWhitelistLimitsTheOfferedAndExecutedTools() {
        List<String> cities = new ArrayList<>();
        ScriptedEngine engine = ScriptedEngine.builder()
                .replyCallingTool("get_weather", Map.of("city", "Paris"))
                .reply("Not allowed.")
                .build();
        try (AgentLoop agent = AgentLoop.builder().engine(engine)
                .tools(ToolRegistry.of(weatherTool(cities), failingTool())).build()) {
            agent.chatTurn(session(), "Paris?", TurnOptions.builder().allowedTools(List.of("broken")).build());

            assertThat(agent.messages().get(2).content()).startsWith("TOOL_NOT_FOUND");
            assertThat(failure(() -> agent.chatTurn(session(), "x",
                    TurnOptions.builder().allowedTools(List.of("typo")).build())).code())
                    .isEqualTo(ErrorCode.CONFIG_INVALID);
            assertThat(agent.messages()).hasSize(4);
        }
        assertThat(engine.requests().get(0).tools()).extracting(ToolDefinition::name).containsExactly("broken");
        assertThat(cities).isEmpty();
    }

    @Test
    void modelCallingToolsWithoutConfiguredToolsGetsToolNotFound() {
        ScriptedEngine engine = ScriptedEngine.builder()
                .replyCallingTool("get_weather", Map.of("city", "Paris"))
                .reply("I cannot check.")
                .build();
        AgentLoop agent = AgentLoop.builder().engine(engine).build();

        assertThat(agent.chat(session(), "Paris?").content()).isEqualTo("I cannot check.");
        assertThat(engine.requests().get(0).tools()).isEmpty();
        assertThat(agent.messages().get(2).content()).startsWith("TOOL_NOT_FOUND");
    }

    @Test
    void turnUsageIsTheSumOverItsInferences() {
        ScriptedEngine engine = ScriptedEngine.builder()
                .reply(Result.builder().toolCalls(List.of(ToolCall.of("c1", "get_weather", Map.of("city", "Oslo"))))
                        .usage(TokenUsage.of(10, 3)).build())
                .reply(Result.of("Cold.", TokenUsage.of(20, 2)))
                .build();
        try (AgentLoop agent = AgentLoop.builder().engine(engine)
                .tools(ToolRegistry.of(weatherTool(new ArrayList<>()))).build()) {
            Result result = agent.chat(session(), "Oslo?");

            assertThat(result.usage()).isEqualTo(TokenUsage.of(10, 3).plus(TokenUsage.of(20, 2)));
            assertThat(result.usage().promptTokens()).isEqualTo(30);
            assertThat(result.usage().outputTokens()).isEqualTo(5);
        }
    }

    // ------------------------------------------------------------------------------------------------ limits, failures

    @Test
    void exceedingMaxToolIterationsFailsWithIterationLimit() {
        List<String> cities = new ArrayList<>();
        ScriptedEngine engine = ScriptedEngine.builder()
                .replyCallingTool("get_weather", Map.of("city", "A"))
                .replyCallingTool("get_weather", Map.of("city", "B"))
                .replyCallingTool("get_weather", Map.of("city", "C"))
                .build();
        try (AgentLoop agent = AgentLoop.builder().engine(engine).maxToolIterations(2)
                .tools(ToolRegistry.of(weatherTool(cities))).build()) {
            PaganticException error = failure(() -> agent.chat(session(), "Loop forever"));

            assertThat(error.code()).isEqualTo(ErrorCode.ORCHESTRATION_ITERATION_LIMIT);
            assertThat(cities).containsExactly("A", "B");
            assertThat(engine.callCount()).isEqualTo(3);
            assertThat(agent.messages()).isEmpty();
        }
    }

    @Test
    void concurrentChatOnOneLoopIsRefused() throws Exception {
        CountDownLatch entered = new CountDownLatch(1);
        CountDownLatch release = new CountDownLatch(1);
        ScriptedEngine engine = ScriptedEngine.builder()
                .replyWith(request -> {
                    entered.countDown();
                    try {
                        assertThat(release.await(10, TimeUnit.SECONDS)).isTrue();
                    } catch (InterruptedException e) {
                        Thread.currentThread().interrupt();
                        throw new AssertionError(e);
                    }
                    return Result.of("first", TokenUsage.ZERO);
                })
                .reply("second")
                .build();
        AgentLoop agent = AgentLoop.builder().engine(engine).build();

        CompletableFuture<Result> first = CompletableFuture.supplyAsync(() -> agent.chat(session(), "one"));
        assertThat(entered.await(10, TimeUnit.SECONDS)).isTrue();
        PaganticException refused = failure(() -> agent.chat(session(), "two"));
        PaganticException refusedStructured = failure(() -> agent.chatStructured(session(), "two", SENTIMENT));
        release.countDown();

        assertThat(refused.code()).isEqualTo(ErrorCode.ORCHESTRATION_CONCURRENT_USE);
        assertThat(refusedStructured.code()).isEqualTo(ErrorCode.ORCHESTRATION_CONCURRENT_USE);
        assertThat(first.get(10, TimeUnit.SECONDS).content()).isEqualTo("first");
        assertThat(agent.messages()).containsExactly(Message.user("one"), Message.assistant("first"));
        // once the turn is over the loop serves the next one
        assertThat(agent.chat(session(), "two").content()).isEqualTo("second");
    }

    @Test
    void failedTurnRollsHistoryBackSoRetryDoesNotDuplicateTheMessage() {
        ScriptedEngine engine = ScriptedEngine.builder()
                .reply("first answer")
                .replyCallingTool("get_weather", Map.of("city", "Paris"))
                .fail(ErrorCode.INFERENCE_ENGINE_ERROR, "backend down")
                .reply("retried answer")
                .build();
        try (AgentLoop agent = AgentLoop.builder().engine(engine).systemPrompt("sys")
                .tools(ToolRegistry.of(weatherTool(new ArrayList<>()))).build()) {
            agent.chat(session(), "one");
            List<Message> before = agent.messages();

            PaganticException error = failure(() -> agent.chat(session(), "two"));

            assertThat(error.code()).isEqualTo(ErrorCode.INFERENCE_ENGINE_ERROR);
            assertThat(agent.messages()).isEqualTo(before);
            agent.chat(session(), "two");
            assertThat(agent.messages()).extracting(Message::content)
                    .containsExactly("sys", "one", "first answer", "two", "retried answer");
        }
    }

    @Test
    void cancellationMidToolLoopFailsWithCancelledSignalAndRollsBack() {
        Cancellation cancellation = new Cancellation();
        CallContext ctx = CallContext.builder().requestId("req-1").cancellation(cancellation).build();
        Tool cancelling = Tool.builder(ToolDefinition.of("stop", "Cancels the request", Schema.object().build()))
                .handler((toolCtx, args) -> {
                    cancellation.cancel("user pressed stop");
                    return "stopping";
                })
                .build();
        ScriptedEngine engine = ScriptedEngine.builder()
                .replyCallingTool("stop", Map.of())
                .reply("never reached")
                .build();
        try (AgentLoop agent = AgentLoop.builder().engine(engine).tools(ToolRegistry.of(cancelling)).build()) {
            PaganticException error = failure(() -> agent.chat(ctx, "go"));

            assertThat(error.code()).isEqualTo(ErrorCode.CANCELLED_SIGNAL);
            assertThat(engine.callCount()).isEqualTo(1);
            assertThat(agent.messages()).isEmpty();
        }
    }

    @Test
    void deadlinePassingMidToolLoopFailsWithCancelledTimeout() {
        AtomicReference<Instant> now = new AtomicReference<>(Instant.parse("2026-01-01T00:00:00Z"));
        InstantSource clock = now::get;
        CallContext ctx = CallContext.builder().requestId("req-1").clock(clock).timeout(Duration.ofSeconds(10))
                .build();
        ScriptedEngine engine = ScriptedEngine.builder()
                .replyWith(request -> {
                    now.set(now.get().plusSeconds(60)); // the inference took longer than the deadline allows
                    return Result.builder()
                            .toolCalls(List.of(ToolCall.of("c1", "get_weather", Map.of("city", "Oslo"))))
                            .usage(TokenUsage.ZERO).build();
                })
                .reply("never reached")
                .build();
        List<String> cities = new ArrayList<>();
        try (AgentLoop agent = AgentLoop.builder().engine(engine).tools(ToolRegistry.of(weatherTool(cities)))
                .build()) {
            PaganticException error = failure(() -> agent.chat(ctx, "go"));

            assertThat(error.code()).isEqualTo(ErrorCode.CANCELLED_TIMEOUT);
            assertThat(cities).isEmpty();
            assertThat(agent.messages()).isEmpty();
        }
    }

    @Test
    void cancelledContextFailsBeforeAnyInference() {
        Cancellation cancellation = new Cancellation();
        cancellation.cancel();
        ScriptedEngine engine = ScriptedEngine.replying("never");
        AgentLoop agent = AgentLoop.builder().engine(engine).build();

        PaganticException error = failure(() -> agent.chat(
                CallContext.builder().cancellation(cancellation).build(), "hi"));

        assertThat(error.code()).isEqualTo(ErrorCode.CANCELLED_SIGNAL);
        assertThat(engine.callCount()).isZero();
        assertThat(agent.messages()).isEmpty();
    }

    // ------------------------------------------------------------------------------------------------ chatStructured

    @Test
    void chatStructuredUsesLowTemperatureAndDisablesThinking() {
        ScriptedEngine engine = ScriptedEngine.replying("{\"sentiment\":\"positive\",\"confidence\":0.95}");
        AgentLoop agent = AgentLoop.builder().engine(engine).build();

        Result result = agent.chatStructured(session(), "Analyze: great product!", SENTIMENT);

        assertThat(result.content()).isEqualTo("{\"sentiment\":\"positive\",\"confidence\":0.95}");
        Request request = engine.requests().get(0);
        assertThat(request.settings().temperature()).hasValue(0.3);
        assertThat(request.settings().options()).containsEntry("enable_thinking", false);
        assertThat(request.tools()).isEmpty();
        // the engine declares neither GRAMMAR nor SCHEMA: nothing it would refuse is sent
        assertThat(request.grammar()).isEmpty();
        assertThat(request.schema()).isEmpty();
        assertThat(agent.messages()).containsExactly(Message.user("Analyze: great product!"),
                Message.assistant(result.content()));
    }

    @Test
    void chatStructuredRepairsAndNormalisesOutput() {
        ScriptedEngine engine = ScriptedEngine.replying("{\"sentiment\": \"Positive\", \"confidence\": 0.9");
        AgentLoop agent = AgentLoop.builder().engine(engine).build();

        Result result = agent.chatStructured(session(), "Analyze", SENTIMENT);

        assertThat(result.content()).contains("\"positive\"").endsWith("}");
        assertThat(agent.messages().get(1).content()).isEqualTo(result.content());
    }

    @Test
    void chatStructuredDerivesGrammarFromSchemaWhenEngineSupportsGrammar() {
        String json = "{\"sentiment\":\"neutral\",\"confidence\":0.5}";
        ScriptedEngine engine = ScriptedEngine.builder().capabilities(Capability.GRAMMAR, Capability.SCHEMA)
                .reply(json).build();
        AgentLoop agent = AgentLoop.builder().engine(engine).build();

        assertThat(agent.chatStructured(session(), "Analyze", SENTIMENT).content()).isEqualTo(json);

        Request request = engine.requests().get(0);
        assertThat(request.grammar()).contains(GbnfGrammar.fromSchema(SENTIMENT));
        assertThat(request.schema()).contains(SENTIMENT);
    }

    @Test
    void configuredGrammarIsAppliedOnlyInChatStructured() {
        ScriptedEngine engine = ScriptedEngine.builder().capabilities(Capability.GRAMMAR)
                .reply("free text")
                .reply("{\"sentiment\":\"negative\",\"confidence\":0.1}")
                .build();
        AgentLoop agent = AgentLoop.builder().engine(engine).grammar(GbnfGrammar.parse(SENTIMENT_GRAMMAR)).build();

        agent.chat(session(), "chat");
        agent.chatStructured(session(), "structured", SENTIMENT);

        assertThat(engine.requests().get(0).grammar()).isEmpty();
        assertThat(engine.requests().get(1).grammar()).contains(GbnfGrammar.parse(SENTIMENT_GRAMMAR));
    }

    @Test
    void chatStructuredInvalidOutputFailsWithConstraintErrorWithoutRetryAndRollsBack() {
        ScriptedEngine engine = ScriptedEngine.builder()
                .reply("{\"sentiment\":\"positive\"}")
                .reply("not json at all")
                .build();
        AgentLoop agent = AgentLoop.builder().engine(engine).build();

        PaganticException missingField = failure(() -> agent.chatStructured(session(), "Analyze", SENTIMENT));
        assertThat(missingField.code()).isEqualTo(ErrorCode.CONSTRAINT_SCHEMA_INVALID);
        assertThat(engine.callCount()).isEqualTo(1);
        assertThat(agent.messages()).isEmpty();

        PaganticException notJson = failure(() -> agent.chatStructured(session(), "Analyze", SENTIMENT));
        assertThat(notJson.category()).isEqualTo(dev.pagantic.core.FailureCategory.CONSTRAINT);
        assertThat(agent.messages()).isEmpty();
    }

    // ------------------------------------------------------------------------------------------------ messages

    @Test
    void messagesReturnsImmutableCopyWithSystemPromptFirst() {
        AgentLoop agent = AgentLoop.builder().engine(ScriptedEngine.replying("a")).systemPrompt("sys").build();
        assertThat(agent.messages()).containsExactly(Message.system("sys"));

        List<Message> copy = agent.messages();
        agent.chat(session(), "q");

        assertThat(copy).hasSize(1);
        assertThatThrownBy(() -> agent.messages().add(Message.user("x")))
                .isInstanceOf(UnsupportedOperationException.class);
        assertThat(agent.messages().get(0)).isEqualTo(Message.system("sys"));
    }

    @Test
    void promptProviderSuppliesSystemMessage() {
        ScriptedEngine engine = ScriptedEngine.replying("a");
        AgentLoop agent = AgentLoop.builder().engine(engine)
                .promptProvider(() -> Message.system("structured prompt")).build();

        agent.chat(session(), "q");

        assertThat(engine.requests().get(0).messages().get(0)).isEqualTo(Message.system("structured prompt"));
    }

    @Test
    void givenMemoryKeepsItsHistoryAndSystemPrompt() {
        dev.pagantic.memory.ConversationBuffer memory = new dev.pagantic.memory.ConversationBuffer();
        memory.append(Message.system("restored"));
        memory.append(Message.user("earlier"));
        AgentLoop agent = AgentLoop.builder().engine(ScriptedEngine.replying("a")).systemPrompt("ignored")
                .memory(memory).build();

        agent.chat(session(), "now");

        assertThat(memory.messages()).extracting(Message::content).containsExactly("restored", "earlier", "now", "a");
    }

    // ------------------------------------------------------------------------------------------------ streaming

    @Test
    void streamHandlerReceivesContentDeltas() {
        List<String> deltas = Collections.synchronizedList(new ArrayList<>());
        ScriptedEngine engine = ScriptedEngine.replying("one two three");
        AgentLoop agent = AgentLoop.builder().engine(engine).stream(StreamHandler.onContent(deltas::add)).build();

        Result result = agent.chat(session(), "count");

        assertThat(deltas).hasSizeGreaterThan(1);
        assertThat(String.join("", deltas)).isEqualTo(result.content());
    }

    // ------------------------------------------------------------------------------------------------ events, hooks

    @Test
    void eventsAreRecordedForEveryInferenceToolAndContextWithCorrelation() {
        InMemoryEventLog log = EventLog.inMemory();
        ScriptedEngine engine = ScriptedEngine.builder()
                .replyCallingTool("get_weather", Map.of("city", "Paris"))
                .reply("Sunny.")
                .build();
        try (AgentLoop agent = AgentLoop.builder().engine(engine).eventLog(log)
                .tools(ToolRegistry.of(weatherTool(new ArrayList<>())))
                .contextProvider((ctx, query) -> List.of(Message.system("ctx")))
                .build()) {
            agent.chat(session(), "Paris?");
        }
        assertThat(log.events()).extracting(Event::action).containsExactly("context", "inference_start",
                "inference_end", "tool_start", "tool_end", "tool", "inference_start", "inference_end");
        assertThat(log.events()).allSatisfy(event -> {
            assertThat(event.requestId()).isEqualTo("req-1");
            assertThat(event.correlation().sessionId()).isEqualTo("chat-42");
        });
        List<Event> events = log.events(event -> event.layer().equals("orchestrate"));
        assertThat(events).extracting(Event::action).containsExactly("context", "tool");
        assertThat(events).allSatisfy(event -> {
            assertThat(event.layer()).isEqualTo("orchestrate");
            assertThat(event.requestId()).isEqualTo("req-1");
            assertThat(event.correlation().sessionId()).isEqualTo("chat-42");
        });
        Event tool = events.get(1);
        assertThat(tool.correlation().causedBy()).isEqualTo("call_1");
        assertThat(tool.dataValue("tool_call_id")).contains("call_1");
        assertThat(tool.dataValue("tool")).contains("get_weather");
        assertThat(tool.dataValue("arguments")).contains(Map.of("city", "Paris"));
        assertThat(tool.failed()).isFalse();
        assertThat(log.events(event -> event.action().equals("inference_end")).get(0).dataValue("tool_call_count"))
                .contains(1);
    }

    @Test
    void aFailedInferenceEndsWithFinishReasonErrorAndItsFailure() {
        InMemoryEventLog log = EventLog.inMemory();
        ScriptedEngine engine = ScriptedEngine.builder().fail(ErrorCode.INFERENCE_ENGINE_ERROR, "down").build();
        AgentLoop agent = AgentLoop.builder().engine(engine).eventLog(log).build();

        failure(() -> agent.chat(session(), "hi"));

        assertThat(log.events()).extracting(Event::action).containsExactly("inference_start", "inference_end");
        Event end = log.events().get(1);
        assertThat(end.dataValue("finish_reason")).contains("error");
        assertThat(end.error().orElseThrow().code()).isEqualTo("INFERENCE_ENGINE_ERROR");
    }

    @Test
    void inferenceStartAndEndFollowTheSeed001Schema() {
        InMemoryEventLog log = EventLog.inMemory();
        ScriptedEngine engine = ScriptedEngine.builder()
                .reply(Result.builder().content("ok").usage(TokenUsage.of(12, 3)).build()).build();
        AgentLoop agent = AgentLoop.builder().engine(engine).eventLog(log).systemPrompt("sys").build();

        agent.chat(session(), "hi");

        Event start = log.events(e -> e.action().equals("inference_start")).get(0);
        assertThat(start.data()).containsEntry("message_count", 2).containsEntry("tool_defs_count", 0)
                .containsEntry("schema_present", false).containsEntry("grammar_present", false)
                .containsEntry("model", "scripted").containsEntry("temperature", null);
        Event end = log.events(e -> e.action().equals("inference_end")).get(0);
        assertThat(end.data()).containsEntry("tokens_in", 12).containsEntry("tokens_out", 3)
                .containsEntry("finish_reason", "stop").containsEntry("tool_call_count", 0)
                .containsKey("duration_ms");
        assertThat(end.correlation().sessionId()).isEqualTo("chat-42");
    }

    @Test
    void onToolResultHookIsCalledAfterEachToolExecution() {
        List<String> seen = new ArrayList<>();
        ScriptedEngine engine = ScriptedEngine.builder()
                .replyWithToolCalls(ToolCall.of("a", "get_weather", Map.of("city", "Paris")),
                        ToolCall.of("b", "broken", Map.of()))
                .reply("done")
                .build();
        try (AgentLoop agent = AgentLoop.builder().engine(engine)
                .tools(ToolRegistry.of(weatherTool(new ArrayList<>()), failingTool()))
                .onToolResult((name, output) -> seen.add(name + "=" + output))
                .build()) {
            agent.chat(session(), "go");
        }
        assertThat(seen).hasSize(2);
        assertThat(seen.get(0)).isEqualTo("get_weather=Sunny in Paris");
        assertThat(seen.get(1)).startsWith("broken=TOOL_EXECUTION_FAILED");
    }

    @Test
    void interceptorSeesEveryInferenceAndToolCall() {
        List<String> seen = new ArrayList<>();
        Interceptor recording = new Interceptor() {
            @Override
            public <T> T intercept(Invocation<T> invocation) {
                seen.add(invocation.kind() + ":" + invocation.name());
                return invocation.proceed();
            }
        };
        ScriptedEngine engine = ScriptedEngine.builder()
                .replyCallingTool("get_weather", Map.of("city", "Paris"))
                .reply("Sunny.")
                .build();
        try (AgentLoop agent = AgentLoop.builder().engine(engine).interceptor(recording)
                .tools(ToolRegistry.of(weatherTool(new ArrayList<>()))).build()) {
            agent.chat(session(), "Paris?");
            assertThat(agent.messages().get(2).content()).isEqualTo("Sunny in Paris");
        }
        assertThat(seen).containsExactly(InvocationKind.INFERENCE + ":scripted",
                InvocationKind.TOOL_CALL + ":get_weather", InvocationKind.INFERENCE + ":scripted");
    }

    @Test
    void interceptorMayReplayAToolResultWithoutRunningTheTool() {
        List<String> cities = new ArrayList<>();
        Interceptor replaying = new Interceptor() {
            @Override
            @SuppressWarnings("unchecked")
            public <T> T intercept(Invocation<T> invocation) {
                if (invocation.kind() == InvocationKind.TOOL_CALL) {
                    ToolCall call = (ToolCall) invocation.input();
                    return (T) dev.pagantic.core.ToolResult.success(call.id(), call.name(), "replayed");
                }
                return invocation.proceed();
            }
        };
        List<String> hook = new ArrayList<>();
        ScriptedEngine engine = ScriptedEngine.builder()
                .replyCallingTool("get_weather", Map.of("city", "Paris"))
                .reply("ok")
                .build();
        try (AgentLoop agent = AgentLoop.builder().engine(engine).interceptor(replaying)
                .onToolResult((name, output) -> hook.add(output))
                .tools(ToolRegistry.of(weatherTool(cities))).build()) {
            agent.chat(session(), "Paris?");
            assertThat(agent.messages().get(2).content()).isEqualTo("replayed");
        }
        assertThat(cities).isEmpty();
        assertThat(hook).containsExactly("replayed");
    }

    // ------------------------------------------------------------------------------------------------ lifecycle

    @Test
    void chatTurnTraversesInitPrepareExecuteComplete() {
        List<Transition> transitions = new ArrayList<>();
        ScriptedEngine engine = ScriptedEngine.builder()
                .replyCallingTool("get_weather", Map.of("city", "Paris"))
                .reply("Sunny.")
                .build();
        try (AgentLoop agent = AgentLoop.builder().engine(engine).transitionListener(transitions::add)
                .tools(ToolRegistry.of(weatherTool(new ArrayList<>()))).build()) {
            agent.chat(session(), "Paris?");
        }
        assertThat(transitions).extracting(Transition::to)
                .containsExactly(LifecycleState.PREPARE, LifecycleState.EXECUTE, LifecycleState.COMPLETE);
    }

    @Test
    void structuredTurnValidatesBeforeCompleting() {
        List<Transition> transitions = new ArrayList<>();
        AgentLoop agent = AgentLoop.builder()
                .engine(ScriptedEngine.replying("{\"sentiment\":\"positive\",\"confidence\":1}"))
                .transitionListener(transitions::add).build();

        agent.chatStructured(session(), "Analyze", SENTIMENT);

        assertThat(transitions).extracting(Transition::to).containsExactly(LifecycleState.PREPARE,
                LifecycleState.EXECUTE, LifecycleState.VALIDATE, LifecycleState.COMPLETE);
    }

    @Test
    void failedTurnEndsTheLifecycleInErrorAndCancelledTurnInCancelled() {
        ScriptedEngine engine = ScriptedEngine.builder().fail(ErrorCode.INFERENCE_ENGINE_ERROR, "down").build();
        AgentLoop agent = AgentLoop.builder().engine(engine).build();
        ExecutionLifecycle failing = ExecutionLifecycle.start(session(), PatternPath.AGENT_LOOP,
                TransitionListener.NOOP);

        failure(() -> agent.chatTurn(session(), "hi", TurnOptions.builder().lifecycle(failing).build()));

        assertThat(failing.state().current()).isEqualTo(LifecycleState.ERROR);
        assertThat(failing.state().lastError().orElseThrow().code()).isEqualTo(ErrorCode.INFERENCE_ENGINE_ERROR);

        Cancellation cancellation = new Cancellation();
        cancellation.cancel();
        CallContext cancelled = CallContext.builder().cancellation(cancellation).build();
        ExecutionLifecycle cancelling = ExecutionLifecycle.start(cancelled, PatternPath.AGENT_LOOP,
                TransitionListener.NOOP);
        failure(() -> agent.chatTurn(cancelled, "hi", TurnOptions.builder().lifecycle(cancelling).build()));
        assertThat(cancelling.state().current()).isEqualTo(LifecycleState.CANCELLED);
    }

    @Test
    void iterationLimitEndsTheLifecycleInError() {
        ScriptedEngine engine = ScriptedEngine.builder()
                .replyCallingTool("get_weather", Map.of("city", "A"))
                .replyCallingTool("get_weather", Map.of("city", "B"))
                .build();
        try (AgentLoop agent = AgentLoop.builder().engine(engine).maxToolIterations(1)
                .tools(ToolRegistry.of(weatherTool(new ArrayList<>()))).build()) {
            ExecutionLifecycle lifecycle = ExecutionLifecycle.start(session(), PatternPath.AGENT_LOOP,
                    TransitionListener.NOOP);
            failure(() -> agent.chatTurn(session(), "go", TurnOptions.builder().lifecycle(lifecycle).build()));
            assertThat(lifecycle.state().current()).isEqualTo(LifecycleState.ERROR);
            assertThat(lifecycle.state().lastError().orElseThrow().code())
                    .isEqualTo(ErrorCode.ORCHESTRATION_ITERATION_LIMIT);
        }
    }

    @Test
    void aLifecyclePastInitIsRefused() {
        AgentLoop agent = AgentLoop.builder().engine(ScriptedEngine.replying("a")).build();
        ExecutionLifecycle lifecycle = ExecutionLifecycle.start(session(), PatternPath.AGENT_LOOP,
                TransitionListener.NOOP);
        lifecycle.prepare("elsewhere");

        TurnOptions options = TurnOptions.builder().lifecycle(lifecycle).build();
        assertThat(failure(() -> agent.chatTurn(session(), "hi", options)).code()).isEqualTo(ErrorCode.CONFIG_INVALID);
        assertThat(agent.messages()).isEmpty();
    }

    // ------------------------------------------------------------------------------------------------ resources

    @Test
    void closeClosesTheOwnedExecutorButNotAGivenOne() {
        ToolExecutor shared = ToolExecutor.create();
        try {
            AgentLoop withShared = AgentLoop.builder().engine(ScriptedEngine.replying("a")).toolExecutor(shared)
                    .tools(ToolRegistry.of(weatherTool(new ArrayList<>()))).build();
            withShared.close();
            assertThat(shared.isClosed()).isFalse();
        } finally {
            shared.close();
        }
        // an owned executor is closed: a later tool call comes back as TOOL_UNAVAILABLE
        ScriptedEngine engine = ScriptedEngine.builder()
                .replyCallingTool("get_weather", Map.of("city", "Paris"))
                .reply("ok")
                .build();
        AgentLoop owning = AgentLoop.builder().engine(engine).tools(ToolRegistry.of(weatherTool(new ArrayList<>())))
                .build();
        owning.close();
        owning.close();
        owning.chat(session(), "Paris?");
        assertThat(owning.messages().get(2).content()).startsWith("TOOL_UNAVAILABLE");
    }

    // ------------------------------------------------------------------------------------------------ caller tools

    @Test
    void callerToolCallsEndTheTurnUnexecutedWithTheCallMessageInHistory() {
        ToolDefinition clock = ToolDefinition.of("get_time", "The caller's clock", Schema.object().build());
        ScriptedEngine engine = ScriptedEngine.builder()
                .replyWithToolCalls(ToolCall.of("t1", "get_time", Map.of()))
                .reply("It is noon.")
                .build();
        AgentLoop agent = AgentLoop.builder().engine(engine).build();

        AgentTurn handedBack = agent.chatTurn(session(), "Time?", TurnOptions.builder()
                .callerTools(List.of(clock)).build());

        assertThat(handedBack.pendingCalls()).extracting(ToolCall::id).containsExactly("t1");
        assertThat(handedBack.toolExecutions()).isEmpty();
        assertThat(agent.messages()).extracting(Message::role).containsExactly(Role.USER, Role.ASSISTANT);

        AgentTurn answered = agent.chatTurn(session(),
                List.of(dev.pagantic.core.ToolResult.success("t1", "get_time", "12:00").toMessage()),
                TurnOptions.builder().callerTools(List.of(clock)).build());

        assertThat(answered.hasPendingCalls()).isFalse();
        assertThat(answered.result().content()).isEqualTo("It is noon.");
        assertThat(agent.messages()).extracting(Message::role)
                .containsExactly(Role.USER, Role.ASSISTANT, Role.TOOL, Role.ASSISTANT);
    }

    @Test
    void callerToolNamedLikeARegisteredToolAndAnEmptyTurnAreRefused() {
        AgentLoop agent = AgentLoop.builder().engine(ScriptedEngine.replying("x"))
                .tools(ToolRegistry.of(weatherTool(new ArrayList<>()))).build();

        assertThat(failure(() -> agent.chatTurn(session(), "hi", TurnOptions.builder()
                .callerTools(List.of(ToolDefinition.of("get_weather", "clash", CITY))).build())).code())
                .isEqualTo(ErrorCode.CONFIG_INVALID);
        assertThat(failure(() -> agent.chatTurn(session(), List.of(), TurnOptions.DEFAULTS)).code())
                .isEqualTo(ErrorCode.CONFIG_INVALID);
    }

    @Test
    void perTurnStreamHandlerReplacesTheLoopsHandler() {
        StringBuilder loopStream = new StringBuilder();
        StringBuilder turnStream = new StringBuilder();
        AgentLoop agent = AgentLoop.builder().engine(ScriptedEngine.replying("turn words"))
                .stream(new StreamHandler() {
                    @Override
                    public void onContent(String delta) {
                        loopStream.append(delta);
                    }
                }).build();

        agent.chatTurn(session(), "hi", TurnOptions.builder().stream(new StreamHandler() {
            @Override
            public void onContent(String delta) {
                turnStream.append(delta);
            }
        }).build());

        assertThat(turnStream.toString()).isEqualTo("turn words");
        assertThat(loopStream.toString()).isEmpty();
    }
}
