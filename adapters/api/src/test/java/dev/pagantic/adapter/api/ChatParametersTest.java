package dev.pagantic.adapter.api;

import static dev.pagantic.adapter.api.TestServer.chat;
import static dev.pagantic.adapter.api.TestServer.json;
import static dev.pagantic.adapter.api.TestServer.sseData;
import static org.assertj.core.api.Assertions.assertThat;

import dev.pagantic.core.TokenUsage;
import dev.pagantic.inference.Result;
import dev.pagantic.testkit.ScriptedEngine;
import java.net.http.HttpResponse;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.util.ArrayList;
import java.util.Base64;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import tools.jackson.databind.JsonNode;

/** The OpenAI parameters the server maps beyond the basics: n, streamed tool calls, request ids, embeddings. */
class ChatParametersTest {

    private static final String TOOLS = "\"tools\":[{\"type\":\"function\",\"function\":{\"name\":\"get_weather\","
            + "\"parameters\":{\"type\":\"object\",\"properties\":{\"city\":{\"type\":\"string\"}}}}}]";

    @Test
    void nAsksForThatManyChoicesEachARunOfItsOwnWithTheSeedAdvanced() {
        ScriptedEngine engine = ScriptedEngine.replying("one", "two", "three");
        try (TestServer api = TestServer.start(engine)) {
            HttpResponse<String> response = api.post("/v1/chat/completions", chat("hi", "\"n\":3", "\"seed\":7"));

            JsonNode choices = json(response).path("choices");
            assertThat(choices).hasSize(3);
            for (int i = 0; i < 3; i++) {
                assertThat(choices.path(i).path("index").asInt()).isEqualTo(i);
            }
            assertThat(choices.path(2).path("message").path("content").asString()).isEqualTo("three");
            assertThat(engine.requests()).extracting(request -> request.settings().seed().orElseThrow())
                    .containsExactly(7L, 8L, 9L);
            assertThat(json(response).path("usage").path("completion_tokens").asInt()).isEqualTo(3);
        }
    }

    @Test
    void streamedChoicesCarryTheirIndexAndTheUsageChunkSumsThem() {
        try (TestServer api = TestServer.start(ScriptedEngine.replying("first answer", "second answer"))) {
            HttpResponse<String> response = api.post("/v1/chat/completions", chat("hi", "\"n\":2", "\"stream\":true",
                    "\"stream_options\":{\"include_usage\":true}"));

            List<String> data = sseData(response.body());
            assertThat(data.get(data.size() - 1)).isEqualTo("[DONE]");
            StringBuilder[] content = {new StringBuilder(), new StringBuilder()};
            List<String> finishes = new ArrayList<>();
            for (String event : data.subList(0, data.size() - 2)) {
                JsonNode choice = TestServer.JSON.readTree(event).path("choices").path(0);
                content[choice.path("index").asInt()].append(choice.path("delta").path("content").asString(""));
                if (choice.path("finish_reason").isString()) {
                    finishes.add(choice.path("index").asInt() + ":" + choice.path("finish_reason").asString());
                }
            }
            assertThat(content[0].toString()).isEqualTo("first answer");
            assertThat(content[1].toString()).isEqualTo("second answer");
            assertThat(finishes).containsExactly("0:stop", "1:stop");
            JsonNode usage = TestServer.JSON.readTree(data.get(data.size() - 2)).path("usage");
            assertThat(usage.path("completion_tokens").asInt()).isEqualTo(4);
        }
    }

    @Test
    void streamedToolCallArgumentsArriveInPiecesThatConcatenateToTheArguments() {
        String city = "Llanfairpwllgwyngyll in Wales, where it rains";
        ScriptedEngine engine = ScriptedEngine.builder().replyCallingTool("get_weather", Map.of("city", city)).build();
        try (TestServer api = TestServer.start(engine)) {
            HttpResponse<String> response = api.post("/v1/chat/completions",
                    chat("Weather?", TOOLS, "\"stream\":true"));

            StringBuilder arguments = new StringBuilder();
            int pieces = 0;
            String name = "";
            for (String event : sseData(response.body())) {
                if (event.equals("[DONE]")) {
                    continue;
                }
                JsonNode call = TestServer.JSON.readTree(event).path("choices").path(0).path("delta")
                        .path("tool_calls").path(0);
                if (call.isMissingNode()) {
                    continue;
                }
                assertThat(call.path("index").asInt()).isZero();
                if (call.has("id")) {
                    name = call.path("function").path("name").asString();
                    assertThat(call.path("type").asString()).isEqualTo("function");
                }
                arguments.append(call.path("function").path("arguments").asString(""));
                pieces++;
            }
            assertThat(name).isEqualTo("get_weather");
            assertThat(pieces).isGreaterThan(3);
            assertThat(TestServer.JSON.readTree(arguments.toString()).path("city").asString()).isEqualTo(city);
        }
    }

    @Test
    void twoConcurrentRequestsWithTheSameRequestIdGetTimelinesOfTheirOwn() throws Exception {
        CountDownLatch bothIn = new CountDownLatch(2);
        ScriptedEngine.Builder script = ScriptedEngine.builder();
        for (int i = 0; i < 2; i++) {
            script.replyWith(request -> {
                bothIn.countDown();
                try {
                    bothIn.await(10, TimeUnit.SECONDS);
                } catch (InterruptedException interrupted) {
                    Thread.currentThread().interrupt();
                }
                return Result.of("done", TokenUsage.of(1, 1));
            });
        }
        try (TestServer api = TestServer.start(script.build())) {
            CompletableFuture<HttpResponse<String>> a = api.postAsync("/v1/chat/completions", chat("a"),
                    "X-Request-Id", "same-id");
            CompletableFuture<HttpResponse<String>> b = api.postAsync("/v1/chat/completions", chat("b"),
                    "X-Request-Id", "same-id");
            String idA = a.get(20, TimeUnit.SECONDS).headers().firstValue("X-Request-Id").orElseThrow();
            String idB = b.get(20, TimeUnit.SECONDS).headers().firstValue("X-Request-Id").orElseThrow();

            assertThat(idA).isNotEqualTo(idB);
            assertThat(List.of(idA, idB)).allMatch(id -> id.startsWith("same-id")).contains("same-id");
            long starts = countStarts(api.timeline(idA)) + countStarts(api.timeline(idB));
            assertThat(countStarts(api.timeline(idA))).isEqualTo(1);
            assertThat(starts).isEqualTo(2);
            // a later request that reuses a finished id gets a fresh one too: timelines never merge
            String later = api.post("/v1/chat/completions", chat("c"), "X-Request-Id", "same-id").headers()
                    .firstValue("X-Request-Id").orElseThrow();
            assertThat(later).isNotIn(idA, idB);
        }
    }

    private static long countStarts(JsonNode timeline) {
        long count = 0;
        for (JsonNode event : timeline.path("events")) {
            if (event.path("action").asString().equals("inference_start")) {
                count++;
            }
        }
        return count;
    }

    @Test
    void embeddingsComeAsFloatsOrLittleEndianBase64ForOneInputOrABatch() {
        TextEmbedder embedder = (context, text) -> new float[] {text.length(), 0.5f, -1.25f};
        try (TestServer api = TestServer.start(ScriptedEngine.replying("x"), b -> b.embeddings(embedder))) {
            JsonNode floats = json(api.post("/v1/embeddings", "{\"model\":\"gpt-test\",\"input\":[\"ab\",\"abcd\"]}"));
            assertThat(floats.path("object").asString()).isEqualTo("list");
            assertThat(floats.path("model").asString()).isEqualTo("gpt-test");
            assertThat(floats.path("data")).hasSize(2);
            assertThat(floats.path("data").path(1).path("index").asInt()).isEqualTo(1);
            assertThat(floats.path("data").path(1).path("embedding").path(0).asDouble()).isEqualTo(4.0);
            assertThat(floats.path("data").path(1).path("embedding").path(2).asDouble()).isEqualTo(-1.25);

            JsonNode base64 = json(api.post("/v1/embeddings",
                    "{\"model\":\"test-model\",\"input\":\"abc\",\"encoding_format\":\"base64\"}"));
            ByteBuffer bytes = ByteBuffer.wrap(Base64.getDecoder().decode(
                    base64.path("data").path(0).path("embedding").asString())).order(ByteOrder.LITTLE_ENDIAN);
            assertThat(bytes.remaining()).isEqualTo(12);
            assertThat(new float[] {bytes.getFloat(), bytes.getFloat(), bytes.getFloat()})
                    .containsExactly(3f, 0.5f, -1.25f);

            HttpResponse<String> tokens = api.post("/v1/embeddings", "{\"input\":[[1,2,3]]}");
            assertThat(tokens.statusCode()).isEqualTo(400);
            assertThat(json(tokens).path("error").path("param").asString()).isEqualTo("input[0]");
        }
    }

    @Test
    void aServerWithoutEmbeddingsAnswers404ForThem() {
        try (TestServer api = TestServer.start(ScriptedEngine.replying("x"))) {
            HttpResponse<String> response = api.post("/v1/embeddings", "{\"input\":\"hello\"}");

            assertThat(response.statusCode()).isEqualTo(404);
            assertThat(json(response).path("error").path("code").asString()).isEqualTo("model_not_found");
        }
    }
}
