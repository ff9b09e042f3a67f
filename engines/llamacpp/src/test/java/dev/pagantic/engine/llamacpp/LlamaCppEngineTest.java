package dev.pagantic.engine.llamacpp;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.networknt.schema.SchemaRegistry;
import com.networknt.schema.SpecificationVersion;
import dev.pagantic.core.CallContext;
import dev.pagantic.core.ErrorCode;
import dev.pagantic.core.FinishReason;
import dev.pagantic.core.Message;
import dev.pagantic.core.PaganticException;
import dev.pagantic.core.Schema;
import dev.pagantic.core.ToolCall;
import dev.pagantic.core.ToolDefinition;
import dev.pagantic.inference.Request;
import dev.pagantic.inference.Result;
import dev.pagantic.inference.StreamHandler;
import dev.pagantic.inference.grammar.GbnfGrammar;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;

/** The llama.cpp engine on the real test models: what the engine adds beyond the contract kit. */
class LlamaCppEngineTest {

    private static final JsonMapper JSON = JsonMapper.builder().build();
    private static final Schema PERSON = Schema.object()
            .required("name", Schema.string().withMaxLength(12))
            .required("address", Schema.object()
                    .required("city", Schema.string().withMaxLength(12))
                    .required("zip", Schema.integer())
                    .build())
            .required("tags", Schema.arrayOf(Schema.string().withMaxLength(8)).withItemCount(1, 3))
            .build();
    private static final ToolDefinition WEATHER = ToolDefinition.of("get_weather", "Weather of a city",
            Schema.object().required("city", Schema.string().withMaxLength(16)).build());

    private static LlamaCppEngine engine;

    @BeforeAll
    static void load() {
        engine = TestModels.stories();
    }

    @AfterAll
    static void close() {
        engine.close();
    }

    private static Request.Builder prompt(String text) {
        return Request.builder().addMessage(Message.user(text)).temperature(0).seed(3);
    }

    private static PaganticException failure(Runnable action) {
        try {
            action.run();
        } catch (PaganticException expected) {
            return expected;
        }
        throw new AssertionError("expected a PaganticException");
    }

    @Test
    void generatesTextWithUsageFromTheModelsTokenizer() {
        Result result = engine.infer(prompt("Once upon a time").maxTokens(16).build());

        assertThat(result.content()).isNotBlank();
        assertThat(result.usage().outputTokens()).isBetween(1, 16);
        assertThat(result.usage().promptTokens())
                .isGreaterThan(engine.tokenCounter().count("Once upon a time"));
        assertThat(result.usage().contextWindow()).isEqualTo(2048);
        assertThat(result.usage().tokensPerSecond()).isPositive();
    }

    @Test
    void temperatureZeroWithAFixedSeedIsDeterministic() {
        Request request = prompt("The little dog").maxTokens(12).build();

        assertThat(engine.infer(request).content()).isEqualTo(engine.infer(request).content());
    }

    @Test
    void theChatTemplateRendersEveryRoleWithToolCallsAndResults() {
        List<Message> conversation = List.of(Message.system("Be brief."), Message.user("Weather in Paris?"),
                Message.assistant("", List.of(ToolCall.of("call_1", "get_weather", Map.of("city", "Paris")))),
                Message.toolResult("call_1", "get_weather", "Sunny, 24 degrees"));

        String prompt = PromptRenderer.render(engine.nativeModel(), conversation, List.of(WEATHER), Map.of());

        assertThat(prompt).contains("<|im_start|>system\nBe brief.", "<|im_start|>user\nWeather in Paris?",
                "\"get_weather\"", "\"city\": \"Paris\"", "Sunny, 24 degrees").endsWith("<|im_start|>assistant\n");
    }

    @Test
    void charactersBeyondTheBasicPlaneSurviveTheTemplateAndNulIsRefused() {
        String prompt = PromptRenderer.render(engine.nativeModel(),
                List.of(Message.user("smile \uD83D\uDE00 and \uE000 and caf\u00e9")), List.of(), Map.of());

        assertThat(prompt).contains("smile \uD83D\uDE00 and \uE000 and caf\u00e9<|im_end|>");
        assertThat(failure(() -> engine.infer(prompt("a\0b").build())).code()).isEqualTo(ErrorCode.CONFIG_INVALID);
    }

    @Test
    void schemaConstrainedJsonForANestedSchemaValidatesAndStops() {
        Result result = engine.infer(prompt("Describe a person as JSON.").schema(PERSON).maxTokens(300).build());

        assertThat(result.finishReason()).isEqualTo(FinishReason.STOP);
        JsonNode value = JSON.readTree(result.content());
        JsonNode schema = JSON.valueToTree(PERSON.toJsonSchema());
        var errors = SchemaRegistry.withDefaultDialect(SpecificationVersion.DRAFT_2020_12).getSchema(schema)
                .validate(value);
        assertThat(errors).as("networknt violations of %s", result.content()).isEmpty();
    }

    @Test
    void aMalformedGrammarIsRefusedBeforeItCanReachTheEngine() {
        assertThatThrownBy(() -> prompt("x").grammar("root ::= (\"a\"").build())
                .isInstanceOfSatisfying(PaganticException.class,
                        e -> assertThat(e.code()).isEqualTo(ErrorCode.CONFIG_GRAMMAR_INVALID));
    }

    @Test
    void outputCutShortOfTheGrammarByAStopStringIsRejected() {
        PaganticException rejected = failure(() -> engine.infer(prompt("Answer").grammar("root ::= \"yes\" | \"no\"")
                .addStop("e").addStop("o").build()));

        assertThat(rejected.code()).isEqualTo(ErrorCode.CONSTRAINT_GRAMMAR_REJECTED);
    }

    @Test
    void anAnswerThatRunsOutOfTokensInsideItsSchemaIsCutOffAtEveryBudgetNeverAGrammarFailure() throws Exception {
        // Pydantic's settings: free-form values, in which the model writes text that re-encodes to fewer tokens than it
        // generated (before the engine read an unfinished grammar as the end of generation, seed 1 at 288 and 320
        // tokens failed with CONSTRAINT_GRAMMAR_REJECTED).
        @SuppressWarnings("unchecked")
        Schema settings = Schema.fromJsonSchema(JSON.readValue(java.nio.file.Path.of(
                "../../fixtures/schemas/pydantic/settings/schema.json").toFile(), Map.class));
        for (int maxTokens = 256; maxTokens <= 320; maxTokens += 32) {
            for (long seed = 1; seed <= 2; seed++) {
                Result result = engine.infer(Request.builder().addMessage(Message.user("Fill in the form."))
                        .seed(seed).schema(settings).maxTokens(maxTokens).build());

                if (result.finishReason() == FinishReason.STOP) {
                    assertThat(JSON.readTree(result.content()).isObject()).as(result.content()).isTrue();
                } else {
                    assertThat(result.finishReason()).isEqualTo(FinishReason.LENGTH);
                    assertThat(result.usage().outputTokens()).isEqualTo(maxTokens);
                }
            }
        }
    }

    @Test
    void outputCutByTheTokenLimitUnderAGrammarFinishesWithLengthInsteadOfFailing() {
        Result result = engine.infer(prompt("Count").grammar("root ::= [a-z]{50,60}").maxTokens(3).build());

        assertThat(result.finishReason()).isEqualTo(FinishReason.LENGTH);
        assertThat(result.usage().outputTokens()).isEqualTo(3);
    }

    @Test
    void aCharacterOfSeveralByteTokensCountsAllItsTokensSoACutOffAnswerFinishesWithLength() {
        // stories260K spells an emoji with byte tokens, which the binding streams as one piece of text
        Result result = engine.infer(prompt("Smile").grammar("root ::= \"\uD83D\uDE00\" [\\U0001F600-\\U0001F64F]")
                .maxTokens(4).build());

        assertThat(result.finishReason()).isEqualTo(FinishReason.LENGTH);
        assertThat(result.content()).isEqualTo("\uD83D\uDE00");
        assertThat(result.usage().outputTokens()).isEqualTo(4);
    }

    @Test
    void aForcedToolCallIsParsedIntoToolCallsWithArgumentsOfTheToolsSchema() {
        List<ToolCall> streamed = new ArrayList<>();
        Result result = engine.infer(CallContext.background(), prompt("What is the weather in Paris?")
                .addTool(WEATHER).option("tool_choice", "required").maxTokens(1200).build(), new StreamHandler() {
                    @Override
                    public void onToolCall(ToolCall call) {
                        streamed.add(call);
                    }

                    @Override
                    public void onContent(String delta) {
                        throw new AssertionError("a call must not stream as content: " + delta);
                    }
                });

        assertThat(result.finishReason()).isEqualTo(FinishReason.TOOL_CALLS);
        assertThat(result.content()).isEmpty();
        assertThat(result.toolCalls()).isNotEmpty().allSatisfy(call -> {
            assertThat(call.name()).isEqualTo("get_weather");
            assertThat(call.id()).startsWith("call_");
            assertThat(call.arguments()).containsOnlyKeys("city");
            assertThat((String) call.arguments().get("city")).hasSizeLessThanOrEqualTo(16);
        });
        assertThat(streamed).isEqualTo(result.toolCalls());
    }

    @Test
    void withoutTheToolGrammarTheAnswerIsStillReadInTheModelsFormatButNothingConstrainsIt() {
        // stories260K writes a story, not the JSON its (generic) prompt asks for: only the grammar made it call
        PaganticException unread = failure(() -> engine.infer(prompt("What is the weather in Paris?")
                .addTool(WEATHER).option("tool_choice", "required").option("tool_grammar", false).maxTokens(16)
                .build()));

        assertThat(unread.code()).isEqualTo(ErrorCode.INFERENCE_MALFORMED_RESPONSE);
        assertThat(unread.details()).containsKey("output");
    }

    @Test
    void aRequiredToolCallIsNoLongerForcedOnceToolResultsAreBeingAnswered() {
        Request.Builder question = prompt("What is the weather in Paris?").addTool(WEATHER)
                .option("tool_choice", "required");
        Request answering = question
                .addMessage(Message.assistant("", List.of(ToolCall.of("call_1", "get_weather", Map.of("city", "Paris")))))
                .addMessage(Message.toolResult("call_1", "get_weather", "Sunny")).build();

        assertThat(engine.prompt(prompt("What is the weather in Paris?").addTool(WEATHER)
                .option("tool_choice", "required").build())).doesNotContain("{\"response\": ");
        assertThat(engine.prompt(answering)).contains("{\"response\": \"<your reply>\"}");
    }

    @Test
    void toolChoiceNoneOffersNoToolsAndToolsWithAGrammarAreRefused() {
        Result plain = engine.infer(prompt("Hello").addTool(WEATHER).option("tool_choice", "none").maxTokens(8)
                .build());
        assertThat(plain.toolCalls()).isEmpty();

        assertThat(failure(() -> engine.infer(prompt("Hello").addTool(WEATHER).grammar("root ::= \"a\"").build()))
                .code()).isEqualTo(ErrorCode.CONFIG_INVALID);
    }

    @Test
    void unknownOptionsAreRefusedAndNProbsNeverReachesNativeCode() {
        assertThat(failure(() -> engine.infer(prompt("Hi").option("mirostat", 2).build())).code())
                .isEqualTo(ErrorCode.CONFIG_INVALID);
        PaganticException nProbs = failure(() -> engine.infer(prompt("Hi").option("n_probs", 3).build()));
        assertThat(nProbs.code()).isEqualTo(ErrorCode.CONFIG_INVALID);
        assertThat(nProbs.details()).containsEntry("option", "n_probs");
    }

    @Test
    void aPromptThatDoesNotFitTheContextFailsBeforeDecoding() {
        PaganticException exceeded = failure(() -> engine.infer(prompt("Once upon a time ".repeat(900)).build()));

        assertThat(exceeded.code()).isEqualTo(ErrorCode.INFERENCE_CONTEXT_EXCEEDED);
        assertThat(exceeded.details()).containsEntry("context_window", 2048);
        assertThat(engine.infer(prompt("Still").maxTokens(3).build()).content()).isNotNull();
    }

    @Test
    void streamedDeltasArriveInOrderAndEqualTheFinalContent() {
        List<String> deltas = new ArrayList<>();
        Result result = engine.infer(CallContext.background(), prompt("Once upon a time").maxTokens(24).build(),
                StreamHandler.onContent(deltas::add));

        assertThat(deltas).hasSizeGreaterThan(1);
        assertThat(String.join("", deltas)).isEqualTo(result.content());
    }

    @Test
    void aStreamHandlerThatThrowsEndsTheCallAndTheModelStaysUsable() {
        assertThatThrownBy(() -> engine.infer(CallContext.background(), prompt("Once").maxTokens(200).build(),
                StreamHandler.onContent(delta -> {
                    throw new IllegalStateException("client went away");
                }))).isInstanceOf(IllegalStateException.class);

        assertThat(engine.infer(prompt("Again").maxTokens(3).build()).usage().outputTokens()).isPositive();
    }

    @Test
    void concurrentRequestsOnOneSlotAreServedOneAfterAnother() throws Exception {
        Request request = prompt("The cat").maxTokens(20).build();
        CompletableFuture<Result> first = CompletableFuture.supplyAsync(() -> engine.infer(request));
        CompletableFuture<Result> second = CompletableFuture.supplyAsync(() -> engine.infer(request));

        assertThat(first.get(2, TimeUnit.MINUTES).content()).isEqualTo(second.get(2, TimeUnit.MINUTES).content());
    }

    @Test
    void grammarsOverTheCostBudgetAreRefusedWhileAnotherRequestHoldsTheOnlySlot() throws Exception {
        List<String> values = new ArrayList<>();
        for (int i = 0; i < 100_000; i++) {
            values.add("value-" + i);
        }
        Schema hugeEnum = Schema.fromJsonSchema(Map.of("type", "object",
                "properties", Map.of("v", Map.of("enum", values)), "required", List.of("v")));
        Schema nestedRepetition = Schema.fromJsonSchema(Map.of("type", "string",
                "pattern", "^(a{0,1000}){0,1000}$"));
        java.util.concurrent.CountDownLatch holding = new java.util.concurrent.CountDownLatch(1);
        java.util.concurrent.CountDownLatch release = new java.util.concurrent.CountDownLatch(1);
        CompletableFuture<Result> busy = CompletableFuture.supplyAsync(() -> engine.infer(CallContext.background(),
                prompt("Once").maxTokens(5).build(), new StreamHandler() {
                    @Override
                    public void onContent(String delta) {
                        holding.countDown();
                        try {
                            release.await(2, TimeUnit.MINUTES); // keeps the slot until the refusals are in
                        } catch (InterruptedException e) {
                            Thread.currentThread().interrupt();
                        }
                    }
                }));
        try {
            assertThat(holding.await(2, TimeUnit.MINUTES)).isTrue();
            for (Schema schema : List.of(hugeEnum, nestedRepetition)) {
                PaganticException refused = failure(() -> engine.infer(prompt("x").schema(schema).build()));

                assertThat(refused.code()).isEqualTo(ErrorCode.CONFIG_GRAMMAR_INVALID);
                assertThat(refused.details()).as("%s", refused).containsKey("budget");
            }
        } finally {
            release.countDown();
        }
        assertThat(busy.get(2, TimeUnit.MINUTES).content()).isNotEmpty();
        assertThat(engine.infer(prompt("Again").maxTokens(3).build()).usage().outputTokens()).isPositive();
    }

    @Test
    void theTokenCounterUsesTheModelsTokenizer() {
        String text = "Once upon a time there was a cat.";

        assertThat(engine.modelInfo().supports(dev.pagantic.inference.Capability.TOKEN_COUNTING)).isTrue();
        assertThat(engine.tokenCounter().count(text)).isEqualTo(engine.nativeModel().encode(text).length)
                .isPositive();
    }
}
