package dev.pagantic.testkit;

import static dev.pagantic.testkit.Failures.failureOf;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.pagantic.core.CallContext;
import dev.pagantic.core.Cancellation;
import dev.pagantic.core.ErrorCode;
import dev.pagantic.core.FinishReason;
import dev.pagantic.core.Message;
import dev.pagantic.core.PaganticException;
import dev.pagantic.core.Role;
import dev.pagantic.core.TokenUsage;
import dev.pagantic.core.ToolCall;
import dev.pagantic.inference.Capability;
import dev.pagantic.inference.ModelInfo;
import dev.pagantic.inference.Request;
import dev.pagantic.inference.Result;
import dev.pagantic.inference.StreamHandler;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.Callable;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.stream.Collectors;
import java.util.stream.IntStream;
import org.assertj.core.api.ThrowableAssert.ThrowingCallable;
import org.junit.jupiter.api.Test;

class ScriptedEngineTest {

    private static Request maxTokens(String prompt, int limit) {
        return Request.builder().addMessage(Message.user(prompt)).maxTokens(limit).build();
    }

    @Test
    void repliesFollowTheScriptInOrder() {
        ScriptedEngine engine = ScriptedEngine.replying("first", "second");

        assertThat(engine.infer(Request.of("a")).content()).isEqualTo("first");
        assertThat(engine.infer(Request.of("b")).content()).isEqualTo("second");
        assertThat(engine.remaining()).isZero();
    }

    @Test
    void aTextReplyIsTheAssistantMessageAndFinishesWithStop() {
        Result result = ScriptedEngine.replying("Hello there").infer(Request.of("hi"));

        assertThat(result.messages()).containsExactly(Message.assistant("Hello there"));
        assertThat(result.finishReason()).isEqualTo(FinishReason.STOP);
    }

    @Test
    void everyRequestIsRecordedInArrivalOrderAsAnImmutableSnapshot() {
        ScriptedEngine engine = ScriptedEngine.replying("one", "two");
        Request first = Request.of("alpha");
        Request second = Request.of("beta");

        engine.infer(first);
        List<Request> snapshot = engine.requests();
        engine.infer(second);

        assertThat(engine.requests()).containsExactly(first, second);
        assertThat(snapshot).containsExactly(first);
        assertThat(engine.lastRequest()).contains(second);
        assertThat(engine.callCount()).isEqualTo(2);
        assertThatThrownBy(() -> engine.requests().add(first)).isInstanceOf(UnsupportedOperationException.class);
    }

    @Test
    void lastRequestIsEmptyBeforeTheFirstCall() {
        ScriptedEngine engine = ScriptedEngine.replying("unused");

        assertThat(engine.lastRequest()).isEmpty();
        assertThat(engine.requests()).isEmpty();
        assertThat(engine.callCount()).isZero();
        assertThat(engine.remaining()).isEqualTo(1);
    }

    @Test
    void anExhaustedScriptFailsNamingTheCallAndQuotingItsLastMessage() {
        ScriptedEngine engine = ScriptedEngine.replying("only answer");
        engine.infer(Request.of("first question"));
        Request unexpected = Request.of("an unexpected second question");

        PaganticException failure = failureOf(() -> engine.infer(unexpected));

        assertThat(failure.code()).isEqualTo(ErrorCode.INFERENCE_ENGINE_ERROR);
        assertThat(failure.retryable()).isFalse();
        assertThat(failure.getMessage()).contains("script exhausted after 1 call(s)").contains("call 2")
                .contains("user: \"an unexpected second question\"");
        assertThat(failure.details()).containsEntry("call", 2).containsEntry("scripted_steps", 1);
        assertThat(engine.lastRequest()).contains(unexpected);
        assertThat(engine.callCount()).isEqualTo(2);
    }

    @Test
    void anExhaustionMessageShowsTheToolCallsOfAnAssistantMessage() {
        ScriptedEngine engine = ScriptedEngine.builder().build();
        Request request = Request.builder().addMessage(Message.user("weather?"))
                .addMessage(Message.assistant("", List.of(ToolCall.of("c1", "get_weather", Map.of("city", "Oslo")))))
                .build();

        assertThat(failureOf(() -> engine.infer(request)).getMessage())
                .contains("assistant: \"\", calls get_weather {city=Oslo}");
    }

    @Test
    void anEmptyScriptFailsTheFirstCallSoATestCanProveTheEngineWasNotUsed() {
        ScriptedEngine engine = ScriptedEngine.builder().build();

        PaganticException failure = failureOf(() -> engine.infer(Request.of("should not happen")));

        assertThat(failure.getMessage()).contains("script exhausted after 0 call(s)");
    }

    @Test
    void aScriptedFailureIsThrownAtItsTurnAndTheScriptGoesOn() {
        PaganticException outage = PaganticException.of(ErrorCode.INFERENCE_SATURATED, "busy");
        ScriptedEngine engine = ScriptedEngine.builder().fail(outage).reply("recovered").build();

        assertThatThrownBy(() -> engine.infer(Request.of("try"))).isSameAs(outage);
        assertThat(engine.infer(Request.of("retry")).content()).isEqualTo("recovered");
        assertThat(engine.callCount()).isEqualTo(2);
    }

    @Test
    void aFailureStepCanBeGivenAsCodeAndMessage() {
        ScriptedEngine engine = ScriptedEngine.builder().fail(ErrorCode.INFERENCE_MODEL_UNAVAILABLE, "no model")
                .build();

        PaganticException failure = failureOf(() -> engine.infer(Request.of("x")));

        assertThat(failure.code()).isEqualTo(ErrorCode.INFERENCE_MODEL_UNAVAILABLE);
        assertThat(failure.description()).isEqualTo("no model");
    }

    @Test
    void toolCallStepsGetSequentialIdsAndFinishWithToolCalls() {
        ScriptedEngine engine = ScriptedEngine.builder()
                .replyCallingTool("search", Map.of("q", "java"))
                .replyCallingTool("search", Map.of("q", "go"))
                .build();

        Result first = engine.infer(Request.of("find java"));
        Result second = engine.infer(Request.of("find go"));

        assertThat(first.toolCalls()).containsExactly(ToolCall.of("call_1", "search", Map.of("q", "java")));
        assertThat(second.toolCalls()).containsExactly(ToolCall.of("call_2", "search", Map.of("q", "go")));
        assertThat(first.finishReason()).isEqualTo(FinishReason.TOOL_CALLS);
        assertThat(first.messages()).containsExactly(Message.assistant("", first.toolCalls()));
    }

    @Test
    void aReplyCanCarryTextAndToolCallsTogether() {
        ToolCall call = ToolCall.of("id-7", "lookup", Map.of());
        ScriptedEngine engine = ScriptedEngine.builder().replyWithToolCalls("Let me check.", call).build();

        Result result = engine.infer(Request.of("check"));

        assertThat(result.content()).isEqualTo("Let me check.");
        assertThat(result.toolCalls()).containsExactly(call);
        assertThat(result.messages()).containsExactly(Message.assistant("Let me check.", List.of(call)));
    }

    @Test
    void aReplyLongerThanMaxTokensIsCutAtAWordBoundaryWithLength() {
        ScriptedEngine engine = ScriptedEngine.replying("one two  three four five");

        Result result = engine.infer(maxTokens("count", 3));

        assertThat(result.content()).isEqualTo("one two  three");
        assertThat(result.finishReason()).isEqualTo(FinishReason.LENGTH);
        assertThat(result.usage().outputTokens()).isEqualTo(3);
        assertThat(result.messages()).containsExactly(Message.assistant("one two  three"));
    }

    @Test
    void aReplyOfExactlyMaxTokensIsNotCut() {
        Result result = ScriptedEngine.replying("one two three").infer(maxTokens("count", 3));

        assertThat(result.content()).isEqualTo("one two three");
        assertThat(result.finishReason()).isEqualTo(FinishReason.STOP);
    }

    @Test
    void aCutReplyLosesTheToolCallsThatWouldHaveFollowedItsText() {
        ScriptedEngine engine = ScriptedEngine.builder()
                .replyWithToolCalls("let me look that up", ToolCall.of("c1", "search", Map.of())).build();

        Result result = engine.infer(maxTokens("search", 2));

        assertThat(result.content()).isEqualTo("let me");
        assertThat(result.toolCalls()).isEmpty();
        assertThat(result.finishReason()).isEqualTo(FinishReason.LENGTH);
    }

    @Test
    void reasoningCountsAgainstMaxTokensBeforeTheContent() {
        ScriptedEngine engine = ScriptedEngine.builder().replyWithReasoning("think think think", "answer now").build();

        Result result = engine.infer(maxTokens("why", 4));

        assertThat(result.reasoning()).isEqualTo("think think think");
        assertThat(result.content()).isEqualTo("answer");
        assertThat(result.usage().reasoningTokens()).isEqualTo(3);
        assertThat(result.usage().outputTokens()).isEqualTo(1);
        assertThat(result.finishReason()).isEqualTo(FinishReason.LENGTH);
    }

    @Test
    void usageCountsWhitespaceSeparatedWordsOfMessageContent() {
        ScriptedEngine engine = ScriptedEngine.builder().contextWindow(100).reply("three word reply").build();
        Request request = Request.builder().addMessage(Message.system("be brief"))
                .addMessage(Message.user("hello  there\nfriend")).build();

        TokenUsage usage = engine.infer(request).usage();

        assertThat(usage).isEqualTo(new TokenUsage(5, 0, 3, 8, 100, Duration.ofMillis(3)));
        assertThat(usage.tokensPerSecond()).isEqualTo(1000.0);
        assertThat(engine.tokenCounter().count(request.messages())).isEqualTo(usage.promptTokens());
        assertThat(engine.tokenCounter().count(" a\tb \n c ")).isEqualTo(3);
    }

    @Test
    void anEmptyReplyCostsNoTokensAndReportsNoRate() {
        Result result = ScriptedEngine.replying("").infer(Request.of("say nothing"));

        assertThat(result.usage().outputTokens()).isZero();
        assertThat(result.usage().tokensPerSecond()).isZero();
        assertThat(result.content()).isEmpty();
    }

    @Test
    void streamedDeltasAreWordsWithTheirWhitespace() {
        ScriptedEngine engine = ScriptedEngine.replying("  Hello,\n world  ");
        List<String> deltas = new ArrayList<>();

        Result result = engine.infer(CallContext.background(), Request.of("hi"), StreamHandler.onContent(deltas::add));

        assertThat(deltas).containsExactly("  Hello,", "\n world  ");
        assertThat(String.join("", deltas)).isEqualTo(result.content()).isEqualTo("  Hello,\n world  ");
    }

    @Test
    void aWhitespaceOnlyReplyIsStreamedAsItIsAndCostsNoTokens() {
        List<String> deltas = new ArrayList<>();

        Result result = ScriptedEngine.replying(" \n ")
                .infer(CallContext.background(), Request.of("hi"), StreamHandler.onContent(deltas::add));

        assertThat(deltas).containsExactly(" \n ");
        assertThat(result.usage().outputTokens()).isZero();
    }

    @Test
    void reasoningThenContentThenToolCallsAreStreamedInThatOrder() {
        ToolCall call = ToolCall.of("c1", "search", Map.of());
        ScriptedEngine engine = ScriptedEngine.builder()
                .reply(Result.builder().reasoning("hmm ok").content("looking").toolCalls(List.of(call)).build())
                .build();
        List<String> events = new CopyOnWriteArrayList<>();

        engine.infer(CallContext.background(), Request.of("go"), new StreamHandler() {
            @Override
            public void onContent(String delta) {
                events.add("content:" + delta);
            }

            @Override
            public void onReasoning(String delta) {
                events.add("reasoning:" + delta);
            }

            @Override
            public void onToolCall(ToolCall toolCall) {
                events.add("tool:" + toolCall.id());
            }
        });

        assertThat(events).containsExactly("reasoning:hmm", "reasoning: ok", "content:looking", "tool:c1");
    }

    @Test
    void aCancelledContextNeitherConsumesAStepNorIsRecorded() {
        ScriptedEngine engine = ScriptedEngine.replying("kept for later");
        Cancellation cancellation = new Cancellation();
        cancellation.cancel("stop");
        CallContext cancelled = CallContext.builder().cancellation(cancellation).build();

        assertThat(failureOf(() -> engine.infer(cancelled, Request.of("x"))).code())
                .isEqualTo(ErrorCode.CANCELLED_SIGNAL);
        assertThat(engine.callCount()).isZero();
        assertThat(engine.infer(Request.of("y")).content()).isEqualTo("kept for later");
    }

    @Test
    void anExpiredContextFailsWithCancelledTimeoutWithoutConsumingAStep() {
        ScriptedEngine engine = ScriptedEngine.replying("kept");
        CallContext expired = CallContext.builder().timeout(Duration.ZERO).build();

        assertThat(failureOf(() -> engine.infer(expired, Request.of("x"))).code())
                .isEqualTo(ErrorCode.CANCELLED_TIMEOUT);
        assertThat(engine.remaining()).isEqualTo(1);
    }

    @Test
    void cancellationBetweenTokensStopsTheStreamAfterTheCurrentToken() {
        ScriptedEngine engine = ScriptedEngine.replying("a b c d e");
        Cancellation cancellation = new Cancellation();
        CallContext context = CallContext.builder().cancellation(cancellation).build();
        List<String> deltas = new ArrayList<>();

        PaganticException failure = failureOf(() -> engine.infer(context, Request.of("letters"),
                StreamHandler.onContent(delta -> {
                    deltas.add(delta);
                    if (deltas.size() == 2) {
                        cancellation.cancel("enough");
                    }
                })));

        assertThat(failure.code()).isEqualTo(ErrorCode.CANCELLED_SIGNAL);
        assertThat(deltas).containsExactly("a", " b");
        assertThat(engine.callCount()).isEqualTo(1);
        assertThat(engine.remaining()).isZero();
    }

    @Test
    void anUndeclaredCapabilityIsRefusedWithoutConsumingAStep() {
        ScriptedEngine engine = ScriptedEngine.replying("kept");
        Request withGrammar = Request.builder().addMessage(Message.user("yes?")).grammar("root ::= \"yes\"").build();

        assertThat(failureOf(() -> engine.infer(withGrammar)).code())
                .isEqualTo(ErrorCode.CONFIG_UNSUPPORTED_CAPABILITY);
        assertThat(engine.callCount()).isZero();
        assertThat(engine.remaining()).isEqualTo(1);
    }

    @Test
    void aDeclaredGrammarIsAcceptedAndTheScriptAnswers() {
        ScriptedEngine engine = ScriptedEngine.builder().capabilities(Capability.GRAMMAR).reply("yes").build();
        Request withGrammar = Request.builder().addMessage(Message.user("yes?")).grammar("root ::= \"yes\"").build();

        assertThat(engine.infer(withGrammar).content()).isEqualTo("yes");
    }

    @Test
    void aPromptLargerThanTheContextWindowFailsWithContextExceeded() {
        ScriptedEngine engine = ScriptedEngine.builder().contextWindow(3).reply("kept").build();

        PaganticException failure = failureOf(() -> engine.infer(Request.of("one two three four")));

        assertThat(failure.code()).isEqualTo(ErrorCode.INFERENCE_CONTEXT_EXCEEDED);
        assertThat(failure.details()).containsEntry("prompt_tokens", 4).containsEntry("context_window", 3);
        assertThat(engine.remaining()).isEqualTo(1);
    }

    @Test
    void generationStopsWhenTheContextWindowIsFull() {
        ScriptedEngine engine = ScriptedEngine.builder().contextWindow(5).reply("w x y z").build();

        Result result = engine.infer(Request.of("one two three"));

        assertThat(result.content()).isEqualTo("w x");
        assertThat(result.finishReason()).isEqualTo(FinishReason.LENGTH);
        assertThat(result.usage().contextTokens()).isEqualTo(5);
    }

    @Test
    void aContextWindowOfZeroMeansUnlimited() {
        ScriptedEngine engine = ScriptedEngine.builder().contextWindow(0).reply("a b c").build();

        Result result = engine.infer(Request.of("x"));

        assertThat(result.content()).isEqualTo("a b c");
        assertThat(result.usage().contextWindow()).isZero();
    }

    @Test
    void aClosedEngineRefusesCallsWithoutConsumingSteps() {
        ScriptedEngine engine = ScriptedEngine.replying("kept");
        engine.close();
        engine.close();

        assertThat(failureOf(() -> engine.infer(Request.of("x"))).code())
                .isEqualTo(ErrorCode.INFERENCE_ENGINE_CLOSED);
        assertThat(engine.remaining()).isEqualTo(1);
    }

    @Test
    void aResultStepIsReturnedVerbatimIgnoringLimitsButStillStreamed() {
        Result scripted = Result.builder().content("exactly as scripted").usage(TokenUsage.of(7, 9))
                .finishReason(FinishReason.LENGTH).build();
        ScriptedEngine engine = ScriptedEngine.builder().reply(scripted).build();
        List<String> deltas = new ArrayList<>();

        Result result = engine.infer(CallContext.background(), maxTokens("x", 1), StreamHandler.onContent(deltas::add));

        assertThat(result).isEqualTo(scripted);
        assertThat(deltas).containsExactly("exactly", " as", " scripted");
    }

    @Test
    void aResponderComputesTheResultFromTheRequest() {
        ScriptedEngine engine = ScriptedEngine.builder()
                .replyWith(request -> Result.of("you said " + request.messages().get(0).content(), TokenUsage.ZERO))
                .build();

        assertThat(engine.infer(Request.of("ping")).content()).isEqualTo("you said ping");
    }

    @Test
    void aResponderThatThrowsFailsAsANonRetryableEngineErrorWithTheCause() {
        IllegalArgumentException bug = new IllegalArgumentException("bad fixture");
        ScriptedEngine engine = ScriptedEngine.builder().replyWith(request -> {
            throw bug;
        }).build();

        PaganticException failure = failureOf(() -> engine.infer(Request.of("x")));

        assertThat(failure.code()).isEqualTo(ErrorCode.INFERENCE_ENGINE_ERROR);
        assertThat(failure.retryable()).isFalse();
        assertThat(failure.getCause()).isSameAs(bug);
    }

    @Test
    void aResponderReturningNullFailsAsAnEngineError() {
        ScriptedEngine engine = ScriptedEngine.builder().replyWith(request -> null).build();

        PaganticException failure = failureOf(() -> engine.infer(Request.of("x")));

        assertThat(failure.code()).isEqualTo(ErrorCode.INFERENCE_ENGINE_ERROR);
        assertThat(failure.getMessage()).contains("returned null");
    }

    @Test
    void aFailedAssertionInAResponderPropagatesUnwrapped() {
        ScriptedEngine engine = ScriptedEngine.builder().replyWith(request -> {
            throw new AssertionError("the request should have had a system message");
        }).build();

        assertThatThrownBy(() -> engine.infer(Request.of("x"))).isInstanceOf(AssertionError.class)
                .hasMessageContaining("system message");
    }

    @Test
    void withoutStreamingTheReplyIsDeliveredOnceWhenComplete() {
        ScriptedEngine engine = ScriptedEngine.builder().capabilities(Capability.TOKEN_COUNTING)
                .reply("hello big world").build();
        List<String> deltas = new ArrayList<>();

        engine.infer(CallContext.background(), Request.of("hi"), StreamHandler.onContent(deltas::add));

        assertThat(deltas).containsExactly("hello big world");
    }

    @Test
    void concurrentCallsTakeEveryStepExactlyOnce() throws Exception {
        int calls = 40;
        ScriptedEngine.Builder builder = ScriptedEngine.builder();
        IntStream.range(0, calls).forEach(i -> builder.reply("reply " + i));
        ScriptedEngine engine = builder.build();
        ExecutorService pool = Executors.newFixedThreadPool(8);
        try {
            List<Callable<String>> tasks = new ArrayList<>();
            for (int i = 0; i < calls; i++) {
                tasks.add(() -> engine.infer(Request.of("go")).content());
            }
            Set<String> answers = new HashSet<>();
            for (Future<String> answer : pool.invokeAll(tasks)) {
                answers.add(answer.get());
            }

            assertThat(answers).isEqualTo(IntStream.range(0, calls).mapToObj(i -> "reply " + i)
                    .collect(Collectors.toSet()));
            assertThat(engine.callCount()).isEqualTo(calls);
            assertThat(engine.remaining()).isZero();
        } finally {
            pool.shutdownNow();
        }
    }

    @Test
    void theDefaultsDeclareToolsStreamingTokenCountingSeedAndStop() {
        ModelInfo info = ScriptedEngine.builder().build().modelInfo();

        assertThat(info).isEqualTo(ModelInfo.of("scripted", 4096, Capability.TOOLS, Capability.STREAMING,
                Capability.TOKEN_COUNTING, Capability.SEED, Capability.STOP));
    }

    @Test
    void aStopStringEndsTheReplyBeforeItAndDropsTheToolCallsThatWouldFollow() {
        ScriptedEngine stopping = ScriptedEngine.builder().reply("Once upon a time. The end.")
                .replyCallingTool("lookup", Map.of("q", "x")).build();

        Result first = stopping.infer(Request.builder().addMessage(Message.user("go")).addStop(".").build());
        Result second = stopping.infer(Request.builder().addMessage(Message.user("go")).addStop("zzz").build());

        assertThat(first.content()).isEqualTo("Once upon a time");
        assertThat(first.finishReason()).isEqualTo(FinishReason.STOP);
        assertThat(second.toolCalls()).extracting(ToolCall::name).containsExactly("lookup");
    }

    @Test
    void aSeedIsAcceptedAndTheSameSeedGivesTheSameReply() {
        ScriptedEngine seeded = ScriptedEngine.builder().reply("same words").reply("same words").build();
        Request request = Request.builder().addMessage(Message.user("go")).seed(42).build();

        assertThat(seeded.infer(request).content()).isEqualTo(seeded.infer(request).content());
        assertThat(seeded.requests()).extracting(r -> r.settings().seed().getAsLong()).containsExactly(42L, 42L);
    }

    @Test
    void anEngineThatDoesNotDeclareSeedOrStopRefusesThem() {
        ScriptedEngine plain = ScriptedEngine.builder().capabilities(Capability.STREAMING).reply("x").build();

        assertThat(failureOf(() -> plain.infer(Request.builder().addMessage(Message.user("go")).seed(1).build()))
                .code()).isEqualTo(ErrorCode.CONFIG_UNSUPPORTED_CAPABILITY);
        assertThat(failureOf(() -> plain.infer(Request.builder().addMessage(Message.user("go")).addStop("x")
                .build())).code()).isEqualTo(ErrorCode.CONFIG_UNSUPPORTED_CAPABILITY);
    }

    @Test
    void modelSettingsAreReportedInTheModelInfo() {
        ModelInfo info = ScriptedEngine.builder().modelName("tiny").contextWindow(128)
                .capabilities(List.of(Capability.STREAMING)).build().modelInfo();

        assertThat(info).isEqualTo(ModelInfo.of("tiny", 128, Capability.STREAMING));
    }

    @Test
    void theBuilderRefusesInvalidConfigurationWithConfigInvalid() {
        assertConfigInvalid(() -> ScriptedEngine.builder().modelName(" ").build(), "modelName");
        assertConfigInvalid(() -> ScriptedEngine.builder().contextWindow(-1).build(), "contextWindow");
        assertConfigInvalid(() -> ScriptedEngine.builder().replyWithToolCalls().build(), "at least one tool call");
        assertConfigInvalid(() -> ScriptedEngine.builder().capabilities(Capability.STREAMING)
                .replyCallingTool("search", Map.of()).build(), "Capability.TOOLS");
        assertConfigInvalid(() -> ScriptedEngine.builder().capabilities(Capability.STREAMING)
                .reply(Result.builder().toolCalls(List.of(ToolCall.of("c", "t", Map.of()))).build()).build(),
                "Capability.TOOLS");
    }

    @Test
    void theRequestsOfAToolLoopShowTheToolResultsFedBack() {
        ScriptedEngine engine = ScriptedEngine.builder()
                .replyCallingTool("get_weather", Map.of("city", "Paris"))
                .reply("It is sunny.")
                .build();
        Request first = Request.of("weather in Paris?");
        Result call = engine.infer(first);
        Request second = first.toBuilder().addMessage(call.messages().get(0))
                .addMessage(Message.toolResult("call_1", "get_weather", "sunny")).build();

        engine.infer(second);

        assertThat(engine.lastRequest().orElseThrow().messages()).extracting(Message::role)
                .containsExactly(Role.USER, Role.ASSISTANT, Role.TOOL);
    }

    private static void assertConfigInvalid(ThrowingCallable build, String mentioned) {
        PaganticException failure = failureOf(build);
        assertThat(failure.code()).isEqualTo(ErrorCode.CONFIG_INVALID);
        assertThat(failure.getMessage()).contains(mentioned);
    }
}
