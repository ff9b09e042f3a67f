package dev.pagantic.engine.openai;

import static dev.pagantic.engine.openai.TestEngines.HANG_GUARD;
import static dev.pagantic.engine.openai.TestEngines.on;
import static org.assertj.core.api.Assertions.assertThat;

import dev.pagantic.core.CallContext;
import dev.pagantic.inference.Request;
import dev.pagantic.inference.Result;
import dev.pagantic.inference.StreamHandler;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.ForkJoinPool;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * A call made while every thread of the common pool is busy still gets its answer. Since Java 25 the JDK's HttpClient
 * completes a {@code sendAsync} future on the common pool, so an engine that waited for that future would hang there
 * (the suite runs on Java 17 and on Java 25, see .ci/run).
 */
class BusyCommonPoolTest {

    private final CountDownLatch release = new CountDownLatch(1);
    private final List<CompletableFuture<Void>> blockers = new ArrayList<>();
    private final ExecutorService caller = Executors.newSingleThreadExecutor();
    private StubServer server;

    @BeforeEach
    void occupyTheCommonPool() throws InterruptedException {
        int workers = ForkJoinPool.getCommonPoolParallelism();
        CountDownLatch busy = new CountDownLatch(workers);
        for (int i = 0; i < workers; i++) {
            blockers.add(CompletableFuture.runAsync(() -> {
                busy.countDown();
                awaitRelease();
            }, ForkJoinPool.commonPool()));
        }
        assertThat(busy.await(HANG_GUARD.toMillis(), TimeUnit.MILLISECONDS)).isTrue();
    }

    private void awaitRelease() {
        try {
            release.await();
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    @AfterEach
    void free() {
        release.countDown();
        caller.shutdownNow();
        if (server != null) {
            server.close();
        }
    }

    @Test
    void aWholeAnswerArrives() throws Exception {
        server = StubServer.answering(StubModel.says("hello there"));
        try (OpenAiCompatibleEngine engine = on(server).build()) {
            Future<Result> call = caller.submit(() -> engine.infer(Request.of("hi")));

            assertThat(call.get(HANG_GUARD.toMillis(), TimeUnit.MILLISECONDS).content()).isEqualTo("hello there");
        }
    }

    @Test
    void aStreamedAnswerArrives() throws Exception {
        server = StubServer.answering(StubModel.says("hello there"));
        try (OpenAiCompatibleEngine engine = on(server).build()) {
            StringBuilder streamed = new StringBuilder();
            Future<Result> call = caller.submit(() -> engine.infer(CallContext.background(),
                    Request.of("hi"), StreamHandler.onContent(streamed::append)));

            assertThat(call.get(HANG_GUARD.toMillis(), TimeUnit.MILLISECONDS).content()).isEqualTo("hello there");
            assertThat(streamed).hasToString("hello there");
        }
    }

    @Test
    void consecutiveCallsKeepUsingOneConnection() throws Exception {
        // The call returns before the sendAsync future completes (it waits for the busy pool); releasing the call
        // once cancelled that future, which closed the connection already back in the client's pool, under the next
        // request that took it ("header parser received no bytes" from a healthy server).
        server = StubServer.answering(StubModel.says("again"));
        try (OpenAiCompatibleEngine engine = on(server).build()) {
            for (int i = 0; i < 5; i++) {
                Future<Result> call = caller.submit(() -> engine.infer(Request.of("hi")));
                assertThat(call.get(HANG_GUARD.toMillis(), TimeUnit.MILLISECONDS).content()).isEqualTo("again");
            }

            assertThat(server.connections()).as("connections that 5 calls in a row used").isEqualTo(1);
        }
    }

    @Test
    void aServerErrorArrives() throws Exception {
        server = StubServer.answering(StubServer.error(500, "boom"));
        try (OpenAiCompatibleEngine engine = on(server).build()) {
            Future<Throwable> call = caller.submit(() -> {
                try {
                    engine.infer(Request.of("hi"));
                    return null;
                } catch (RuntimeException failed) {
                    return failed;
                }
            });

            assertThat(call.get(HANG_GUARD.toMillis(), TimeUnit.MILLISECONDS)).isNotNull();
        }
    }
}
