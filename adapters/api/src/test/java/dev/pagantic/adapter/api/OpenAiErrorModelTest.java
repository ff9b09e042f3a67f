package dev.pagantic.adapter.api;

import static dev.pagantic.adapter.api.TestServer.chat;
import static dev.pagantic.adapter.api.TestServer.json;
import static org.assertj.core.api.Assertions.assertThat;

import dev.pagantic.testkit.ScriptedEngine;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;
import tools.jackson.databind.JsonNode;

/**
 * Every error path of the OpenAI endpoint answers OpenAI's error document: the status, {@code type}, {@code code} and
 * {@code param} OpenAI gives for that failure, pagantic's code in {@code pagantic_code}, JSON even for 404 and 405,
 * and a message that names the request's field and never a Java class. The rows of docs/reliability.md's hostile-input
 * table come from this test.
 */
class OpenAiErrorModelTest {

    /** A Java class or package name, or a library's setting, in a message. */
    private static final Pattern JAVA_NAME = Pattern.compile("(?:java|javax|jakarta|tools\\.jackson|com\\.fasterxml|"
            + "org\\.eclipse|io\\.javalin|kotlin|dev\\.pagantic)\\.|Exception|StreamReadFeature|StreamReadConstraints|"
            + "\\.java:|[A-Z][a-z]+[A-Z][A-Za-z]*\\.[a-z]+\\(");

    private static TestServer api;

    @BeforeAll
    static void start() {
        api = TestServer.start(ScriptedEngine.replying("never used"));
    }

    @AfterAll
    static void stop() {
        api.close();
    }

    static Stream<Arguments> failures() {
        String deep = "[".repeat(2000) + "]".repeat(2000);
        return Stream.of(
                row("malformed JSON", post("{\"messages\": [", "application/json"), 400, "invalid_request_error",
                        null, null),
                row("nesting 2000 deep", post("{\"messages\":" + deep + "}", "application/json"), 400,
                        "invalid_request_error", null, null),
                row("text/plain body", post(chat("hi"), "text/plain"), 415, "invalid_request_error",
                        "unsupported_media_type", null),
                row("JSON in latin-1", post(chat("hi"), "application/json; charset=iso-8859-1"), 415,
                        "invalid_request_error", "unsupported_media_type", null),
                row("invalid UTF-8", HttpRequest.BodyPublishers.ofByteArray(new byte[] {'{', '"', (byte) 0xC3, '"',
                        ':', '1', '}'}), 400, "invalid_request_error", null, null),
                row("temperature 99", post(chat("hi", "\"temperature\":99"), "application/json"), 400,
                        "invalid_request_error", "decimal_above_max_value", "temperature"),
                row("presence_penalty -3", post(chat("hi", "\"presence_penalty\":-3"), "application/json"), 400,
                        "invalid_request_error", "decimal_below_min_value", "presence_penalty"),
                row("top_p 1.5", post(chat("hi", "\"top_p\":1.5"), "application/json"), 400,
                        "invalid_request_error", "decimal_above_max_value", "top_p"),
                row("temperature as text", post(chat("hi", "\"temperature\":\"hot\""), "application/json"), 400,
                        "invalid_request_error", "invalid_type", "temperature"),
                row("n 0", post(chat("hi", "\"n\":0"), "application/json"), 400, "invalid_request_error",
                        "integer_below_min_value", "n"),
                row("n 129", post(chat("hi", "\"n\":129"), "application/json"), 400, "invalid_request_error",
                        "integer_above_max_value", "n"),
                row("five stop sequences", post(chat("hi", "\"stop\":[\"a\",\"b\",\"c\",\"d\",\"e\"]"),
                        "application/json"), 400, "invalid_request_error", "array_above_max_length", "stop"),
                row("max_tokens 0", post(chat("hi", "\"max_tokens\":0"), "application/json"), 400,
                        "invalid_request_error", "integer_below_min_value", "max_tokens"),
                row("logprobs", post(chat("hi", "\"logprobs\":true"), "application/json"), 400,
                        "invalid_request_error", "unsupported_parameter", "logprobs"),
                row("logit_bias 101", post(chat("hi", "\"logit_bias\":{\"50256\":101}"), "application/json"), 400,
                        "invalid_request_error", "decimal_above_max_value", "logit_bias"),
                row("logit_bias key not a token id", post(chat("hi", "\"logit_bias\":{\"dog\":1}"),
                        "application/json"), 400, "invalid_request_error", "invalid_value", "logit_bias"),
                row("no messages", post("{\"model\":\"gpt-test\"}", "application/json"), 400,
                        "invalid_request_error", "missing_required_parameter", "messages"),
                row("unknown role", post("{\"messages\":[{\"role\":\"wizard\",\"content\":\"x\"}]}",
                        "application/json"), 400, "invalid_request_error", "invalid_value", "messages[0].role"),
                row("unknown model", post("{\"model\":\"nope\",\"messages\":[{\"role\":\"user\",\"content\":\"x\"}]}",
                        "application/json"), 404, "invalid_request_error", "model_not_found", null));
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("failures")
    void everyFailureOfTheChatEndpointIsOpenAisErrorDocument(String name, HttpRequest.BodyPublisher body,
                                                             int status, String type, String code, String param) {
        HttpResponse<String> response = api.send(api.request("/v1/chat/completions")
                .header("Content-Type", contentTypeOf(body)).POST(body).build());

        assertOpenAiError(response, status, type, code, param);
    }

    @ParameterizedTest(name = "{0} {1}")
    @MethodSource("routes")
    void unknownRoutesAndWrongMethodsAreJsonToo(String method, String path, int status, String code) {
        HttpResponse<String> response = api.send(api.request(path).method(method,
                HttpRequest.BodyPublishers.noBody()).build());

        assertOpenAiError(response, status, "invalid_request_error", code, null);
        if (status == 405) {
            assertThat(response.headers().firstValue("Allow")).isPresent();
        }
    }

    static Stream<Arguments> routes() {
        return Stream.of(Arguments.of("GET", "/v1/nope", 404, "unknown_url"),
                Arguments.of("POST", "/v1/completions", 404, "unknown_url"),
                Arguments.of("OPTIONS", "/v1/chat/completions", 405, "method_not_allowed"),
                Arguments.of("GET", "/v1/chat/completions", 405, "method_not_allowed"),
                Arguments.of("DELETE", "/v1/models", 405, "method_not_allowed"),
                Arguments.of("GET", "/v1/models/nope", 404, "model_not_found"));
    }

    private static void assertOpenAiError(HttpResponse<String> response, int status, String type, String code,
                                          String param) {
        assertThat(response.statusCode()).as(response.body()).isEqualTo(status);
        assertThat(response.headers().firstValue("Content-Type").orElse("")).startsWith("application/json");
        JsonNode error = json(response).path("error");
        assertThat(error.path("type").asString()).isEqualTo(type);
        if (code == null) {
            assertThat(error.path("code").isNull()).as(response.body()).isTrue();
        } else {
            assertThat(error.path("code").asString()).isEqualTo(code);
        }
        if (param == null) {
            assertThat(error.path("param").isNull()).as("param of " + response.body()).isTrue();
        } else {
            assertThat(error.path("param").asString()).isEqualTo(param);
        }
        assertThat(error.path("pagantic_code").asString()).matches("[A-Z_]+");
        assertThat(error.path("message").asString()).isNotBlank().doesNotContainPattern(JAVA_NAME);
        assertThat(response.body()).doesNotContainPattern(JAVA_NAME);
    }


    private static HttpRequest.BodyPublisher post(String body, String contentType) {
        return new Typed(HttpRequest.BodyPublishers.ofString(body), contentType);
    }

    private static String contentTypeOf(HttpRequest.BodyPublisher body) {
        return body instanceof Typed typed ? typed.contentType : "application/json";
    }

    private static Arguments row(String name, HttpRequest.BodyPublisher body, int status, String type, String code,
                                 String param) {
        return Arguments.of(name, body, status, type, code, param);
    }

    /** A body publisher that remembers the content type it is sent with. */
    private record Typed(HttpRequest.BodyPublisher delegate, String contentType) implements HttpRequest.BodyPublisher {
        @Override
        public long contentLength() {
            return delegate.contentLength();
        }

        @Override
        public void subscribe(java.util.concurrent.Flow.Subscriber<? super java.nio.ByteBuffer> subscriber) {
            delegate.subscribe(subscriber);
        }

        @Override
        public String toString() {
            return contentType;
        }
    }
}
