package dev.pagantic.adapter.api;

import static dev.pagantic.adapter.api.TestServer.chat;
import static dev.pagantic.adapter.api.TestServer.json;
import static org.assertj.core.api.Assertions.assertThat;

import dev.pagantic.core.TokenUsage;
import dev.pagantic.inference.Result;
import dev.pagantic.testkit.ScriptedEngine;
import dev.pagantic.testkit.SlowEngine;
import java.io.BufferedReader;
import java.io.InputStream;
import java.io.InputStreamReader;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import tools.jackson.databind.JsonNode;

class ServerOperationsTest {

    @Test
    void theModelListIsInOpenAisFormatWithTheServedModel() {
        try (TestServer api = TestServer.start(ScriptedEngine.builder().build())) {
            JsonNode list = json(api.get("/v1/models"));

            assertThat(list.path("object").asString()).isEqualTo("list");
            JsonNode model = list.path("data").path(0);
            assertThat(model.path("id").asString()).isEqualTo("test-model");
            assertThat(model.path("object").asString()).isEqualTo("model");
            assertThat(model.path("owned_by").asString()).isEqualTo("pagantic");
            assertThat(api.get("/v1/models/test-model").statusCode()).isEqualTo(200);
            assertThat(api.get("/v1/models/gpt-5").statusCode()).isEqualTo(404);
        }
    }

    @Test
    void healthIsOkAndNeedsNoToken() {
        try (TestServer api = TestServer.start(ScriptedEngine.builder().build(), b -> b.bearerToken("s3cret"))) {
            HttpResponse<String> health = api.get("/health");

            assertThat(health.statusCode()).isEqualTo(200);
            assertThat(json(health).path("status").asString()).isEqualTo("ok");
        }
    }

    @Test
    void aConfiguredTokenIsRequiredOnEveryV1Endpoint() {
        try (TestServer api = TestServer.start(ScriptedEngine.replying("Welcome."), b -> b.bearerToken("s3cret"))) {
            HttpResponse<String> none = api.post("/v1/chat/completions", chat("hi"));
            HttpResponse<String> wrong = api.post("/v1/chat/completions", chat("hi"),
                    "Authorization", "Bearer guess");
            HttpResponse<String> modelsWithout = api.get("/v1/models");
            HttpResponse<String> right = api.post("/v1/chat/completions", chat("hi"),
                    "Authorization", "Bearer s3cret");

            for (HttpResponse<String> refused : new HttpResponse[] {none, wrong, modelsWithout}) {
                assertThat(refused.statusCode()).isEqualTo(401);
                assertThat(refused.headers().firstValue("WWW-Authenticate")).hasValue("Bearer");
                JsonNode error = json(refused).path("error");
                assertThat(error.path("type").asString()).isEqualTo("invalid_request_error");
                assertThat(error.path("message").asString()).contains("bearer token");
            }
            assertThat(right.statusCode()).isEqualTo(200);
            assertThat(json(right).path("choices").path(0).path("message").path("content").asString())
                    .isEqualTo("Welcome.");
        }
    }

    @Test
    void aBodyOverTheLimitIs413AndTooManyOrTooLongMessagesAre400() {
        ApiLimits limits = ApiLimits.DEFAULTS.withMaxBodyBytes(2_000).withMaxMessages(2).withMaxMessageChars(100);
        try (TestServer api = TestServer.start(ScriptedEngine.builder().build(), b -> b.limits(limits))) {
            HttpResponse<String> tooLarge = api.post("/v1/chat/completions", chat("x".repeat(3_000)));
            HttpResponse<String> tooMany = api.post("/v1/chat/completions", "{\"messages\":["
                    + "{\"role\":\"user\",\"content\":\"a\"},{\"role\":\"assistant\",\"content\":\"b\"},"
                    + "{\"role\":\"user\",\"content\":\"c\"}]}");
            HttpResponse<String> tooLong = api.post("/v1/chat/completions", chat("y".repeat(101)));
            HttpResponse<String> nativeTooLong = api.post("/v1/requests",
                    "{\"messages\":[{\"role\":\"user\",\"content\":\"" + "z".repeat(101) + "\"}]}");

            assertThat(tooLarge.statusCode()).isEqualTo(413);
            assertThat(json(tooLarge).path("error").path("message").asString()).contains("2000 bytes");
            assertThat(tooMany.statusCode()).isEqualTo(400);
            assertThat(json(tooMany).path("error").path("message").asString()).contains("too many messages");
            assertThat(tooLong.statusCode()).isEqualTo(400);
            assertThat(json(tooLong).path("error").path("message").asString()).contains("too long");
            assertThat(nativeTooLong.statusCode()).isEqualTo(400);
            assertThat(json(nativeTooLong).path("error").path("code").asString()).isEqualTo("CONFIG_INVALID");
        }
    }

    @Test
    void withoutAQueueARequestBeyondTheSlotsIsAnswered429AtOnce() throws Exception {
        CountDownLatch entered = new CountDownLatch(1);
        CountDownLatch release = new CountDownLatch(1);
        ScriptedEngine engine = ScriptedEngine.builder().replyWith(request -> {
            entered.countDown();
            await(release);
            return Result.of("Finally.", TokenUsage.of(3, 1));
        }).build();
        try (TestServer api = TestServer.start(engine, b -> b.maxConcurrentRequests(1).queueSize(0))) {
            CompletableFuture<HttpResponse<String>> first = api.postAsync("/v1/chat/completions", chat("one"));
            assertThat(entered.await(10, TimeUnit.SECONDS)).isTrue();

            HttpResponse<String> second = api.post("/v1/chat/completions", chat("two"));
            HttpResponse<String> nativeSecond = api.post("/v1/requests",
                    "{\"messages\":[{\"role\":\"user\",\"content\":\"three\"}]}");
            release.countDown();

            assertThat(second.statusCode()).isEqualTo(429);
            assertThat(second.headers().firstValue("Retry-After")).hasValue("1");
            assertThat(json(second).path("error").path("type").asString()).isEqualTo("requests");
            assertThat(json(second).path("error").path("code").asString()).isEqualTo("rate_limit_exceeded");
            assertThat(nativeSecond.statusCode()).isEqualTo(429);
            assertThat(json(nativeSecond).path("error").path("code").asString()).isEqualTo("INFERENCE_SATURATED");
            HttpResponse<String> firstResponse = first.get(10, TimeUnit.SECONDS);
            assertThat(firstResponse.statusCode()).isEqualTo(200);
            assertThat(json(firstResponse).path("choices").path(0).path("message").path("content").asString())
                    .isEqualTo("Finally.");
        }
    }

    @Test
    void aClientThatDisconnectsDuringAStreamCancelsItsRequest() throws Exception {
        String longAnswer = "word ".repeat(300).strip();
        SlowEngine engine = SlowEngine.builder().delegate(ScriptedEngine.replying(longAnswer))
                .delayPerToken(Duration.ofMillis(20)).build();
        try (TestServer api = TestServer.start(engine)) {
            HttpRequest request = api.request("/v1/chat/completions", "X-Request-Id", "req-gone-1")
                    .header("Content-Type", "application/json")
                    .POST(HttpRequest.BodyPublishers.ofString(chat("Talk for a long time.", "\"stream\":true")))
                    .build();
            HttpResponse<InputStream> response = api.http.send(request, HttpResponse.BodyHandlers.ofInputStream());
            assertThat(response.statusCode()).isEqualTo(200);
            try (BufferedReader reader = new BufferedReader(
                    new InputStreamReader(response.body(), StandardCharsets.UTF_8))) {
                int contentChunks = 0;
                while (contentChunks < 3) {
                    String line = reader.readLine();
                    assertThat(line).as("the stream ended early").isNotNull();
                    if (line.startsWith("data: ") && line.contains("word")) {
                        contentChunks++;
                    }
                }
            } // closing the body stream drops the connection

            JsonNode last = awaitLastTransition(api, "req-gone-1", Duration.ofSeconds(10));
            assertThat(last.path("data").path("to_state").asString()).isEqualTo("CANCELLED");
            assertThat(last.path("data").path("reason").asString()).contains("disconnected");
        }
    }

    @Test
    void closeLetsARequestInFlightFinishThenStops() throws Exception {
        SlowEngine engine = SlowEngine.builder()
                .delegate(ScriptedEngine.replying("one two three four five six seven eight nine ten"))
                .delayPerToken(Duration.ofMillis(50)).build();
        TestServer api = TestServer.start(engine);
        try {
            CompletableFuture<HttpResponse<String>> inFlight =
                    api.postAsync("/v1/chat/completions", chat("Count to ten."), "X-Request-Id", "req-drain-1");
            awaitEvent(api, "req-drain-1", "inference_start", Duration.ofSeconds(10));

            CompletableFuture<Void> closing = CompletableFuture.runAsync(api.server::close);
            awaitDraining(api);
            HttpResponse<String> refused = api.post("/v1/chat/completions", chat("Anyone there?"));

            HttpResponse<String> finished = inFlight.get(15, TimeUnit.SECONDS);
            closing.get(15, TimeUnit.SECONDS);
            assertThat(finished.statusCode()).isEqualTo(200);
            assertThat(json(finished).path("choices").path(0).path("message").path("content").asString())
                    .isEqualTo("one two three four five six seven eight nine ten");
            assertThat(refused.statusCode()).isEqualTo(503);
            assertThat(json(refused).path("error").path("message").asString()).contains("shutting down");
            assertThat(closing).isDone();
        } finally {
            api.close();
        }
    }

    @Test
    void aRequestThatRunsPastTheServersTimeoutIs408() {
        SlowEngine engine = SlowEngine.builder().delegate(ScriptedEngine.replying("late"))
                .initialDelay(Duration.ofSeconds(20)).build();
        try (TestServer api = TestServer.start(engine, b -> b.requestTimeout(Duration.ofMillis(200)))) {
            HttpResponse<String> response = api.post("/v1/chat/completions", chat("Quick!"));

            assertThat(response.statusCode()).isEqualTo(408);
            assertThat(json(response).path("error").path("pagantic_code").asString()).isEqualTo("CANCELLED_TIMEOUT");
        }
    }

    // -------------------------------------------------------------------------------------------------- helpers

    private static void await(CountDownLatch latch) {
        try {
            latch.await(10, TimeUnit.SECONDS);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    private static JsonNode awaitLastTransition(TestServer api, String requestId, Duration timeout)
            throws InterruptedException {
        long deadline = System.nanoTime() + timeout.toNanos();
        JsonNode last = null;
        while (System.nanoTime() < deadline) {
            HttpResponse<String> response = api.get("/v1/requests/" + requestId + "/events");
            if (response.statusCode() == 200) {
                for (JsonNode event : json(response).path("events")) {
                    if (event.path("action").asString().equals("lifecycle_transition")) {
                        last = event;
                    }
                }
                String state = last == null ? "" : last.path("data").path("to_state").asString();
                if (state.equals("CANCELLED") || state.equals("COMPLETE") || state.equals("ERROR")) {
                    return last;
                }
            }
            Thread.sleep(20);
        }
        throw new AssertionError("request " + requestId + " did not end within " + timeout + "; last: " + last);
    }

    private static void awaitEvent(TestServer api, String requestId, String action, Duration timeout)
            throws InterruptedException {
        long deadline = System.nanoTime() + timeout.toNanos();
        while (System.nanoTime() < deadline) {
            if (api.events.of(requestId).stream().anyMatch(e -> e.action().equals(action))) {
                return;
            }
            Thread.sleep(10);
        }
        throw new AssertionError("no " + action + " event for " + requestId + " within " + timeout);
    }

    private static void awaitDraining(TestServer api) throws InterruptedException {
        for (int i = 0; i < 500; i++) {
            if (api.get("/health").statusCode() == 503) {
                return;
            }
            Thread.sleep(10);
        }
        throw new AssertionError("the server never started draining");
    }
}
