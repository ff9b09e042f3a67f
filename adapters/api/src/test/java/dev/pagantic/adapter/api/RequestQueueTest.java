package dev.pagantic.adapter.api;

import static dev.pagantic.adapter.api.TestServer.chat;
import static dev.pagantic.adapter.api.TestServer.json;
import static org.assertj.core.api.Assertions.assertThat;

import dev.pagantic.core.Message;
import dev.pagantic.core.TokenUsage;
import dev.pagantic.inference.Result;
import dev.pagantic.testkit.ScriptedEngine;
import java.io.OutputStream;
import java.net.Socket;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.Semaphore;
import java.util.concurrent.TimeUnit;
import java.util.function.BooleanSupplier;
import org.junit.jupiter.api.Test;
import tools.jackson.databind.JsonNode;

/**
 * The bounded FIFO queue in front of the slots, through HTTP: requests beyond the slots wait in arrival order rather
 * than being refused, and only a full queue or a wait past the timeout is 429. The engine holds every call until the
 * test releases one, so that which request reaches a slot next is decided by the queue alone.
 */
class RequestQueueTest {

    private static final int REQUESTS = 50;
    private static final int SLOTS = 8;

    /** An engine whose every call records its user message and then waits for a permit. */
    private static final class GatedEngine {
        final List<String> entered = new CopyOnWriteArrayList<>();
        final Semaphore gate = new Semaphore(0);
        final ScriptedEngine engine;

        GatedEngine(int calls) {
            ScriptedEngine.Builder builder = ScriptedEngine.builder();
            for (int i = 0; i < calls; i++) {
                builder.replyWith(request -> {
                    List<Message> messages = request.messages();
                    String message = messages.get(messages.size() - 1).content();
                    entered.add(message);
                    gate.acquireUninterruptibly();
                    return Result.of("answer to " + message, TokenUsage.of(3, 3));
                });
            }
            engine = builder.build();
        }
    }

    @Test
    void fiftyConcurrentRequestsOnEightSlotsWithAQueueOf64AreAllAnsweredInArrivalOrder() throws Exception {
        GatedEngine gated = new GatedEngine(REQUESTS);
        try (TestServer api = TestServer.start(gated.engine, b -> b.maxConcurrentRequests(SLOTS).queueSize(64))) {
            List<CompletableFuture<HttpResponse<String>>> responses = new ArrayList<>();
            for (int i = 0; i < REQUESTS; i++) {
                responses.add(api.postAsync("/v1/chat/completions", chat("request " + i)));
                int sent = i + 1;
                // Each request is sent once the one before it has arrived: on a slot, or in the queue.
                awaitTrue(() -> gated.entered.size() + waiting(api) == sent);
            }
            assertThat(gated.entered).hasSize(SLOTS);
            JsonNode queue = json(api.get("/health")).path("queue");
            assertThat(queue.path("waiting").asInt()).isEqualTo(REQUESTS - SLOTS);
            assertThat(queue.path("running").asInt()).isEqualTo(SLOTS);

            for (int done = 0; done < REQUESTS; done++) {
                int before = gated.entered.size();
                gated.gate.release(); // one call ends, one slot frees, and the head of the queue takes it
                if (before < REQUESTS) {
                    awaitTrue(() -> gated.entered.size() == before + 1);
                }
            }

            List<String> expected = new ArrayList<>();
            for (int i = 0; i < REQUESTS; i++) {
                expected.add("request " + i);
            }
            assertThat(gated.entered).as("the order in which requests reached a slot").isEqualTo(expected);
            for (int i = 0; i < REQUESTS; i++) {
                HttpResponse<String> response = responses.get(i).get(30, TimeUnit.SECONDS);
                assertThat(response.statusCode()).as(response.body()).isEqualTo(200);
                assertThat(json(response).path("choices").path(0).path("message").path("content").asString())
                        .isEqualTo("answer to request " + i);
            }
            JsonNode after = json(api.get("/health")).path("queue");
            assertThat(after.path("admitted").asInt()).isEqualTo(REQUESTS);
            assertThat(after.path("refused").asInt()).isZero();
            assertThat(after.path("wait_ms_max").asLong()).isPositive();
        }
    }

    @Test
    void aRequestThatFindsTheQueueFullIs429WithRetryAfterAndTheOthersStillRun() throws Exception {
        GatedEngine gated = new GatedEngine(2);
        try (TestServer api = TestServer.start(gated.engine, b -> b.maxConcurrentRequests(1).queueSize(1))) {
            CompletableFuture<HttpResponse<String>> running = api.postAsync("/v1/chat/completions", chat("first"));
            awaitTrue(() -> gated.entered.size() == 1);
            CompletableFuture<HttpResponse<String>> queued = api.postAsync("/v1/chat/completions", chat("second"));
            awaitTrue(() -> waiting(api) == 1);

            HttpResponse<String> refused = api.post("/v1/chat/completions", chat("third"));

            assertThat(refused.statusCode()).isEqualTo(429);
            assertThat(refused.headers().firstValue("Retry-After")).hasValue("1");
            JsonNode error = json(refused).path("error");
            assertThat(error.path("type").asString()).isEqualTo("requests");
            assertThat(error.path("code").asString()).isEqualTo("rate_limit_exceeded");
            assertThat(error.path("pagantic_code").asString()).isEqualTo("INFERENCE_SATURATED");
            gated.gate.release(2);
            assertThat(running.get(10, TimeUnit.SECONDS).statusCode()).isEqualTo(200);
            assertThat(queued.get(10, TimeUnit.SECONDS).statusCode()).isEqualTo(200);
            assertThat(metrics(api)).contains("pagantic_requests_refused_total 1", "pagantic_requests_admitted_total 2");
        }
    }

    @Test
    void aRequestThatWaitsPastTheQueueTimeoutIs429() throws Exception {
        GatedEngine gated = new GatedEngine(1);
        try (TestServer api = TestServer.start(gated.engine,
                b -> b.maxConcurrentRequests(1).queueTimeout(Duration.ofMillis(200)))) {
            CompletableFuture<HttpResponse<String>> running = api.postAsync("/v1/chat/completions", chat("first"));
            awaitTrue(() -> gated.entered.size() == 1);

            HttpResponse<String> timedOut = api.post("/v1/chat/completions", chat("second"));

            assertThat(timedOut.statusCode()).isEqualTo(429);
            assertThat(timedOut.headers().firstValue("Retry-After")).hasValue("1");
            assertThat(json(timedOut).path("error").path("message").asString()).contains("queue timeout");
            gated.gate.release();
            assertThat(running.get(10, TimeUnit.SECONDS).statusCode()).isEqualTo(200);
        }
    }

    @Test
    void aQueuedRequestWhoseClientDisconnectsLeavesTheQueueAndNeverRuns() throws Exception {
        GatedEngine gated = new GatedEngine(2);
        try (TestServer api = TestServer.start(gated.engine, b -> b.maxConcurrentRequests(1))) {
            CompletableFuture<HttpResponse<String>> running = api.postAsync("/v1/chat/completions", chat("first"));
            awaitTrue(() -> gated.entered.size() == 1);
            String body = chat("abandoned");
            try (Socket socket = new Socket("127.0.0.1", api.server.port())) {
                OutputStream out = socket.getOutputStream();
                out.write(("POST /v1/chat/completions HTTP/1.1\r\nHost: localhost\r\nContent-Type: application/json"
                        + "\r\nContent-Length: " + body.getBytes(StandardCharsets.UTF_8).length + "\r\n\r\n" + body)
                        .getBytes(StandardCharsets.UTF_8));
                out.flush();
                awaitTrue(() -> waiting(api) == 1);
            }

            awaitTrue(() -> waiting(api) == 0);
            gated.gate.release();
            assertThat(running.get(10, TimeUnit.SECONDS).statusCode()).isEqualTo(200);
            assertThat(gated.entered).containsExactly("first");
            assertThat(json(api.get("/health")).path("queue").path("refused").asInt()).isEqualTo(1);
        }
    }

    @Test
    void healthAndMetricsReportTheQueue() {
        try (TestServer api = TestServer.start(ScriptedEngine.replying("hi"),
                b -> b.maxConcurrentRequests(3).queueSize(7))) {
            assertThat(api.post("/v1/chat/completions", chat("hi")).statusCode()).isEqualTo(200);

            JsonNode queue = json(api.get("/health")).path("queue");
            assertThat(queue.path("slots").asInt()).isEqualTo(3);
            assertThat(queue.path("capacity").asInt()).isEqualTo(7);
            assertThat(queue.path("admitted").asInt()).isEqualTo(1);
            HttpResponse<String> metrics = api.get("/metrics");
            assertThat(metrics.headers().firstValue("Content-Type").orElse("")).startsWith("text/plain");
            assertThat(metrics.body()).contains("pagantic_requests_processing 0", "pagantic_requests_deferred 0",
                    "pagantic_requests_admitted_total 1", "# TYPE pagantic_queue_wait_seconds_total counter");
        }
    }

    private static int waiting(TestServer api) {
        return json(api.get("/health")).path("queue").path("waiting").asInt();
    }

    private static String metrics(TestServer api) {
        return api.get("/metrics").body();
    }

    /** Polls until the condition holds; a generous hang guard, never a timing assertion. */
    private static void awaitTrue(BooleanSupplier condition) throws InterruptedException {
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(30);
        while (!condition.getAsBoolean()) {
            if (System.nanoTime() > deadline) {
                throw new AssertionError("the condition did not hold within 30 s");
            }
            Thread.sleep(5);
        }
    }
}
