package dev.pagantic.adapter.api;

import static dev.pagantic.adapter.api.TestServer.chat;
import static dev.pagantic.adapter.api.TestServer.json;
import static dev.pagantic.adapter.api.TestServer.sseData;
import static org.assertj.core.api.Assertions.assertThat;

import dev.pagantic.core.ErrorCode;
import dev.pagantic.core.Message;
import dev.pagantic.core.Role;
import dev.pagantic.inference.Request;
import dev.pagantic.orchestrate.facade.SystemRequest;
import dev.pagantic.orchestrate.spi.Invocation;
import dev.pagantic.orchestrate.spi.Observer;
import dev.pagantic.testkit.ScriptedEngine;
import java.net.http.HttpResponse;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.stream.Collectors;
import org.junit.jupiter.api.Test;
import tools.jackson.databind.JsonNode;

class ChatCompletionsTest {

    private static final String WEATHER_TOOL = "\"tools\":[{\"type\":\"function\",\"function\":{"
            + "\"name\":\"get_weather\",\"description\":\"The weather in a city\",\"parameters\":{\"type\":\"object\","
            + "\"properties\":{\"city\":{\"type\":\"string\"}},\"required\":[\"city\"]}}}]";

    @Test
    void aChatCompletionAnswersInOpenAisFormat() {
        ScriptedEngine engine = ScriptedEngine.builder().reply("Paris is the capital of France.").build();
        try (TestServer api = TestServer.start(engine)) {
            HttpResponse<String> response = api.post("/v1/chat/completions",
                    "{\"model\":\"gpt-test\",\"messages\":[{\"role\":\"system\",\"content\":\"Be brief.\"},"
                            + "{\"role\":\"user\",\"content\":[{\"type\":\"text\",\"text\":\"Capital of France?\"}]}],"
                            + "\"temperature\":0.2,\"top_p\":0.9,\"max_tokens\":64}");

            assertThat(response.statusCode()).isEqualTo(200);
            assertThat(response.headers().firstValue("Content-Type")).hasValueSatisfying(
                    type -> assertThat(type).startsWith("application/json"));
            JsonNode body = json(response);
            assertThat(body.path("id").asString()).startsWith("chatcmpl-");
            assertThat(body.path("object").asString()).isEqualTo("chat.completion");
            assertThat(body.path("model").asString()).isEqualTo("gpt-test");
            assertThat(body.path("created").asLong()).isPositive();
            JsonNode choice = body.path("choices").path(0);
            assertThat(choice.path("message").path("role").asString()).isEqualTo("assistant");
            assertThat(choice.path("message").path("content").asString()).isEqualTo("Paris is the capital of France.");
            assertThat(choice.path("finish_reason").asString()).isEqualTo("stop");
            JsonNode usage = body.path("usage");
            assertThat(usage.path("completion_tokens").asInt()).isEqualTo(6);
            assertThat(usage.path("total_tokens").asInt())
                    .isEqualTo(usage.path("prompt_tokens").asInt() + usage.path("completion_tokens").asInt());

            Request seen = engine.lastRequest().orElseThrow();
            assertThat(seen.messages()).extracting(Message::role).containsExactly(Role.SYSTEM, Role.USER);
            assertThat(seen.messages().get(1).content()).isEqualTo("Capital of France?");
            assertThat(seen.settings().maxTokens()).isEqualTo(64);
        }
    }

    @Test
    void seedAndStopReachTheEngineAndTheStopEndsTheAnswer() {
        ScriptedEngine engine = ScriptedEngine.builder().reply("Paris. And then some more text.").build();
        try (TestServer api = TestServer.start(engine)) {
            HttpResponse<String> response = api.post("/v1/chat/completions",
                    "{\"messages\":[{\"role\":\"user\",\"content\":\"Capital of France?\"}],\"seed\":42,"
                            + "\"stop\":[\".\"]}");

            assertThat(response.statusCode()).isEqualTo(200);
            assertThat(json(response).path("choices").path(0).path("message").path("content").asString())
                    .isEqualTo("Paris");
            Request seen = engine.lastRequest().orElseThrow();
            assertThat(seen.settings().seed()).hasValue(42L);
            assertThat(seen.settings().stop()).containsExactly(".");
        }
    }

    @Test
    void theServedModelIsEchoedWhenTheClientNamesNone() {
        try (TestServer api = TestServer.start(ScriptedEngine.replying("Hi."))) {
            JsonNode body = json(api.post("/v1/chat/completions",
                    "{\"messages\":[{\"role\":\"user\",\"content\":\"Hello\"}]}"));

            assertThat(body.path("model").asString()).isEqualTo("test-model");
        }
    }

    @Test
    void aStreamedCompletionSendsChunksThatConcatenateToTheAnswerThenDone() {
        String answer = "Once upon a time there was a tiny robot.";
        try (TestServer api = TestServer.start(ScriptedEngine.replying(answer))) {
            HttpResponse<String> response = api.post("/v1/chat/completions",
                    chat("Tell me a story.", "\"stream\":true", "\"stream_options\":{\"include_usage\":true}"));

            assertThat(response.statusCode()).isEqualTo(200);
            assertThat(response.headers().firstValue("Content-Type")).hasValueSatisfying(
                    type -> assertThat(type).startsWith("text/event-stream"));
            List<String> data = sseData(response.body());
            assertThat(data).last().isEqualTo("[DONE]");
            List<JsonNode> chunks = data.subList(0, data.size() - 1).stream().map(TestServer.JSON::readTree)
                    .collect(Collectors.toList());
            assertThat(chunks).allSatisfy(chunk -> {
                assertThat(chunk.path("object").asString()).isEqualTo("chat.completion.chunk");
                assertThat(chunk.path("id").asString()).isEqualTo(chunks.get(0).path("id").asString());
                assertThat(chunk.path("model").asString()).isEqualTo("gpt-test");
            });
            assertThat(chunks.get(0).path("choices").path(0).path("delta").path("role").asString())
                    .isEqualTo("assistant");
            String streamed = chunks.stream().map(c -> c.path("choices").path(0).path("delta").path("content"))
                    .filter(JsonNode::isString).map(JsonNode::asString).collect(Collectors.joining());
            assertThat(streamed).isEqualTo(answer);
            assertThat(chunks.stream().filter(c -> c.path("choices").size() == 1)
                    .filter(c -> c.path("choices").path(0).path("delta").path("content").isString()).count())
                    .as("one chunk per word, after the role chunk").isGreaterThan(5);
            JsonNode finish = chunks.get(chunks.size() - 2);
            assertThat(finish.path("choices").path(0).path("finish_reason").asString()).isEqualTo("stop");
            JsonNode usage = chunks.get(chunks.size() - 1);
            assertThat(usage.path("choices")).isEmpty();
            assertThat(usage.path("usage").path("completion_tokens").asInt()).as("one token per word").isEqualTo(9);
        }
    }

    @Test
    void aCallerToolCallIsHandedBackAndItsResultGetsTheFinalAnswer() {
        ScriptedEngine engine = ScriptedEngine.builder()
                .replyCallingTool("get_weather", Map.of("city", "Paris"))
                .reply("It is sunny in Paris.")
                .build();
        try (TestServer api = TestServer.start(engine)) {
            JsonNode first = json(api.post("/v1/chat/completions", chat("Weather in Paris?", WEATHER_TOOL)));

            JsonNode choice = first.path("choices").path(0);
            assertThat(choice.path("finish_reason").asString()).isEqualTo("tool_calls");
            JsonNode message = choice.path("message");
            assertThat(message.path("content").isNull()).isTrue();
            JsonNode call = message.path("tool_calls").path(0);
            assertThat(call.path("type").asString()).isEqualTo("function");
            assertThat(call.path("function").path("name").asString()).isEqualTo("get_weather");
            assertThat(TestServer.JSON.readTree(call.path("function").path("arguments").asString())
                    .path("city").asString()).isEqualTo("Paris");
            assertThat(engine.lastRequest().orElseThrow().tools()).extracting(t -> t.name())
                    .containsExactly("get_weather");

            String callId = call.path("id").asString();
            String followUp = "{\"model\":\"gpt-test\",\"messages\":["
                    + "{\"role\":\"user\",\"content\":\"Weather in Paris?\"},"
                    + "{\"role\":\"assistant\",\"content\":null,\"tool_calls\":[{\"id\":\"" + callId + "\","
                    + "\"type\":\"function\",\"function\":{\"name\":\"get_weather\","
                    + "\"arguments\":\"{\\\"city\\\":\\\"Paris\\\"}\"}}]},"
                    + "{\"role\":\"tool\",\"tool_call_id\":\"" + callId + "\",\"content\":\"sunny, 24 C\"}],"
                    + WEATHER_TOOL + "}";
            JsonNode second = json(api.post("/v1/chat/completions", followUp));

            assertThat(second.path("choices").path(0).path("finish_reason").asString()).isEqualTo("stop");
            assertThat(second.path("choices").path(0).path("message").path("content").asString())
                    .isEqualTo("It is sunny in Paris.");
            Message toolResult = engine.lastRequest().orElseThrow().messages().stream()
                    .filter(m -> m.role() == Role.TOOL).findFirst().orElseThrow();
            assertThat(toolResult.toolCallId()).isEqualTo(callId);
            assertThat(toolResult.name()).isEqualTo("get_weather");
            assertThat(toolResult.content()).isEqualTo("sunny, 24 C");
        }
    }

    @Test
    void aStreamedToolCallArrivesAsAToolCallsDeltaWithFinishReasonToolCalls() {
        ScriptedEngine engine = ScriptedEngine.builder()
                .replyCallingTool("get_weather", Map.of("city", "Oslo")).build();
        try (TestServer api = TestServer.start(engine)) {
            List<String> data = sseData(api.post("/v1/chat/completions",
                    chat("Weather in Oslo?", WEATHER_TOOL, "\"stream\":true")).body());

            assertThat(data).last().isEqualTo("[DONE]");
            JsonNode calls = data.stream().filter(d -> d.contains("tool_calls")).map(TestServer.JSON::readTree)
                    .findFirst().orElseThrow().path("choices").path(0).path("delta").path("tool_calls");
            assertThat(calls.path(0).path("index").asInt()).isZero();
            assertThat(calls.path(0).path("function").path("name").asString()).isEqualTo("get_weather");
            assertThat(TestServer.JSON.readTree(data.get(data.size() - 2)).path("choices").path(0)
                    .path("finish_reason").asString()).isEqualTo("tool_calls");
        }
    }

    @Test
    void aJsonSchemaResponseFormatAnswersWithJsonOfTheSchema() {
        ScriptedEngine engine = ScriptedEngine.builder().reply("{\"sentiment\": \"Positive\", \"score\": 0.9")
                .build();
        try (TestServer api = TestServer.start(engine)) {
            JsonNode body = json(api.post("/v1/chat/completions", chat("Analyze: great product!",
                    "\"response_format\":{\"type\":\"json_schema\",\"json_schema\":{\"name\":\"sentiment\","
                            + "\"schema\":{\"type\":\"object\",\"properties\":{\"sentiment\":{\"type\":\"string\","
                            + "\"enum\":[\"positive\",\"negative\"]},\"score\":{\"type\":\"number\"}},"
                            + "\"required\":[\"sentiment\",\"score\"],\"additionalProperties\":false}}}")));

            JsonNode choice = body.path("choices").path(0);
            assertThat(choice.path("finish_reason").asString()).isEqualTo("stop");
            JsonNode content = TestServer.JSON.readTree(choice.path("message").path("content").asString());
            assertThat(content.path("sentiment").asString()).as("repaired and normalised").isEqualTo("positive");
            assertThat(content.path("score").asDouble()).isEqualTo(0.9);
        }
    }

    @Test
    void aStreamedJsonSchemaAnswerIsTheValidatedJsonInOneDelta() {
        ScriptedEngine engine = ScriptedEngine.builder().reply("{\"sentiment\": \"Negative\"}").build();
        try (TestServer api = TestServer.start(engine)) {
            List<String> data = sseData(api.post("/v1/chat/completions", chat("Analyze: broken on arrival",
                    "\"stream\":true", "\"response_format\":{\"type\":\"json_schema\",\"json_schema\":{\"name\":\"s\","
                            + "\"schema\":{\"type\":\"object\",\"properties\":{\"sentiment\":{\"type\":\"string\","
                            + "\"enum\":[\"positive\",\"negative\"]}},\"required\":[\"sentiment\"]}}}")).body());

            String streamed = data.stream().filter(d -> !d.equals("[DONE]")).map(TestServer.JSON::readTree)
                    .map(c -> c.path("choices").path(0).path("delta").path("content"))
                    .filter(JsonNode::isString).map(JsonNode::asString).collect(Collectors.joining());
            assertThat(TestServer.JSON.readTree(streamed).path("sentiment").asString()).isEqualTo("negative");
        }
    }

    @Test
    void anEngineFailureIsA502JsonErrorWithoutAStackTrace() {
        ScriptedEngine engine = ScriptedEngine.builder().fail(ErrorCode.INFERENCE_ENGINE_ERROR, "backend exploded")
                .build();
        try (TestServer api = TestServer.start(engine)) {
            HttpResponse<String> response = api.post("/v1/chat/completions", chat("Hello"));

            assertThat(response.statusCode()).isEqualTo(502);
            JsonNode error = json(response).path("error");
            assertThat(error.path("code").asString()).isEqualTo("engine_error");
            assertThat(error.path("pagantic_code").asString()).isEqualTo("INFERENCE_ENGINE_ERROR");
            assertThat(error.path("type").asString()).isEqualTo("server_error");
            assertThat(error.path("message").asString()).contains("backend exploded");
            assertThat(response.body()).doesNotContain("at dev.pagantic", "Exception", "\tat ");
        }
    }

    @Test
    void anEngineFailureBeforeAnyOutputOfAStreamIsStillAnHttpError() {
        ScriptedEngine engine = ScriptedEngine.builder().fail(ErrorCode.INFERENCE_ENGINE_ERROR, "no backend").build();
        try (TestServer api = TestServer.start(engine)) {
            HttpResponse<String> response = api.post("/v1/chat/completions", chat("Hello", "\"stream\":true"));

            assertThat(response.statusCode()).isEqualTo(502);
            assertThat(json(response).path("error").path("pagantic_code").asString()).isEqualTo("INFERENCE_ENGINE_ERROR");
        }
    }

    @Test
    void aContextOverflowIsTheClientsProblem() {
        ScriptedEngine engine = ScriptedEngine.builder().contextWindow(3).reply("never").build();
        try (TestServer api = TestServer.start(engine)) {
            HttpResponse<String> response = api.post("/v1/chat/completions",
                    chat("a question far longer than three words"));

            assertThat(response.statusCode()).isEqualTo(400);
            assertThat(json(response).path("error").path("code").asString()).isEqualTo("context_length_exceeded");
            assertThat(json(response).path("error").path("param").asString()).isEqualTo("messages");
            assertThat(json(response).path("error").path("pagantic_code").asString())
                    .isEqualTo("INFERENCE_CONTEXT_EXCEEDED");
        }
    }

    @Test
    void malformedRequestsAre400WithAClearMessage() {
        try (TestServer api = TestServer.start(ScriptedEngine.builder().build())) {
            assertBadRequest(api.post("/v1/chat/completions", "{not json"), "not valid JSON");
            assertBadRequest(api.post("/v1/chat/completions", "{\"model\":\"x\"}"), "'messages'");
            assertBadRequest(api.post("/v1/chat/completions",
                    "{\"messages\":[{\"role\":\"wizard\",\"content\":\"hi\"}]}"), "role 'wizard'");
            assertBadRequest(api.post("/v1/chat/completions",
                    "{\"messages\":[{\"role\":\"user\",\"content\":[{\"type\":\"image_url\"}]}]}"), "text content");
            assertBadRequest(api.post("/v1/chat/completions",
                    chat("hi", "\"response_format\":{\"type\":\"json_object\"}")), "json_schema");
            assertBadRequest(api.post("/v1/chat/completions", chat("hi", "\"temperature\":-1")), "temperature");
            assertBadRequest(api.post("/v1/chat/completions", chat("hi", "\"n\":0")), "'n'");
            assertBadRequest(api.post("/v1/chat/completions", chat("hi", "\"grammar\":\"root ::= \\\"a\\\"\"")),
                    "grammar");
            assertBadRequest(api.post("/v1/chat/completions",
                    chat("hi", "\"response_format\":{\"type\":\"json_schema\",\"json_schema\":{\"name\":\"x\","
                            + "\"schema\":{\"type\":\"object\",\"nullable\":true}}}")), "nullable");
            assertBadRequest(api.post("/v1/chat/completions", "{\"messages\":[]}"), "message");
        }
    }

    @Test
    void aTraceparentHeaderBecomesTheTraceIdOfTheRequestsEvents() {
        String traceId = "4bf92f3577b34da6a3ce929d0e0e4736";
        try (TestServer api = TestServer.start(ScriptedEngine.replying("Traced."))) {
            HttpResponse<String> response = api.post("/v1/chat/completions", chat("Hello"),
                    "traceparent", "00-" + traceId + "-00f067aa0ba902b7-01", "X-Request-Id", "req-traced-1");

            assertThat(json(response).path("id").asString()).isEqualTo("chatcmpl-req-traced-1");
            assertThat(response.headers().firstValue("X-Request-Id")).hasValue("req-traced-1");
            JsonNode events = api.timeline("req-traced-1").path("events");
            assertThat(events).isNotEmpty();
            assertThat(events).allSatisfy(event ->
                    assertThat(event.path("correlation").path("trace_id").asString()).isEqualTo(traceId));
        }
    }

    @Test
    void theCallersTraceContextHeadersReachTheRequestThatObserversSee() {
        String traceparent = "00-4bf92f3577b34da6a3ce929d0e0e4736-00f067aa0ba902b7-01";
        List<Map<String, String>> seen = new CopyOnWriteArrayList<>();
        Observer observer = new Observer() {
            @Override
            public <T> T intercept(Invocation<T> invocation) {
                if (invocation.input() instanceof SystemRequest request) {
                    seen.add(request.traceContext());
                }
                return invocation.proceed();
            }
        };
        try (TestServer api = TestServer.wired(ScriptedEngine.replying("One.", "Two.", "Three."),
                orchestrator -> orchestrator.observer(observer))) {
            api.post("/v1/chat/completions", chat("Hello"), "traceparent", traceparent, "tracestate", "vendor=1");
            api.post("/v1/requests", "{\"messages\":[{\"role\":\"user\",\"content\":\"Hi\"}]}",
                    "traceparent", traceparent);
            api.post("/v1/chat/completions", chat("Hello"), "traceparent", "not-a-traceparent");
        }

        assertThat(seen).containsExactly(Map.of("traceparent", traceparent, "tracestate", "vendor=1"),
                Map.of("traceparent", traceparent), Map.of());
    }

    private static void assertBadRequest(HttpResponse<String> response, String messagePart) {
        assertThat(response.statusCode()).as(response.body()).isEqualTo(400);
        JsonNode error = json(response).path("error");
        assertThat(error.path("type").asString()).isEqualTo("invalid_request_error");
        assertThat(error.path("message").asString()).contains(messagePart);
    }
}
