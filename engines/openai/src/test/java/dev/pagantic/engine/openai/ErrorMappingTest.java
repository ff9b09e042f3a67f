package dev.pagantic.engine.openai;

import static dev.pagantic.engine.openai.TestEngines.failure;
import static dev.pagantic.engine.openai.TestEngines.on;
import static org.assertj.core.api.Assertions.assertThat;

import dev.pagantic.core.CallContext;
import dev.pagantic.core.ErrorCode;
import dev.pagantic.core.PaganticException;
import dev.pagantic.inference.Request;
import dev.pagantic.inference.StreamHandler;
import java.io.IOException;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.time.Duration;
import java.time.ZoneOffset;
import java.time.ZonedDateTime;
import java.time.format.DateTimeFormatter;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

class ErrorMappingTest {

    private StubServer server;

    @AfterEach
    void stop() {
        if (server != null) {
            server.close();
        }
    }

    private PaganticException failureFor(StubServer.Reply reply) {
        return failureFor(reply, false);
    }

    private PaganticException failureFor(StubServer.Reply reply, boolean streamed) {
        server = StubServer.answering(reply);
        try (OpenAiCompatibleEngine engine = on(server).apiKey("sk-secret-key-42").build()) {
            PaganticException failure = streamed
                    ? failure(() -> engine.infer(CallContext.background(), Request.of("hi"), StreamHandler.NOOP))
                    : failure(() -> engine.infer(Request.of("hi")));
            assertThat(failure.details()).containsEntry("endpoint", server.baseUrl() + "/v1/chat/completions")
                    .containsEntry("model", "stub-model");
            assertThat(failure.getMessage()).doesNotContain("sk-secret-key-42");
            assertThat(failure.details().toString()).doesNotContain("sk-secret-key-42");
            return failure;
        }
    }

    @Test
    void aRefusedConnectionIsARetryableEngineError() throws IOException {
        int port;
        try (ServerSocket socket = new ServerSocket(0, 1, InetAddress.getLoopbackAddress())) {
            port = socket.getLocalPort(); // free once closed: nothing listens there
        }
        try (OpenAiCompatibleEngine engine = OpenAiCompatibleEngine.builder().baseUrl("http://127.0.0.1:" + port)
                .modelName("m").build()) {
            PaganticException failure = failure(() -> engine.infer(Request.of("hi")));
            assertThat(failure.code()).isEqualTo(ErrorCode.INFERENCE_ENGINE_ERROR);
            assertThat(failure.retryable()).isTrue();
            assertThat(failure.details()).containsEntry("endpoint", "http://127.0.0.1:" + port
                    + "/v1/chat/completions").doesNotContainKey("status");
        }
    }

    @Test
    void aServerErrorIsARetryableEngineErrorWithTheServersMessage() {
        PaganticException failure = failureFor(StubServer.error(500, "CUDA out of memory"));

        assertThat(failure.code()).isEqualTo(ErrorCode.INFERENCE_ENGINE_ERROR);
        assertThat(failure.retryable()).isTrue();
        assertThat(failure.details()).containsEntry("status", 500);
        assertThat(failure.getMessage()).contains("CUDA out of memory");
    }

    @Test
    void anUnavailableServerSaysWhenToRetry() {
        PaganticException failure = failureFor(StubServer.json(503, "{\"detail\": \"loading model\"}",
                Map.of("Retry-After", "3")));

        assertThat(failure.code()).isEqualTo(ErrorCode.INFERENCE_ENGINE_ERROR);
        assertThat(failure.details()).containsEntry("status", 503).containsEntry("retry_after_ms", 3000L);
        assertThat(failure.getMessage()).contains("loading model");
    }

    @Test
    void notFoundIsAnUnavailableModel() {
        PaganticException failure = failureFor(StubServer.error(404, "The model `stub-model` does not exist."));

        assertThat(failure.code()).isEqualTo(ErrorCode.INFERENCE_MODEL_UNAVAILABLE);
        assertThat(failure.retryable()).isFalse();
        assertThat(failure.details()).containsEntry("status", 404);
        assertThat(failure.getMessage()).contains("does not exist");
    }

    @ParameterizedTest
    @ValueSource(strings = {
        "This model's maximum context length is 4096 tokens. However, you requested 5000 tokens.",
        "the request exceeds the available context size, try increasing it",
        "prompt is too long: context_length_exceeded",
        "Input exceeds the context window of the model"
    })
    void aBadRequestAboutTheContextLengthIsContextExceeded(String message) {
        PaganticException failure = failureFor(StubServer.error(400, message));

        assertThat(failure.code()).isEqualTo(ErrorCode.INFERENCE_CONTEXT_EXCEEDED);
        assertThat(failure.details()).containsEntry("status", 400);
    }

    @Test
    void aContextErrorNamedOnlyByItsCodeIsContextExceeded() {
        PaganticException failure = failureFor(StubServer.json(400,
                "{\"error\": {\"message\": \"too long\", \"type\": \"invalid_request_error\","
                        + " \"code\": \"context_length_exceeded\"}}"));

        assertThat(failure.code()).isEqualTo(ErrorCode.INFERENCE_CONTEXT_EXCEEDED);
        assertThat(failure.details()).containsEntry("error_code", "context_length_exceeded");
    }

    @Test
    void anyOtherBadRequestIsInvalidConfigurationWithTheServersMessage() {
        PaganticException failure = failureFor(StubServer.error(400, "Unrecognized request argument: top_k"));

        assertThat(failure.code()).isEqualTo(ErrorCode.CONFIG_INVALID);
        assertThat(failure.details()).containsEntry("status", 400).containsEntry("error_type",
                "invalid_request_error");
        assertThat(failure.getMessage()).contains("Unrecognized request argument: top_k");
    }

    @ParameterizedTest
    @ValueSource(ints = {401, 403})
    void refusedCredentialsAreInvalidConfigurationWithAHintAndNeverTheKey(int status) {
        PaganticException failure = failureFor(StubServer.error(status,
                "Incorrect API key provided: sk-secret-key-42."));

        assertThat(failure.code()).isEqualTo(ErrorCode.CONFIG_INVALID);
        assertThat(failure.details()).containsEntry("status", status);
        assertThat(failure.getMessage()).contains("API key", "***");
    }

    @Test
    void rateLimitingIsRetryableSaturationWithTheWaitInSeconds() {
        PaganticException failure = failureFor(StubServer.json(429, Wire.error("Rate limit reached"),
                Map.of("Retry-After", "7")));

        assertThat(failure.code()).isEqualTo(ErrorCode.INFERENCE_SATURATED);
        assertThat(failure.retryable()).isTrue();
        assertThat(failure.details()).containsEntry("status", 429).containsEntry("retry_after_ms", 7000L);
    }

    @Test
    void rateLimitingWithAnHttpDateGivesTheWaitUntilThen() {
        String inAMinute = DateTimeFormatter.RFC_1123_DATE_TIME.format(
                ZonedDateTime.now(ZoneOffset.UTC).plusSeconds(60));
        PaganticException failure = failureFor(StubServer.json(429, Wire.error("slow down"),
                Map.of("Retry-After", inAMinute)));

        assertThat(failure.code()).isEqualTo(ErrorCode.INFERENCE_SATURATED);
        assertThat((Long) failure.details().get("retry_after_ms")).isBetween(1_000L, 61_000L);
    }

    @Test
    void rateLimitingWithoutAWaitHasNoRetryAfterDetail() {
        PaganticException failure = failureFor(StubServer.error(429, "slow down"));

        assertThat(failure.code()).isEqualTo(ErrorCode.INFERENCE_SATURATED);
        assertThat(failure.details()).doesNotContainKey("retry_after_ms");
    }

    @Test
    void aBodyThatIsNotJsonIsAMalformedResponse() {
        PaganticException failure = failureFor(StubServer.raw(200, "text/html", "<html>proxy login</html>"));

        assertThat(failure.code()).isEqualTo(ErrorCode.INFERENCE_MALFORMED_RESPONSE);
    }

    @Test
    void anAnswerWithoutChoicesIsAMalformedResponse() {
        PaganticException failure = failureFor(StubServer.json(200, "{\"id\": \"x\", \"choices\": []}"));

        assertThat(failure.code()).isEqualTo(ErrorCode.INFERENCE_MALFORMED_RESPONSE);
        assertThat(failure.getMessage()).contains("no choices");
    }

    @Test
    void aStreamChunkThatIsNotJsonIsAMalformedResponse() {
        PaganticException failure = failureFor(StubServer.sse(Duration.ZERO, List.of("data: {\"choices\": [\n\n")),
                true);

        assertThat(failure.code()).isEqualTo(ErrorCode.INFERENCE_MALFORMED_RESPONSE);
    }

    @Test
    void aConnectionDroppedMidStreamIsARetryableEngineError() {
        PaganticException failure = failureFor(StubServer.droppedStream(List.of(Wire.contentChunk("Hel"),
                Wire.contentChunk("lo"))), true);

        assertThat(failure.code()).isEqualTo(ErrorCode.INFERENCE_ENGINE_ERROR);
        assertThat(failure.retryable()).isTrue();
        assertThat(failure.getMessage()).contains("dropped while streaming");
    }

    @Test
    void aStreamThatEndsBeforeTheAnswerIsCompleteIsAnEngineError() {
        PaganticException failure = failureFor(StubServer.sse(Duration.ZERO, List.of(
                "data: " + Wire.contentChunk("Hel") + "\n\n")), true);

        assertThat(failure.code()).isEqualTo(ErrorCode.INFERENCE_ENGINE_ERROR);
        assertThat(failure.getMessage()).contains("ended before the answer was complete");
    }

    @Test
    void aRedirectIsNotFollowedAndIsInvalidConfiguration() {
        PaganticException failure = failureFor(StubServer.json(307, "", Map.of("Location", "https://elsewhere/")));

        assertThat(failure.code()).isEqualTo(ErrorCode.CONFIG_INVALID);
        assertThat(failure.getMessage()).contains("https://elsewhere/");
    }
}
