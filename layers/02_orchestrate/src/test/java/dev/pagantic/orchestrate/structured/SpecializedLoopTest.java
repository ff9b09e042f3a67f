package dev.pagantic.orchestrate.structured;

import static org.assertj.core.api.Assertions.assertThat;

import dev.pagantic.core.CallContext;
import dev.pagantic.core.Cancellation;
import dev.pagantic.core.ErrorCode;
import dev.pagantic.core.Message;
import dev.pagantic.core.PaganticException;
import dev.pagantic.core.Role;
import dev.pagantic.core.Schema;
import dev.pagantic.core.TokenUsage;
import dev.pagantic.core.ToolDefinition;
import dev.pagantic.inference.Capability;
import dev.pagantic.inference.InferenceSettings;
import dev.pagantic.inference.Request;
import dev.pagantic.inference.Result;
import dev.pagantic.inference.grammar.GbnfGrammar;
import dev.pagantic.observe.InMemoryEventLog;
import dev.pagantic.orchestrate.agent.TurnOptions;
import dev.pagantic.orchestrate.lifecycle.LifecycleState;
import dev.pagantic.orchestrate.lifecycle.Transition;
import dev.pagantic.orchestrate.loop.Outcome;
import dev.pagantic.testkit.ScriptedEngine;
import dev.pagantic.tool.Tool;
import dev.pagantic.tool.ToolRegistry;
import dev.pagantic.validate.RetryPolicy;
import dev.pagantic.validate.Rule;
import dev.pagantic.validate.RuleValidator;
import dev.pagantic.validate.Rules;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

public class SpecializedLoopTest {

    /** The sentiment schema, shared with the redundant loop's tests. */
    public static final Schema SENTIMENT = Schema.object()
            .required("sentiment", Schema.enumOf("positive", "negative", "neutral"))
            .build();
    static final Schema SUMMARY = Schema.object()
            .required("summary", Schema.string())
            .required("sources", Schema.arrayOf(Schema.string()))
            .build();
    private static final String POSITIVE = "{\"sentiment\":\"positive\"}";

    private static CallContext ctx() {
        return CallContext.builder().requestId("req-7").build();
    }

    private static PaganticException failure(Runnable action) {
        try {
            action.run();
        } catch (PaganticException expected) {
            return expected;
        }
        throw new AssertionError("expected a PaganticException");
    }

    private static Tool searchTool(List<String> queries) {
        return Tool.builder(ToolDefinition.of("web_search", "Searches the web",
                        Schema.object().required("query", Schema.string()).build()))
                .handler((c, args) -> {
                    queries.add(String.valueOf(args.get("query")));
                    return "qubits got better";
                })
                .build();
    }

    @Test
    void buildWithoutEngineFailsWithConfigNoEngineAndWithoutSchemaWithSchemaRequired() {
        assertThat(failure(() -> SpecializedLoop.builder().schema(SENTIMENT).build()).code())
                .isEqualTo(ErrorCode.CONFIG_NO_ENGINE);
        assertThat(failure(() -> SpecializedLoop.builder().engine(ScriptedEngine.replying(POSITIVE)).build()).code())
                .isEqualTo(ErrorCode.CONFIG_SCHEMA_REQUIRED);
        assertThat(failure(() -> SpecializedLoop.builder().engine(ScriptedEngine.replying(POSITIVE))
                .schema(SENTIMENT).grammar(GbnfGrammar.parse("root ::= (")).build()).code())
                .isEqualTo(ErrorCode.CONFIG_GRAMMAR_INVALID);
    }

    @Test
    void basicCallReturnsValidatedJsonAtLowTemperatureWithThinkingDisabled() {
        ScriptedEngine engine = ScriptedEngine.replying(POSITIVE);
        SpecializedLoop loop = SpecializedLoop.builder().engine(engine)
                .systemPrompt("Analyze sentiment. Return structured JSON.").schema(SENTIMENT).build();

        Result result = loop.call(ctx(), "I love this product!");

        assertThat(result.content()).isEqualTo(POSITIVE);
        Request request = engine.lastRequest().orElseThrow();
        assertThat(request.settings().temperature()).hasValue(0.3);
        assertThat(request.settings().options()).containsEntry("enable_thinking", false);
        assertThat(request.messages()).containsExactly(
                Message.system("Analyze sentiment. Return structured JSON."), Message.user("I love this product!"));
    }

    @Test
    void callsAreStatelessEachStartingFromAFreshLoop() {
        ScriptedEngine engine = ScriptedEngine.replying(POSITIVE, "{\"sentiment\":\"negative\"}");
        SpecializedLoop loop = SpecializedLoop.builder().engine(engine).systemPrompt("Classify.")
                .schema(SENTIMENT).build();

        loop.call(ctx(), "first");
        loop.call(ctx(), "second");

        assertThat(engine.requests().get(1).messages())
                .containsExactly(Message.system("Classify."), Message.user("second"));
    }

    @Test
    void configuredGrammarIsSentToTheDecoder() {
        String grammar = "root ::= \"{\" [^}]* \"}\"";
        ScriptedEngine engine = ScriptedEngine.builder().capabilities(Capability.GRAMMAR).reply(POSITIVE).build();
        SpecializedLoop loop = SpecializedLoop.builder().engine(engine).schema(SENTIMENT)
                .grammar(GbnfGrammar.parse(grammar)).build();

        loop.call(ctx(), "Great!");

        assertThat(engine.lastRequest().orElseThrow().grammar()).contains(GbnfGrammar.parse(grammar));
    }

    @Test
    void contextIsRetrievedOnceWithTheOriginalPromptAndPlacedBeforeIt() {
        List<String> queries = new ArrayList<>();
        List<String> searched = new ArrayList<>();
        ScriptedEngine engine = ScriptedEngine.builder()
                .replyCallingTool("web_search", Map.of("query", "quantum"))
                .reply("I found enough.")
                .reply("{\"summary\":\"better qubits\",\"sources\":[\"web\"]}")
                .build();
        try (SpecializedLoop loop = SpecializedLoop.builder().engine(engine).schema(SUMMARY)
                .tools(ToolRegistry.of(searchTool(searched)))
                .contextProvider((c, query) -> {
                    queries.add(query);
                    return List.of(Message.system("Context: qubits"));
                }).build()) {
            loop.call(ctx(), "Latest advances in quantum computing");
        }

        assertThat(queries).containsExactly("Latest advances in quantum computing");
        List<Message> phaseTwo = engine.requests().get(2).messages();
        assertThat(phaseTwo.get(0)).isEqualTo(Message.system("Context: qubits"));
        assertThat(phaseTwo.get(1)).isEqualTo(Message.user("Latest advances in quantum computing"));
    }

    @Test
    void withToolsTheCallRunsAToolPhaseThenAsksForTheStructuredOutput() {
        List<String> searched = new ArrayList<>();
        ScriptedEngine engine = ScriptedEngine.builder()
                .replyCallingTool("web_search", Map.of("query", "quantum computing 2026"))
                .reply("Gathered.")
                .reply("{\"summary\":\"error correction improved\",\"sources\":[\"arxiv\"]}")
                .build();
        Outcome<SpecializedResult> outcome;
        try (SpecializedLoop loop = SpecializedLoop.builder().engine(engine).schema(SUMMARY)
                .systemPrompt("Research the topic, then produce a structured summary.")
                .tools(ToolRegistry.of(searchTool(searched))).build()) {
            outcome = loop.run(ctx(), "Latest advances in quantum computing", InferenceSettings.DEFAULTS,
                    TurnOptions.DEFAULTS);
        }

        assertThat(searched).containsExactly("quantum computing 2026");
        assertThat(engine.requests().get(0).tools()).extracting(ToolDefinition::name).containsExactly("web_search");
        Request phaseTwo = engine.requests().get(2);
        assertThat(phaseTwo.tools()).isEmpty();
        assertThat(phaseTwo.messages().get(phaseTwo.messages().size() - 1))
                .isEqualTo(Message.user(SpecializedLoop.PHASE_TWO_PROMPT));
        assertThat(phaseTwo.messages()).anyMatch(m -> m.role() == Role.TOOL);
        SpecializedResult result = outcome.orElseThrow();
        assertThat(result.content()).contains("error correction improved");
        assertThat(result.toolExecutions()).hasSize(1);
    }

    @Test
    void invalidOutputIsRetriedAndTheAttemptCountIncrements() {
        List<Transition> transitions = new ArrayList<>();
        ScriptedEngine engine = ScriptedEngine.replying("no json here", "{\"sentiment\":\"angry\"}", POSITIVE);
        SpecializedLoop loop = SpecializedLoop.builder().engine(engine).schema(SENTIMENT)
                .transitionListener(transitions::add).build();

        SpecializedResult result = loop.run(ctx(), "Great", InferenceSettings.DEFAULTS,
                TurnOptions.DEFAULTS).orElseThrow();

        assertThat(result.content()).isEqualTo(POSITIVE);
        assertThat(result.attempts()).isEqualTo(3);
        assertThat(engine.callCount()).isEqualTo(3);
        assertThat(transitions).extracting(Transition::to).containsExactly(LifecycleState.PREPARE,
                LifecycleState.EXECUTE, LifecycleState.VALIDATE, LifecycleState.EXECUTE, LifecycleState.VALIDATE,
                LifecycleState.EXECUTE, LifecycleState.VALIDATE, LifecycleState.COMPLETE);
        assertThat(transitions.get(transitions.size() - 1).attempt()).isEqualTo(3);
    }

    @Test
    void exhaustedRetriesFailWithTheLastConstraintFailureAndEndInError() {
        List<Transition> transitions = new ArrayList<>();
        ScriptedEngine engine = ScriptedEngine.replying("{\"sentiment\":\"angry\"}", "{\"sentiment\":\"furious\"}");
        SpecializedLoop loop = SpecializedLoop.builder().engine(engine).schema(SENTIMENT)
                .retryPolicy(RetryPolicy.builder().maxAttempts(2).initialDelay(java.time.Duration.ZERO).jitter(0)
                        .build())
                .transitionListener(transitions::add).build();

        Outcome<SpecializedResult> outcome = loop.run(ctx(), "Hm", InferenceSettings.DEFAULTS, TurnOptions.DEFAULTS);

        assertThat(outcome.failure().orElseThrow().category())
                .isEqualTo(dev.pagantic.core.FailureCategory.CONSTRAINT);
        assertThat(engine.callCount()).as("two attempts").isEqualTo(2);
        assertThat(transitions.get(transitions.size() - 1).to()).isEqualTo(LifecycleState.ERROR);
    }

    @Test
    void repairRecoversMalformedJsonWithoutARetry() {
        ScriptedEngine engine = ScriptedEngine.replying("{\"sentiment\": \"Positive\"");
        SpecializedLoop loop = SpecializedLoop.builder().engine(engine).schema(SENTIMENT).build();

        SpecializedResult result = loop.run(ctx(), "Great", InferenceSettings.DEFAULTS,
                TurnOptions.DEFAULTS).orElseThrow();

        assertThat(result.content()).isEqualToIgnoringWhitespace(POSITIVE);
        assertThat(result.validation().repaired()).isTrue();
        assertThat(result.attempts()).isEqualTo(1);
    }

    @Test
    void repairDisallowedMakesMalformedJsonAConstraintFailure() {
        ScriptedEngine engine = ScriptedEngine.replying("{\"sentiment\": \"positive\"");
        SpecializedLoop loop = SpecializedLoop.builder().engine(engine).schema(SENTIMENT).repairAllowed(false)
                .retryPolicy(RetryPolicy.noRetry()).build();

        assertThat(failure(() -> loop.call(ctx(), "Great")).code()).isEqualTo(ErrorCode.CONSTRAINT_JSON_INVALID);
    }

    @Test
    void failedRuleIsAValidationFailureThatIsRetried() {
        Rule shortSentiment = Rules.maxLength(30);
        ScriptedEngine engine = ScriptedEngine.replying(
                "{\"sentiment\":\"positive\",\"padding\":\"" + "x".repeat(40) + "\"}", POSITIVE);
        SpecializedLoop loop = SpecializedLoop.builder().engine(engine)
                .schema(Schema.object().required("sentiment", Schema.string()).build())
                .rules(RuleValidator.of(shortSentiment)).build();

        SpecializedResult result = loop.run(ctx(), "Great", InferenceSettings.DEFAULTS,
                TurnOptions.DEFAULTS).orElseThrow();

        assertThat(result.attempts()).isEqualTo(2);
        assertThat(result.rules().orElseThrow().passed()).isTrue();
    }

    @Test
    void lenientValidationReturnsTheOutputWithItsViolations() {
        ScriptedEngine engine = ScriptedEngine.replying("{\"sentiment\":\"angry\"}");
        SpecializedLoop loop = SpecializedLoop.builder().engine(engine).schema(SENTIMENT).strictValidation(false)
                .build();

        SpecializedResult result = loop.run(ctx(), "Hm", InferenceSettings.DEFAULTS,
                TurnOptions.DEFAULTS).orElseThrow();

        assertThat(result.valid()).isFalse();
        assertThat(result.validation().violations()).isNotEmpty();
        assertThat(result.content()).contains("angry");
    }

    @Test
    void inferenceFailureIsNotRetriedByDefault() {
        ScriptedEngine engine = ScriptedEngine.builder().fail(ErrorCode.INFERENCE_ENGINE_ERROR, "down")
                .reply(POSITIVE).build();
        SpecializedLoop loop = SpecializedLoop.builder().engine(engine).schema(SENTIMENT).build();

        assertThat(failure(() -> loop.call(ctx(), "Great")).code()).isEqualTo(ErrorCode.INFERENCE_ENGINE_ERROR);
        assertThat(engine.callCount()).isEqualTo(1);
    }

    @Test
    void usageIsSummedOverEveryAttempt() {
        ScriptedEngine engine = ScriptedEngine.builder()
                .reply(Result.builder().content("{\"sentiment\":\"angry\"}").usage(TokenUsage.of(10, 4)).build())
                .reply(Result.builder().content(POSITIVE).usage(TokenUsage.of(12, 5)).build())
                .build();
        SpecializedLoop loop = SpecializedLoop.builder().engine(engine).schema(SENTIMENT).build();

        Outcome<SpecializedResult> outcome = loop.run(ctx(), "Great", InferenceSettings.DEFAULTS, TurnOptions.DEFAULTS);

        assertThat(outcome.orElseThrow().result().usage()).isEqualTo(TokenUsage.of(22, 9));
        assertThat(outcome.usage()).isEqualTo(TokenUsage.of(22, 9));
    }

    @Test
    void cancelledCallFailsWithCancelledSignalBeforeAnyInference() {
        Cancellation cancellation = new Cancellation();
        cancellation.cancel();
        ScriptedEngine engine = ScriptedEngine.replying(POSITIVE);
        SpecializedLoop loop = SpecializedLoop.builder().engine(engine).schema(SENTIMENT).build();

        PaganticException failure = failure(() -> loop.call(
                CallContext.builder().cancellation(cancellation).build(), "Great"));

        assertThat(failure.code()).isEqualTo(ErrorCode.CANCELLED_SIGNAL);
        assertThat(engine.callCount()).isZero();
    }

    @Test
    void inferenceAndContextEventsCarryTheRequestId() {
        InMemoryEventLog events = InMemoryEventLog.unbounded();
        SpecializedLoop loop = SpecializedLoop.builder().engine(ScriptedEngine.replying(POSITIVE)).schema(SENTIMENT)
                .eventLog(events).contextProvider((c, q) -> List.of()).build();

        loop.call(ctx(), "Great");

        assertThat(events.events()).extracting(e -> e.action())
                .containsExactly("context", "inference_start", "inference_end");
        assertThat(events.events()).allMatch(e -> e.correlation().requestId().equals("req-7"));
    }
}
