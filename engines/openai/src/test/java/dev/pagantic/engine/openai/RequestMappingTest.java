package dev.pagantic.engine.openai;

import static dev.pagantic.engine.openai.StubServer.JSON;
import static dev.pagantic.engine.openai.TestEngines.failure;
import static dev.pagantic.engine.openai.TestEngines.on;
import static org.assertj.core.api.Assertions.assertThat;

import dev.pagantic.core.CallContext;
import dev.pagantic.core.ErrorCode;
import dev.pagantic.core.Message;
import dev.pagantic.core.PaganticException;
import dev.pagantic.core.Schema;
import dev.pagantic.core.ToolCall;
import dev.pagantic.core.ToolDefinition;
import dev.pagantic.inference.Request;
import dev.pagantic.inference.StreamHandler;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;
import org.junit.jupiter.params.provider.ValueSource;
import tools.jackson.databind.JsonNode;

class RequestMappingTest {

    private static final Schema ANSWER = Schema.object().required("answer", Schema.string()).build();
    private static final String YES_NO = "root ::= \"yes\" | \"no\"";
    private static final ToolDefinition WEATHER = ToolDefinition.of("get_weather", "Current weather of a city.",
            Schema.object().required("city", Schema.string()).build());

    private final StubServer server = StubServer.start(request -> StubModel.says("ok"));

    @AfterEach
    void stop() {
        server.close();
    }

    private JsonNode sent(OpenAiCompatibleEngine.Builder builder, Request request) {
        try (OpenAiCompatibleEngine engine = builder.build()) {
            engine.infer(CallContext.background(), request);
        }
        return server.lastRequest().json();
    }

    private JsonNode sent(Request request) {
        return sent(on(server), request);
    }

    @Test
    void messagesWithToolCallsAndToolResultsAreSentInTheOpenAiShape() {
        ToolCall call = ToolCall.of("call_7", "get_weather", Map.of("city", "Paris", "days", 2));
        JsonNode body = sent(Request.builder()
                .addMessage(Message.system("Be brief."))
                .addMessage(Message.user("Weather in Paris?"))
                .addMessage(Message.assistant("", List.of(call)))
                .addMessage(Message.toolResult("call_7", "get_weather", "sunny, 24 C"))
                .addMessage(Message.assistant("Sunny."))
                .build());

        assertThat(body.path("model").asString()).isEqualTo("stub-model");
        JsonNode messages = body.path("messages");
        assertThat(messages).hasSize(5);
        assertThat(messages.get(0).toString()).isEqualTo("{\"role\":\"system\",\"content\":\"Be brief.\"}");
        assertThat(messages.get(1).toString()).isEqualTo("{\"role\":\"user\",\"content\":\"Weather in Paris?\"}");
        JsonNode assistant = messages.get(2);
        assertThat(assistant.path("role").asString()).isEqualTo("assistant");
        assertThat(assistant.path("content").isNull()).as("content of a tool-calls-only message").isTrue();
        JsonNode sentCall = assistant.path("tool_calls").get(0);
        assertThat(sentCall.path("id").asString()).isEqualTo("call_7");
        assertThat(sentCall.path("type").asString()).isEqualTo("function");
        assertThat(sentCall.path("function").path("name").asString()).isEqualTo("get_weather");
        JsonNode arguments = sentCall.path("function").path("arguments");
        assertThat(arguments.isString()).as("arguments are a JSON string").isTrue();
        assertThat(JSON.readTree(arguments.stringValue())).isEqualTo(JSON.readTree("{\"city\":\"Paris\",\"days\":2}"));
        JsonNode tool = messages.get(3);
        assertThat(tool.path("role").asString()).isEqualTo("tool");
        assertThat(tool.path("tool_call_id").asString()).isEqualTo("call_7");
        assertThat(tool.path("content").asString()).isEqualTo("sunny, 24 C");
        assertThat(messages.get(4).path("content").asString()).isEqualTo("Sunny.");
        assertThat(messages.get(4).has("tool_calls")).isFalse();
    }

    @Test
    void toolsAreSentAsFunctionsWithTheirParameterSchemas() {
        JsonNode body = sent(Request.builder().addMessage(Message.user("hi")).addTool(WEATHER).build());

        JsonNode tool = body.path("tools").get(0);
        assertThat(tool.path("type").asString()).isEqualTo("function");
        assertThat(tool.path("function").path("name").asString()).isEqualTo("get_weather");
        assertThat(tool.path("function").path("description").asString()).isEqualTo("Current weather of a city.");
        assertThat(tool.path("function").path("parameters")).isEqualTo(JSON.valueToTree(
                WEATHER.parameters().toJsonSchema()));
    }

    @Test
    void aSchemaIsSentAsAStrictJsonSchemaResponseFormat() {
        JsonNode body = sent(Request.builder().addMessage(Message.user("hi")).schema(ANSWER).build());

        JsonNode format = body.path("response_format");
        assertThat(format.path("type").asString()).isEqualTo("json_schema");
        assertThat(format.path("json_schema").path("name").asString()).isEqualTo("output");
        assertThat(format.path("json_schema").path("strict").asBoolean(false)).isTrue();
        assertThat(format.path("json_schema").path("schema")).isEqualTo(JSON.valueToTree(ANSWER.toJsonSchema()));
        assertThat(body.has("grammar")).isFalse();
    }

    @Test
    void aGrammarIsSentInGrammarModeOnlyAndWinsOverASchema() {
        JsonNode grammarOnly = sent(on(server).constraintMode(ConstraintMode.GRAMMAR),
                Request.builder().addMessage(Message.user("yes or no?")).grammar(YES_NO).build());
        assertThat(grammarOnly.path("grammar").asString()).isEqualTo(YES_NO);
        assertThat(grammarOnly.has("response_format")).isFalse();

        JsonNode both = sent(on(server).constraintMode(ConstraintMode.GRAMMAR),
                Request.builder().addMessage(Message.user("json?")).grammar(YES_NO).schema(ANSWER).build());
        assertThat(both.path("grammar").asString()).isEqualTo(YES_NO);
        assertThat(both.has("response_format")).as("llama-server refuses a grammar and a schema together").isFalse();

        JsonNode schemaInGrammarMode = sent(on(server).constraintMode(ConstraintMode.GRAMMAR),
                Request.builder().addMessage(Message.user("json?")).schema(ANSWER).build());
        assertThat(schemaInGrammarMode.path("response_format").path("type").asString()).isEqualTo("json_schema");
    }

    @ParameterizedTest
    @EnumSource(value = ConstraintMode.class, names = {"JSON_SCHEMA", "PROMPT_ONLY"})
    void aGrammarIsRefusedOutsideGrammarModeAndNeverSent(ConstraintMode mode) {
        try (OpenAiCompatibleEngine engine = on(server).constraintMode(mode).build()) {
            PaganticException refused = failure(() -> engine.infer(
                    Request.builder().addMessage(Message.user("yes or no?")).grammar(YES_NO).build()));
            assertThat(refused.code()).isEqualTo(ErrorCode.CONFIG_UNSUPPORTED_CAPABILITY);
            assertThat(refused.details()).containsEntry("capability", "GRAMMAR")
                    .containsEntry("endpoint", server.baseUrl() + "/v1/chat/completions");
        }
        assertThat(server.requests()).isEmpty();
    }

    @Test
    void aSchemaIsRefusedInPromptOnlyModeAndToolsWhenUndeclared() {
        try (OpenAiCompatibleEngine promptOnly = on(server).constraintMode(ConstraintMode.PROMPT_ONLY).build();
             OpenAiCompatibleEngine noTools = on(server).tools(false).build()) {
            assertThat(failure(() -> promptOnly.infer(Request.builder().addMessage(Message.user("json?"))
                    .schema(ANSWER).build())).code()).isEqualTo(ErrorCode.CONFIG_UNSUPPORTED_CAPABILITY);
            assertThat(failure(() -> noTools.infer(Request.builder().addMessage(Message.user("weather?"))
                    .addTool(WEATHER).build())).code()).isEqualTo(ErrorCode.CONFIG_UNSUPPORTED_CAPABILITY);
        }
        assertThat(server.requests()).isEmpty();
    }

    @Test
    void samplingFieldsAreSentWhenSet() {
        JsonNode body = sent(Request.builder().addMessage(Message.user("hi")).temperature(0.2).topP(0.9)
                .maxTokens(64).seed(42).addStop("\n\n").addStop("END").build());

        assertThat(body.path("temperature").asDouble()).isEqualTo(0.2);
        assertThat(body.path("top_p").asDouble()).isEqualTo(0.9);
        assertThat(body.path("max_tokens").asInt()).isEqualTo(64);
        assertThat(body.path("seed").asLong()).isEqualTo(42);
        assertThat(body.path("stop").toString()).isEqualTo("[\"\\n\\n\",\"END\"]");
    }

    @Test
    void unsetSamplingFieldsAndAZeroMaxTokensAreLeftToTheServer() {
        JsonNode body = sent(Request.of("hi"));

        assertThat(body.has("temperature")).isFalse();
        assertThat(body.has("top_p")).isFalse();
        assertThat(body.has("max_tokens")).isFalse();
        assertThat(body.has("seed")).isFalse();
        assertThat(body.has("stop")).isFalse();
        assertThat(body.has("tools")).isFalse();
        assertThat(body.has("response_format")).isFalse();
    }

    @Test
    void optionsArePassedThroughAsTopLevelFields() {
        JsonNode body = sent(Request.builder().addMessage(Message.user("hi")).option("top_k", 40)
                .option("tool_choice", "auto")
                .option("chat_template_kwargs", Map.of("enable_thinking", false)).build());

        assertThat(body.path("top_k").asInt()).isEqualTo(40);
        assertThat(body.path("tool_choice").asString()).isEqualTo("auto");
        assertThat(body.path("chat_template_kwargs").path("enable_thinking").asBoolean(true)).isFalse();
    }

    @ParameterizedTest
    @ValueSource(strings = {"model", "messages", "stream", "stream_options", "tools", "temperature"})
    void optionsThatWouldReplaceWhatTheEngineWritesAreRefused(String key) {
        try (OpenAiCompatibleEngine engine = on(server).build()) {
            PaganticException refused = failure(() -> engine.infer(Request.builder()
                    .addMessage(Message.user("hi")).temperature(0.5).option(key, "x").build()));
            assertThat(refused.code()).isEqualTo(ErrorCode.CONFIG_INVALID);
            assertThat(refused.details()).containsEntry("option", key);
        }
        assertThat(server.requests()).isEmpty();
    }

    @Test
    void theApiKeyIsSentAsABearerTokenWithTheExtraHeaders() {
        sent(on(server).apiKey("sk-test-123").header("OpenAI-Organization", "org-9"), Request.of("hi"));

        StubServer.Recorded request = server.lastRequest();
        assertThat(request.method()).isEqualTo("POST");
        assertThat(request.path()).isEqualTo("/v1/chat/completions");
        assertThat(request.header("Authorization")).isEqualTo("Bearer sk-test-123");
        assertThat(request.header("OpenAI-Organization")).isEqualTo("org-9");
        assertThat(request.header("Content-Type")).isEqualTo("application/json");
    }

    @Test
    void noAuthorizationIsSentWithoutAnApiKey() {
        sent(Request.of("hi"));

        assertThat(server.lastRequest().header("Authorization")).isNull();
    }

    @Test
    void aBaseUrlEndingInV1PostsToTheSameEndpoint() {
        sent(OpenAiCompatibleEngine.builder().baseUrl(server.baseUrl() + "/v1/").modelName("m"), Request.of("hi"));

        assertThat(server.lastRequest().path()).isEqualTo("/v1/chat/completions");
    }

    @Test
    void aCallWithoutAHandlerOrWithTheNoOpHandlerIsNotStreamedAndOneWithAHandlerAsksForUsage() {
        JsonNode whole = sent(Request.of("hi"));
        assertThat(whole.path("stream").asBoolean(true)).isFalse();
        assertThat(whole.has("stream_options")).isFalse();

        try (OpenAiCompatibleEngine engine = on(server).build()) {
            engine.infer(CallContext.background(), Request.of("hi"), StreamHandler.NOOP);
        }
        assertThat(server.lastRequest().json().path("stream").asBoolean(true)).isFalse();

        try (OpenAiCompatibleEngine engine = on(server).build()) {
            engine.infer(CallContext.background(), Request.of("hi"), StreamHandler.onContent(delta -> { }));
        }
        JsonNode streamed = server.lastRequest().json();
        assertThat(streamed.path("stream").asBoolean(false)).isTrue();
        assertThat(streamed.path("stream_options").path("include_usage").asBoolean(false)).isTrue();
        assertThat(server.lastRequest().header("Accept")).isEqualTo("text/event-stream");
    }
}
