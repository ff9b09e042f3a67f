package dev.pagantic.adapter.api;

import static dev.pagantic.adapter.api.TestServer.chat;
import static dev.pagantic.adapter.api.TestServer.json;
import static org.assertj.core.api.Assertions.assertThat;

import dev.pagantic.testkit.ScriptedEngine;
import java.net.http.HttpResponse;
import org.junit.jupiter.api.Test;
import tools.jackson.databind.JsonNode;

/**
 * The OpenAI endpoint's {@code json_schema} path is strict: content that breaks the schema is never a 200, and an
 * answer cut off at {@code max_tokens} is a 200 with {@code finish_reason: "length"} and the partial content, never an
 * upstream error (clients retry 5xx). pagantic retries it first while decoding samples (no {@code seed}); structured
 * streams send the answer only once it is final, so a client never sees a discarded attempt.
 */
class StructuredStrictnessTest {

    private static final String SENTIMENT = "\"response_format\":{\"type\":\"json_schema\",\"json_schema\":{"
            + "\"name\":\"sentiment\",\"schema\":{\"type\":\"object\",\"properties\":{\"sentiment\":{\"type\":"
            + "\"string\",\"enum\":[\"positive\",\"negative\"]},\"score\":{\"type\":\"integer\",\"maximum\":10}},"
            + "\"required\":[\"sentiment\",\"score\"],\"additionalProperties\":false}}}";

    @Test
    void anAnswerThatStillBreaksTheSchemaAfterRetriesIsA422NotContent() {
        String invalid = "{\"sentiment\": \"positive\", \"score\": 11}";
        ScriptedEngine engine = ScriptedEngine.replying(invalid, invalid, invalid);
        try (TestServer api = TestServer.start(engine)) {
            HttpResponse<String> response = api.post("/v1/chat/completions", chat("Analyze: fine", SENTIMENT));

            assertThat(response.statusCode()).as(response.body()).isEqualTo(422);
            JsonNode error = json(response).path("error");
            assertThat(error.path("code").asString()).isEqualTo("invalid_model_output");
            assertThat(error.path("pagantic_code").asString()).isEqualTo("CONSTRAINT_SCHEMA_INVALID");
            assertThat(error.path("message").asString()).contains("score");
            assertThat(engine.callCount()).as("retried before giving up").isEqualTo(3);
        }
    }

    @Test
    void aValidAnswerAfterAnInvalidOneIsA200WithTheValidAnswer() {
        ScriptedEngine engine = ScriptedEngine.replying("{\"sentiment\": \"positive\", \"score\": 99}",
                "{\"sentiment\": \"negative\", \"score\": 2}");
        try (TestServer api = TestServer.start(engine)) {
            HttpResponse<String> response = api.post("/v1/chat/completions", chat("Analyze: meh", SENTIMENT));

            assertThat(response.statusCode()).as(response.body()).isEqualTo(200);
            JsonNode content = TestServer.JSON.readTree(json(response).path("choices").path(0).path("message")
                    .path("content").asString());
            assertThat(content.path("score").asInt()).isEqualTo(2);
        }
    }

    @Test
    void jsonCutOffAtMaxTokensIsRetriedWhileSamplingThenA200WithFinishReasonLengthAndThePartialContent() {
        String answer = "{\"sentiment\": \"positive\", \"score\": 7}";
        ScriptedEngine engine = ScriptedEngine.replying(answer, answer, answer);
        try (TestServer api = TestServer.start(engine)) {
            HttpResponse<String> response = api.post("/v1/chat/completions", chat("Analyze: good", SENTIMENT,
                    "\"max_tokens\":2"));

            assertThat(response.statusCode()).as(response.body()).isEqualTo(200);
            JsonNode choice = json(response).path("choices").path(0);
            assertThat(choice.path("finish_reason").asString()).isEqualTo("length");
            assertThat(choice.path("message").path("content").asString()).isEqualTo("{\"sentiment\": \"positive\",");
            assertThat(engine.callCount()).as("every attempt the retry policy allows").isEqualTo(3);
        }
    }

    @Test
    void aSeededJsonCutOffIsNotRetriedSinceTheSameSeedWouldCutItAgain() {
        ScriptedEngine engine = ScriptedEngine.replying("{\"sentiment\": \"positive\", \"score\": 7}");
        try (TestServer api = TestServer.start(engine)) {
            HttpResponse<String> response = api.post("/v1/chat/completions", chat("Analyze: good", SENTIMENT,
                    "\"max_tokens\":2", "\"seed\":42"));

            assertThat(response.statusCode()).as(response.body()).isEqualTo(200);
            assertThat(json(response).path("choices").path(0).path("finish_reason").asString()).isEqualTo("length");
            assertThat(engine.callCount()).isEqualTo(1);
        }
    }

    @Test
    void textCutOffAtMaxTokensIsA200WithFinishReasonLength() {
        ScriptedEngine engine = ScriptedEngine.replying("Paris is the capital of France.");
        try (TestServer api = TestServer.start(engine)) {
            HttpResponse<String> response = api.post("/v1/chat/completions", chat("Capital?", "\"max_tokens\":2"));

            assertThat(response.statusCode()).as(response.body()).isEqualTo(200);
            JsonNode choice = json(response).path("choices").path(0);
            assertThat(choice.path("finish_reason").asString()).isEqualTo("length");
            assertThat(choice.path("message").path("content").asString()).isEqualTo("Paris is");
        }
    }

    @Test
    void aStreamedCutOffAnswerEndsWithFinishReasonLength() {
        String answer = "{\"sentiment\": \"positive\", \"score\": 7}";
        ScriptedEngine engine = ScriptedEngine.replying(answer, answer, answer);
        try (TestServer api = TestServer.start(engine)) {
            HttpResponse<String> response = api.post("/v1/chat/completions", chat("Analyze: good", SENTIMENT,
                    "\"max_tokens\":2", "\"stream\":true"));

            assertThat(response.statusCode()).as(response.body()).isEqualTo(200);
            assertThat(TestServer.sseData(response.body())).anySatisfy(data -> assertThat(data)
                    .contains("\"finish_reason\":\"length\""));
        }
    }
}
