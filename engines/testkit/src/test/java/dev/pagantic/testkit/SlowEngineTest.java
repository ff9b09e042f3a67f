package dev.pagantic.testkit;

import static dev.pagantic.testkit.Failures.failureOf;
import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assertions.assertTimeoutPreemptively;

import dev.pagantic.core.CallContext;
import dev.pagantic.core.Cancellation;
import dev.pagantic.core.ErrorCode;
import dev.pagantic.core.PaganticException;
import dev.pagantic.inference.Request;
import dev.pagantic.inference.Result;
import dev.pagantic.inference.StreamHandler;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import org.junit.jupiter.api.Test;

class SlowEngineTest {

    /** Far beyond any test's run time: a wait that is not cut short shows up as a hang guard failure. */
    private static final Duration FOREVER = Duration.ofMinutes(10);
    /** The hang guard: generous, because it must never fail a correct engine on a loaded machine. */
    private static final Duration HANG_GUARD = Duration.ofSeconds(10);

    private static PaganticException failureWithinHangGuard(SlowEngine engine, CallContext context,
                                                            StreamHandler handler) {
        return assertTimeoutPreemptively(HANG_GUARD, () -> failureOf(
                () -> engine.infer(context, Request.of("a b c"), handler)));
    }

    @Test
    void theInitialDelayPassesBeforeTheDelegateAnswers() {
        SlowEngine engine = SlowEngine.builder().initialDelay(Duration.ofMillis(150)).build();

        long start = System.nanoTime();
        Result result = engine.infer(Request.of("eventually"));

        assertThat(Duration.ofNanos(System.nanoTime() - start)).isGreaterThanOrEqualTo(Duration.ofMillis(150));
        assertThat(result.content()).isEqualTo("eventually");
    }

    @Test
    void everyStreamedTokenWaitsTheDelayPerTokenAndArrivesUnchanged() {
        SlowEngine engine = SlowEngine.builder().delayPerToken(Duration.ofMillis(40)).build();
        List<String> deltas = new CopyOnWriteArrayList<>();

        long start = System.nanoTime();
        Result result = engine.infer(CallContext.background(), Request.of("one two three"),
                StreamHandler.onContent(deltas::add));

        assertThat(Duration.ofNanos(System.nanoTime() - start)).isGreaterThanOrEqualTo(Duration.ofMillis(120));
        assertThat(deltas).containsExactly("one", " two", " three");
        assertThat(result.content()).isEqualTo("one two three");
    }

    @Test
    void theTwoArgumentInferAlsoWaitsPerToken() {
        SlowEngine engine = SlowEngine.builder().delayPerToken(Duration.ofMillis(40)).build();

        long start = System.nanoTime();
        engine.infer(Request.of("one two three"));

        assertThat(Duration.ofNanos(System.nanoTime() - start)).isGreaterThanOrEqualTo(Duration.ofMillis(120));
    }

    @Test
    void aCancellationFromAnotherThreadEndsTheWaitPromptly() throws InterruptedException {
        SlowEngine engine = SlowEngine.builder().initialDelay(FOREVER).build();
        Cancellation cancellation = new Cancellation();
        CallContext context = CallContext.builder().cancellation(cancellation).build();
        Thread canceller = new Thread(() -> {
            try {
                Thread.sleep(50);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
            cancellation.cancel("user pressed Ctrl-C");
        });
        canceller.start();

        PaganticException failure = failureWithinHangGuard(engine, context, StreamHandler.NOOP);

        canceller.join();
        assertThat(failure.code()).isEqualTo(ErrorCode.CANCELLED_SIGNAL);
        assertThat(failure.getMessage()).contains("user pressed Ctrl-C");
    }

    @Test
    void aDeadlineEndsTheInitialWaitWithCancelledTimeout() {
        SlowEngine engine = SlowEngine.builder().initialDelay(FOREVER).build();
        CallContext context = CallContext.builder().timeout(Duration.ofMillis(100)).build();

        assertThat(failureWithinHangGuard(engine, context, StreamHandler.NOOP).code())
                .isEqualTo(ErrorCode.CANCELLED_TIMEOUT);
    }

    @Test
    void aDeadlineEndsAPerTokenWaitBeforeTheTokenIsDelivered() {
        SlowEngine engine = SlowEngine.builder().delayPerToken(FOREVER).build();
        CallContext context = CallContext.builder().timeout(Duration.ofMillis(100)).build();
        List<String> deltas = new CopyOnWriteArrayList<>();

        PaganticException failure = failureWithinHangGuard(engine, context, StreamHandler.onContent(deltas::add));

        assertThat(failure.code()).isEqualTo(ErrorCode.CANCELLED_TIMEOUT);
        assertThat(deltas).isEmpty();
    }

    @Test
    void aClosedSlowEngineRefusesAtOnceWithoutWaiting() {
        ScriptedEngine delegate = ScriptedEngine.replying("unused");
        SlowEngine engine = SlowEngine.builder().delegate(delegate).initialDelay(FOREVER).build();

        engine.close();

        assertThat(failureWithinHangGuard(engine, CallContext.background(), StreamHandler.NOOP).code())
                .isEqualTo(ErrorCode.INFERENCE_ENGINE_CLOSED);
        assertThat(failureOf(() -> delegate.infer(Request.of("x"))).code())
                .isEqualTo(ErrorCode.INFERENCE_ENGINE_CLOSED);
    }

    @Test
    void failuresOfTheDelegatePassThrough() {
        SlowEngine engine = SlowEngine.builder().delegate(FailingEngine.builder().failAlways().build())
                .initialDelay(Duration.ofMillis(1)).build();

        assertThat(failureOf(() -> engine.infer(Request.of("x"))).code())
                .isEqualTo(ErrorCode.INFERENCE_ENGINE_ERROR);
    }

    @Test
    void negativeOrMissingDelaysAreRefusedAtBuild() {
        assertThat(failureOf(() -> SlowEngine.builder().initialDelay(Duration.ofMillis(-1)).build()).code()).isEqualTo(ErrorCode.CONFIG_INVALID);
        assertThat(failureOf(() -> SlowEngine.builder().delayPerToken(null).build()).code()).isEqualTo(ErrorCode.CONFIG_INVALID);
    }
}
