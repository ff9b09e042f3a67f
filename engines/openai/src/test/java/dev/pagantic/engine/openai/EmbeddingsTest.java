package dev.pagantic.engine.openai;

import static dev.pagantic.engine.openai.TestEngines.failure;
import static dev.pagantic.engine.openai.TestEngines.on;
import static org.assertj.core.api.Assertions.assertThat;

import dev.pagantic.core.CallContext;
import dev.pagantic.core.Cancellation;
import dev.pagantic.core.ErrorCode;
import dev.pagantic.core.PaganticException;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.time.Duration;
import java.util.Base64;
import java.util.List;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * The engine's embeddings against a stub {@code /v1/embeddings}: what it sends, both encodings of the answer, batches
 * in the server's order, malformed answers and failures mapped as for chat. The same against pagantic's server on a
 * real model is {@code OpenAiEngineEmbeddingsTest} in integration-tests.
 */
class EmbeddingsTest {

    private StubServer server;

    @AfterEach
    void stop() {
        if (server != null) {
            server.close();
        }
    }

    private static String base64(float... vector) {
        ByteBuffer bytes = ByteBuffer.allocate(vector.length * Float.BYTES).order(ByteOrder.LITTLE_ENDIAN);
        for (float component : vector) {
            bytes.putFloat(component);
        }
        return Base64.getEncoder().encodeToString(bytes.array());
    }

    private OpenAiCompatibleEngine engineAnswering(String data) {
        server = StubServer.answering(StubServer.json(200, "{\"object\":\"list\",\"data\":" + data
                + ",\"model\":\"stub-model\"}"));
        return on(server).apiKey("sk-secret-key-42").build();
    }

    @Test
    void aTextIsPostedToTheEmbeddingsEndpointAskingForBase64AndItsVectorReturned() {
        try (OpenAiCompatibleEngine engine = engineAnswering("[{\"object\":\"embedding\",\"index\":0,\"embedding\":\""
                + base64(0.25f, -1.5f, 3f) + "\"}]")) {
            float[] vector = engine.embed("hello");

            assertThat(vector).containsExactly(0.25f, -1.5f, 3f);
            assertThat(engine.dimension()).isEqualTo(3);
            StubServer.Recorded request = server.lastRequest();
            assertThat(request.path()).isEqualTo("/v1/embeddings");
            assertThat(request.header("Authorization")).isEqualTo("Bearer sk-secret-key-42");
            assertThat(request.json().path("model").asString()).isEqualTo("stub-model");
            assertThat(request.json().path("encoding_format").asString()).isEqualTo("base64");
            assertThat(request.json().path("input").toString()).isEqualTo("[\"hello\"]");
        }
    }

    @Test
    void floatArraysAreReadForAServerThatIgnoresTheEncoding() {
        try (OpenAiCompatibleEngine engine = engineAnswering("[{\"index\":0,\"embedding\":[0.5,-2,1e-3]}]")) {
            assertThat(engine.embed("hello")).containsExactly(0.5f, -2f, 0.001f);
        }
    }

    @Test
    void aBatchIsOneRequestAndComesBackInTheInputsOrderWhateverTheServersOrder() {
        try (OpenAiCompatibleEngine engine = engineAnswering("[{\"index\":1,\"embedding\":[2,2]},"
                + "{\"index\":0,\"embedding\":\"" + base64(1f, 1f) + "\"},{\"index\":2,\"embedding\":[3,3]}]")) {
            List<float[]> vectors = engine.embedAll(CallContext.background(), List.of("a", "b", "c"));

            assertThat(vectors).extracting(vector -> vector[0]).containsExactly(1f, 2f, 3f);
            assertThat(server.requests()).hasSize(1);
            assertThat(server.lastRequest().json().path("input").toString()).isEqualTo("[\"a\",\"b\",\"c\"]");
        }
    }

    @ParameterizedTest
    @ValueSource(strings = {
            "[]",
            "[{\"index\":0,\"embedding\":[1]},{\"index\":0,\"embedding\":[1]}]",
            "[{\"index\":5,\"embedding\":[1]}]",
            "[{\"embedding\":[1]}]",
            "[{\"index\":0,\"embedding\":[]}]",
            "[{\"index\":0,\"embedding\":[1,\"x\"]}]",
            "[{\"index\":0,\"embedding\":\"not base64!\"}]",
            "[{\"index\":0,\"embedding\":\"AAAA\"}]",
            "[{\"index\":0,\"embedding\":\"AADAfw==\"}]",
            "[{\"index\":0,\"embedding\":{\"v\":1}}]",
            "[{\"index\":0,\"embedding\":[1e39]}]",
            "{\"index\":0}"})
    void anAnswerThatIsNoVectorPerInputIsMalformed(String data) {
        try (OpenAiCompatibleEngine engine = engineAnswering(data)) {
            PaganticException malformed = failure(() -> engine.embed("hello"));

            assertThat(malformed.code()).isEqualTo(ErrorCode.INFERENCE_MALFORMED_RESPONSE);
            assertThat(malformed.details()).containsEntry("endpoint", server.baseUrl() + "/v1/embeddings");
        }
    }

    @Test
    void embeddingsOfADifferentDimensionInOneBatchAreMalformed() {
        try (OpenAiCompatibleEngine engine = engineAnswering("[{\"index\":0,\"embedding\":[1,2]},"
                + "{\"index\":1,\"embedding\":[1,2,3]}]")) {
            assertThat(failure(() -> engine.embedAll(CallContext.background(), List.of("a", "b"))).code())
                    .isEqualTo(ErrorCode.INFERENCE_MALFORMED_RESPONSE);
        }
    }

    @Test
    void failuresAreMappedAsForChatWithoutTheApiKey() {
        record Case(StubServer.Reply reply, ErrorCode code) {
        }
        for (Case c : List.of(new Case(StubServer.error(404, "model 'stub-model' not found"),
                        ErrorCode.INFERENCE_MODEL_UNAVAILABLE),
                new Case(StubServer.error(401, "bad key sk-secret-key-42"), ErrorCode.CONFIG_INVALID),
                new Case(StubServer.error(429, "slow down"), ErrorCode.INFERENCE_SATURATED),
                new Case(StubServer.error(500, "boom"), ErrorCode.INFERENCE_ENGINE_ERROR),
                new Case(StubServer.error(400, "input is too long for the context length"),
                        ErrorCode.INFERENCE_CONTEXT_EXCEEDED),
                new Case(StubServer.json(200, "{\"error\":{\"message\":\"no embeddings here\"}}"),
                        ErrorCode.INFERENCE_ENGINE_ERROR))) {
            server = StubServer.answering(c.reply());
            try (OpenAiCompatibleEngine engine = on(server).apiKey("sk-secret-key-42").build()) {
                PaganticException failure = failure(() -> engine.embed("hello"));

                assertThat(failure.code()).as("%s", c).isEqualTo(c.code());
                assertThat(failure.details()).containsEntry("endpoint", server.baseUrl() + "/v1/embeddings")
                        .containsEntry("model", "stub-model");
                assertThat(failure.getMessage() + failure.details()).doesNotContain("sk-secret-key-42");
            } finally {
                server.close();
            }
        }
    }

    @Test
    void cancellingTheContextAbortsAnEmbeddingCallInFlight() {
        server = StubServer.answering(StubServer.delayed(Duration.ofSeconds(30), StubServer.json(200, "{}")));
        try (OpenAiCompatibleEngine engine = on(server).build()) {
            Cancellation cancellation = new Cancellation();
            CallContext context = CallContext.builder().cancellation(cancellation).build();
            new Thread(() -> {
                StubServer.sleep(Duration.ofMillis(200));
                cancellation.cancel("caller gave up");
            }).start();

            assertThat(failure(() -> engine.embed(context, "hello")).code()).isEqualTo(ErrorCode.CANCELLED_SIGNAL);
        }
    }

    @Test
    void aClosedEngineAndAnEmptyBatchAreRefusedBeforeAnythingIsSent() {
        server = StubServer.answering(StubServer.json(200, "{}"));
        OpenAiCompatibleEngine engine = on(server).build();
        assertThat(failure(() -> engine.embedAll(CallContext.background(), List.of())).code())
                .isEqualTo(ErrorCode.CONFIG_INVALID);
        engine.close();
        assertThat(failure(() -> engine.embed("hello")).code()).isEqualTo(ErrorCode.INFERENCE_ENGINE_CLOSED);
        assertThat(server.requests()).isEmpty();
    }
}
