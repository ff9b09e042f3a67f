package dev.pagantic.engine.openai;

import static dev.pagantic.engine.openai.TestEngines.HANG_GUARD;
import static dev.pagantic.engine.openai.TestEngines.failure;
import static dev.pagantic.engine.openai.TestEngines.on;
import static org.assertj.core.api.Assertions.assertThat;

import dev.pagantic.core.CallContext;
import dev.pagantic.core.Cancellation;
import dev.pagantic.core.ErrorCode;
import dev.pagantic.core.PaganticException;
import dev.pagantic.inference.Request;
import dev.pagantic.inference.StreamHandler;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.stream.Collectors;
import java.util.stream.IntStream;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

class CancellationTest {

    /** About 10 s of stream unless stopped; the tests stop it within a few tokens. */
    private static final StubModel LONG_STREAM = StubModel.says(IntStream.rangeClosed(1, 500)
            .mapToObj(Integer::toString).collect(Collectors.joining(" "))).pausing(Duration.ofMillis(20));

    private StubServer server;

    @AfterEach
    void stop() {
        if (server != null) {
            server.close();
        }
    }

    @Test
    void cancellingFromAnotherThreadMidStreamEndsTheCallAndClosesTheConnection() throws Exception {
        server = StubServer.answering(LONG_STREAM);
        Cancellation cancellation = new Cancellation();
        CallContext context = CallContext.builder().cancellation(cancellation).build();
        CountDownLatch streaming = new CountDownLatch(3);
        AtomicInteger deltas = new AtomicInteger();
        try (OpenAiCompatibleEngine engine = on(server).build()) {
            CompletableFuture<PaganticException> call = CompletableFuture.supplyAsync(() -> failure(() ->
                    engine.infer(context, Request.of("count"), StreamHandler.onContent(delta -> {
                        deltas.incrementAndGet();
                        streaming.countDown();
                    }))));
            assertThat(streaming.await(HANG_GUARD.toMillis(), TimeUnit.MILLISECONDS)).isTrue();
            // the generating thread is now (most likely) blocked reading the next chunk
            cancellation.cancel("user pressed Ctrl-C");

            PaganticException failure = call.get(HANG_GUARD.toMillis(), TimeUnit.MILLISECONDS);
            assertThat(failure.code()).isEqualTo(ErrorCode.CANCELLED_SIGNAL);
            assertThat(failure.getMessage()).contains("user pressed Ctrl-C");
            assertThat(failure.details()).containsKey("endpoint");
            assertThat(deltas.get()).isLessThan(500);
        }
        assertThat(server.awaitClientGone(HANG_GUARD)).as("the server sees the connection closed").isTrue();
    }

    @Test
    void cancellingWhileTheStreamStallsUnblocksTheReadAndEndsTheCall() throws Exception {
        server = StubServer.answering(StubServer.sse(Duration.ZERO, List.of("data: " + Wire.contentChunk("Hel")
                + "\n\n")).thenStall(Duration.ofSeconds(30)));
        Cancellation cancellation = new Cancellation();
        CallContext context = CallContext.builder().cancellation(cancellation).build();
        CountDownLatch firstDelta = new CountDownLatch(1);
        try (OpenAiCompatibleEngine engine = on(server).build()) {
            CompletableFuture<PaganticException> call = CompletableFuture.supplyAsync(() -> failure(() ->
                    engine.infer(context, Request.of("hi"), StreamHandler.onContent(delta -> firstDelta.countDown()))));
            assertThat(firstDelta.await(HANG_GUARD.toMillis(), TimeUnit.MILLISECONDS)).isTrue();
            cancellation.cancel(); // nothing more arrives for 30 s: only closing the connection can end the read

            assertThat(call.get(HANG_GUARD.toMillis(), TimeUnit.MILLISECONDS).code())
                    .isEqualTo(ErrorCode.CANCELLED_SIGNAL);
        }
    }

    @Test
    void interruptingTheCallingThreadWhileItWaitsForTheAnswerEndsTheCallWithCancelledSignal() throws Exception {
        server = StubServer.answering(StubServer.delayed(Duration.ofSeconds(30), StubServer.json(200,
                Wire.completion("late", "stop", 1, 1))));
        CompletableFuture<Throwable> outcome = new CompletableFuture<>();
        try (OpenAiCompatibleEngine engine = on(server).build()) {
            Thread caller = new Thread(() -> {
                try {
                    engine.infer(Request.of("hi"));
                    outcome.complete(null);
                } catch (RuntimeException failure) {
                    outcome.complete(failure);
                }
            }, "interrupted-caller");
            caller.setDaemon(true);
            caller.start();
            awaitRequest();
            caller.interrupt();

            Throwable failure = outcome.get(HANG_GUARD.toMillis(), TimeUnit.MILLISECONDS);
            assertThat(failure).isInstanceOfSatisfying(PaganticException.class,
                    e -> assertThat(e.code()).isEqualTo(ErrorCode.CANCELLED_SIGNAL));
            caller.join(HANG_GUARD.toMillis());
        }
    }

    @Test
    void cancellingWhileWaitingForAnUnstreamedAnswerEndsTheCall() throws Exception {
        server = StubServer.answering(StubServer.delayed(Duration.ofSeconds(30), StubServer.json(200,
                Wire.completion("late", "stop", 1, 1))));
        Cancellation cancellation = new Cancellation();
        CallContext context = CallContext.builder().cancellation(cancellation).build();
        try (OpenAiCompatibleEngine engine = on(server).build()) {
            CompletableFuture<PaganticException> call = CompletableFuture.supplyAsync(() -> failure(() ->
                    engine.infer(context, Request.of("hi"))));
            awaitRequest();
            cancellation.cancel();

            assertThat(call.get(HANG_GUARD.toMillis(), TimeUnit.MILLISECONDS).code())
                    .isEqualTo(ErrorCode.CANCELLED_SIGNAL);
        }
    }

    @Test
    void aDeadlinePassingMidStreamEndsTheCallWithCancelledTimeout() throws InterruptedException {
        server = StubServer.answering(LONG_STREAM);
        AtomicInteger deltas = new AtomicInteger();
        try (OpenAiCompatibleEngine engine = on(server).build()) {
            CallContext context = CallContext.builder().timeout(Duration.ofMillis(300)).build();
            PaganticException failure = failure(() -> engine.infer(context, Request.of("count"),
                    StreamHandler.onContent(delta -> deltas.incrementAndGet())));

            assertThat(failure.code()).isEqualTo(ErrorCode.CANCELLED_TIMEOUT);
            assertThat(failure.details()).containsKeys("deadline", "endpoint");
            assertThat(deltas.get()).isLessThan(500);
        }
        assertThat(server.awaitClientGone(HANG_GUARD)).as("the server sees the connection closed").isTrue();
    }

    @Test
    void aDeadlinePassingWhileTheStreamStallsEndsTheCallWithCancelledTimeout() {
        server = StubServer.answering(StubServer.sse(Duration.ZERO, List.of("data: " + Wire.contentChunk("Hel")
                + "\n\n")).thenStall(Duration.ofSeconds(30)));
        try (OpenAiCompatibleEngine engine = on(server).build()) {
            CallContext context = CallContext.builder().timeout(Duration.ofMillis(300)).build();

            assertThat(failure(() -> engine.infer(context, Request.of("hi"), StreamHandler.NOOP)).code())
                    .isEqualTo(ErrorCode.CANCELLED_TIMEOUT);
        }
    }

    @Test
    void aDeadlinePassingBeforeTheHeadersArriveEndsTheCallWithCancelledTimeout() {
        server = StubServer.answering(StubServer.delayed(Duration.ofSeconds(30), StubServer.json(200,
                Wire.completion("late", "stop", 1, 1))));
        try (OpenAiCompatibleEngine engine = on(server).build()) {
            CallContext context = CallContext.builder().timeout(Duration.ofMillis(200)).build();

            assertThat(failure(() -> engine.infer(context, Request.of("hi"))).code())
                    .isEqualTo(ErrorCode.CANCELLED_TIMEOUT);
        }
    }

    @Test
    void theEnginesRequestTimeoutEndsAHungCallWithARetryableEngineError() {
        server = StubServer.answering(StubServer.delayed(Duration.ofSeconds(30), StubServer.json(200,
                Wire.completion("late", "stop", 1, 1))));
        try (OpenAiCompatibleEngine engine = on(server).requestTimeout(Duration.ofMillis(200)).build()) {
            PaganticException failure = failure(() -> engine.infer(Request.of("hi")));

            assertThat(failure.code()).isEqualTo(ErrorCode.INFERENCE_ENGINE_ERROR);
            assertThat(failure.retryable()).isTrue();
            assertThat(failure.details()).containsEntry("timeout_ms", 200L);
        }
    }

    @Test
    void theEarlierOfDeadlineAndRequestTimeoutWins() {
        server = StubServer.answering(LONG_STREAM);
        try (OpenAiCompatibleEngine engine = on(server).requestTimeout(Duration.ofMinutes(5)).build()) {
            CallContext context = CallContext.builder().timeout(Duration.ofMillis(200)).build();

            assertThat(failure(() -> engine.infer(context, Request.of("count"), StreamHandler.NOOP)).code())
                    .isEqualTo(ErrorCode.CANCELLED_TIMEOUT);
        }
    }

    @Test
    void aClosedEngineRefusesCallsWithoutSendingThem() {
        server = StubServer.answering(StubModel.says("hi"));
        OpenAiCompatibleEngine engine = on(server).build();
        engine.close();
        engine.close();

        PaganticException failure = failure(() -> engine.infer(Request.of("hi")));
        assertThat(failure.code()).isEqualTo(ErrorCode.INFERENCE_ENGINE_CLOSED);
        assertThat(failure(() -> engine.infer(CallContext.background(), Request.of("hi"), StreamHandler.NOOP))
                .code()).isEqualTo(ErrorCode.INFERENCE_ENGINE_CLOSED);
        assertThat(server.requests()).isEmpty();
    }

    @Test
    void closingTheEngineEndsACallInFlight() throws Exception {
        server = StubServer.answering(LONG_STREAM);
        CountDownLatch streaming = new CountDownLatch(1);
        OpenAiCompatibleEngine engine = on(server).build();
        CompletableFuture<PaganticException> call = CompletableFuture.supplyAsync(() -> failure(() ->
                engine.infer(CallContext.background(), Request.of("count"),
                        StreamHandler.onContent(delta -> streaming.countDown()))));
        assertThat(streaming.await(HANG_GUARD.toMillis(), TimeUnit.MILLISECONDS)).isTrue();

        engine.close();

        assertThat(call.get(HANG_GUARD.toMillis(), TimeUnit.MILLISECONDS).code())
                .isEqualTo(ErrorCode.INFERENCE_ENGINE_CLOSED);
        assertThat(server.awaitClientGone(HANG_GUARD)).isTrue();
    }

    private void awaitRequest() throws InterruptedException {
        long until = System.nanoTime() + HANG_GUARD.toNanos();
        while (server.requests().isEmpty() && System.nanoTime() < until) {
            Thread.sleep(10);
        }
        assertThat(server.requests()).isNotEmpty();
    }
}
