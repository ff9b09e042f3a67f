package dev.pagantic.adapter.api;

import static dev.pagantic.adapter.api.TestServer.chat;
import static dev.pagantic.adapter.api.TestServer.json;
import static org.assertj.core.api.Assertions.assertThat;

import dev.pagantic.inference.Capability;
import dev.pagantic.testkit.ScriptedEngine;
import java.net.http.HttpResponse;
import java.util.concurrent.CompletableFuture;
import java.util.stream.Collectors;
import java.util.stream.IntStream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import tools.jackson.databind.JsonNode;

/**
 * Grammars too expensive for the decoder are refused through the server before they reach an engine, with a 400 and
 * {@code CONFIG_GRAMMAR_INVALID}, and the server's only inference slot is free for the next request at once. (How fast
 * is measured, not asserted: the timeouts only guard against a hang.)
 */
@Timeout(120)
class GrammarCostThroughTheServerTest {

    /** A {@code response_format} whose schema is an enum of 100,000 values: a body of about 690 KB, under the limit. */
    private static String hugeEnumFormat() {
        String values = IntStream.range(0, 100_000).mapToObj(i -> "\"v" + i + "\"").collect(Collectors.joining(","));
        return "\"response_format\":{\"type\":\"json_schema\",\"json_schema\":{\"name\":\"huge\",\"schema\":{"
                + "\"enum\":[" + values + "]}}}";
    }

    private static TestServer oneSlotServer(ScriptedEngine engine) {
        return TestServer.start(engine, server -> server.maxConcurrentRequests(1));
    }

    private static ScriptedEngine grammarEngine(String... replies) {
        ScriptedEngine.Builder engine = ScriptedEngine.builder().capabilities(Capability.GRAMMAR,
                Capability.STREAMING);
        for (String reply : replies) {
            engine.reply(reply);
        }
        return engine.build();
    }

    private static void assertGrammarRefused(HttpResponse<String> response) {
        assertThat(response.statusCode()).as(response.body()).isEqualTo(400);
        JsonNode error = json(response).path("error");
        assertThat(error.path("code").asString()).isEqualTo("invalid_value");
        assertThat(error.path("pagantic_code").asString()).isEqualTo("CONFIG_GRAMMAR_INVALID");
        assertThat(error.path("message").asString()).containsAnyOf("budget", "refused before decoding");
    }

    @Test
    void aHundredThousandValueEnumIsRefusedAndTheNextRequestIsAnswered() {
        ScriptedEngine engine = grammarEngine("Hello there.");
        try (TestServer api = oneSlotServer(engine)) {
            CompletableFuture<HttpResponse<String>> huge = api.postAsync("/v1/chat/completions",
                    chat("Pick one.", hugeEnumFormat()));
            CompletableFuture<HttpResponse<String>> other = api.postAsync("/v1/chat/completions", chat("Hi"));

            assertGrammarRefused(huge.join());
            assertThat(other.join().statusCode()).isEqualTo(200);
            assertThat(engine.callCount()).as("the refused request never reached the engine").isEqualTo(1);
        }
    }

    @Test
    void aNestedRepetitionPatternIsRefusedThroughResponseFormat() {
        ScriptedEngine engine = grammarEngine("Hello there.");
        try (TestServer api = oneSlotServer(engine)) {
            HttpResponse<String> nested = api.post("/v1/chat/completions", chat("Write a's.",
                    "\"response_format\":{\"type\":\"json_schema\",\"json_schema\":{\"name\":\"a\",\"schema\":{"
                            + "\"type\":\"string\",\"pattern\":\"^(a{0,1000}){0,1000}$\"}}}"));

            assertGrammarRefused(nested);
            assertThat(api.post("/v1/chat/completions", chat("Hi")).statusCode()).isEqualTo(200);
        }
    }

    @Test
    void aNestedRepetitionGrammarIsRefusedThroughTheNativeEndpoint() {
        ScriptedEngine engine = grammarEngine("Hello there.");
        try (TestServer api = oneSlotServer(engine)) {
            HttpResponse<String> nested = api.post("/v1/requests", "{\"mode\":\"chat\",\"messages\":[{\"role\":"
                    + "\"user\",\"content\":\"Write a's.\"}],\"output\":{\"grammar\":\"root ::= (\\\"a\\\"{0,1000})"
                    + "{0,1000}\"}}");

            assertThat(nested.statusCode()).as(nested.body()).isEqualTo(400);
            assertThat(nested.body()).contains("CONFIG_GRAMMAR_INVALID");
            assertThat(api.post("/v1/chat/completions", chat("Hi")).statusCode()).isEqualTo(200);
            assertThat(engine.callCount()).isEqualTo(1);
        }
    }
}
