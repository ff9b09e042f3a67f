package dev.pagantic.tool;

import static dev.pagantic.tool.Failures.assertFailsWith;
import static dev.pagantic.tool.TestTools.call;
import static org.assertj.core.api.Assertions.assertThat;

import dev.pagantic.core.CallContext;
import dev.pagantic.core.Cancellation;
import dev.pagantic.core.ErrorCode;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

@Timeout(30)
class CancellationTest {

    private final RecordingObserver observer = new RecordingObserver();
    private final ToolExecutor executor = ToolExecutor.builder().observer(observer)
            .defaultTimeout(Duration.ofSeconds(20)).interruptGrace(Duration.ofSeconds(5)).build();

    @AfterEach
    void close() {
        executor.close();
    }

    @Test
    void theCallersCancellationPropagatesToTheRunningToolAndIsThrown() throws Exception {
        Cancellation cancellation = new Cancellation();
        CallContext ctx = CallContext.builder().cancellation(cancellation).build();
        CountDownLatch running = new CountDownLatch(1);
        AtomicBoolean toolSawCancellation = new AtomicBoolean();
        Tool slow = Tool.builder(TestTools.noArgs("slow")).handler((toolCtx, args) -> {
            running.countDown();
            try {
                toolCtx.sleep(Duration.ofMinutes(1));
            } finally {
                toolSawCancellation.set(toolCtx.isCancelled());
            }
            return "late";
        }).build();
        Thread canceller = new Thread(() -> {
            try {
                if (running.await(10, TimeUnit.SECONDS)) {
                    cancellation.cancel("user pressed stop");
                }
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
        });
        canceller.start();

        var failure = assertFailsWith(ErrorCode.CANCELLED_SIGNAL,
                () -> executor.execute(ctx, ToolRegistry.of(slow), call("c1", "slow", Map.of())));

        canceller.join();
        assertThat(failure.getMessage()).contains("user pressed stop");
        assertThat(toolSawCancellation).isTrue();
        assertThat(observer.ends).extracting(ToolEndEvent::errorCode).containsExactly("CANCELLED_SIGNAL");
        assertThat(executor.abandonedCount()).isZero();
    }

    @Test
    void cancellingATurnStopsEveryRunningToolAndEndsEveryStartedCall() throws Exception {
        Cancellation cancellation = new Cancellation();
        CallContext ctx = CallContext.builder().cancellation(cancellation).build();
        CountDownLatch bothRunning = new CountDownLatch(2);
        AtomicInteger interrupted = new AtomicInteger();
        Tool slow = Tool.builder(TestTools.noArgs("slow")).safety(ToolSafety.READ_ONLY).handler((toolCtx, args) -> {
            bothRunning.countDown();
            try {
                Thread.sleep(60_000);
            } catch (InterruptedException e) {
                interrupted.incrementAndGet();
                throw e;
            }
            return "late";
        }).build();
        Thread canceller = new Thread(() -> {
            try {
                if (bothRunning.await(10, TimeUnit.SECONDS)) {
                    cancellation.cancel();
                }
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
        });
        canceller.start();

        assertFailsWith(ErrorCode.CANCELLED_SIGNAL,
                () -> executor.executeAll(ctx, ToolRegistry.of(slow), List.of(call("slow"), call("slow"))));

        canceller.join();
        assertThat(interrupted).hasValue(2);
        assertThat(observer.starts).hasSize(2);
        assertThat(observer.ends).extracting(ToolEndEvent::errorCode)
                .containsExactly("CANCELLED_SIGNAL", "CANCELLED_SIGNAL");
    }

    @Test
    void theCallersDeadlineStopsTheToolAndIsThrownAsCancelledTimeout() {
        CallContext ctx = CallContext.builder().timeout(Duration.ofMillis(200)).build();
        AtomicBoolean interrupted = new AtomicBoolean();
        Tool slow = Tool.builder(TestTools.noArgs("slow")).handler((toolCtx, args) -> {
            try {
                Thread.sleep(60_000);
            } catch (InterruptedException e) {
                interrupted.set(true);
                throw e;
            }
            return "late";
        }).build();

        assertFailsWith(ErrorCode.CANCELLED_TIMEOUT,
                () -> executor.execute(ctx, ToolRegistry.of(slow), call("slow")));

        assertThat(interrupted).isTrue();
        assertThat(observer.ends).extracting(ToolEndEvent::errorCode).containsExactly("CANCELLED_TIMEOUT");
    }

    @Test
    void anAlreadyCancelledCallerRunsNothing() {
        Cancellation cancellation = new Cancellation();
        cancellation.cancel("gone");
        CallContext ctx = CallContext.builder().cancellation(cancellation).build();
        AtomicInteger runs = new AtomicInteger();
        Tool counting = Tool.builder(TestTools.noArgs("t")).handler((toolCtx, args) -> "" + runs.incrementAndGet())
                .build();

        assertFailsWith(ErrorCode.CANCELLED_SIGNAL,
                () -> executor.executeAll(ctx, ToolRegistry.of(counting), List.of(call("t"), call("t"))));

        assertThat(runs).hasValue(0);
        assertThat(observer.starts).isEmpty();
    }

    @Test
    void aToolsOwnTimeoutIsNotTheCallersCancellation() {
        CallContext ctx = CallContext.builder().timeout(Duration.ofSeconds(20)).build();
        Tool slow = Tool.builder(TestTools.noArgs("slow")).timeout(Duration.ofMillis(100)).handler((toolCtx, args) -> {
            toolCtx.sleep(Duration.ofMinutes(1));
            return "late";
        }).build();

        ToolExecution execution = executor.execute(ctx, ToolRegistry.of(slow), call("slow"));

        assertThat(execution.errorCode()).contains(ErrorCode.TOOL_TIMEOUT);
        assertThat(ctx.isDone()).isFalse();
    }
}
