package dev.pagantic.tool;

import static dev.pagantic.tool.TestTools.call;
import static dev.pagantic.tool.TestTools.returning;
import static dev.pagantic.tool.TestTools.stubborn;
import static org.assertj.core.api.Assertions.assertThat;

import dev.pagantic.core.CallContext;
import dev.pagantic.core.ErrorCode;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

@Timeout(30)
class ToolTimeoutTest {

    private final CountDownLatch release = new CountDownLatch(1);
    private final RecordingObserver observer = new RecordingObserver();
    private final ToolExecutor executor = ToolExecutor.builder()
            .defaultTimeout(Duration.ofMillis(200))
            .interruptGrace(Duration.ofMillis(50))
            .maxParallelism(2)
            .maxAbandoned(2)
            .observer(observer)
            .build();

    @AfterEach
    void releaseStubbornToolsAndClose() {
        release.countDown();
        executor.close();
    }

    /** Polls until the condition holds (hang guard: the class timeout). */
    private static void eventually(java.util.function.BooleanSupplier condition) throws InterruptedException {
        while (!condition.getAsBoolean()) {
            TimeUnit.MILLISECONDS.sleep(10);
        }
    }

    @Test
    void aCooperativeToolIsInterruptedAtItsTimeoutAndStops() throws Exception {
        AtomicBoolean interrupted = new AtomicBoolean();
        CountDownLatch stopped = new CountDownLatch(1);
        Tool slow = Tool.builder(TestTools.noArgs("slow")).handler((ctx, args) -> {
            try {
                Thread.sleep(60_000);
                return "late";
            } catch (InterruptedException e) {
                interrupted.set(true);
                throw e;
            } finally {
                stopped.countDown();
            }
        }).build();

        ToolExecution execution = executor.execute(ToolRegistry.of(slow), call("slow"));

        assertThat(execution.errorCode()).contains(ErrorCode.TOOL_TIMEOUT);
        assertThat(execution.result().content()).startsWith("TOOL_TIMEOUT: tool 'slow' did not finish within");
        assertThat(execution.retryable()).isFalse();
        assertThat(stopped.await(10, TimeUnit.SECONDS)).isTrue();
        assertThat(interrupted).isTrue();
        eventually(() -> executor.abandonedCount() == 0 && executor.runningCount() == 0);
        assertThat(executor.abandonedTotal()).isZero();
    }

    @Test
    void aToolWaitingOnItsContextIsCancelledAtItsTimeout() {
        AtomicBoolean sawCancellation = new AtomicBoolean();
        Tool polling = Tool.builder(TestTools.noArgs("polling")).safety(ToolSafety.READ_ONLY)
                .timeout(Duration.ofMillis(100)).handler((ctx, args) -> {
                    ctx.sleep(Duration.ofMinutes(1)); // ends with the deadline or the cancellation
                    return "late";
                }).build();
        Tool watcher = Tool.builder(TestTools.noArgs("watcher")).timeout(Duration.ofMillis(100))
                .handler((ctx, args) -> {
                    CountDownLatch cancelled = new CountDownLatch(1);
                    ctx.onCancel(cancelled::countDown);
                    TestTools.awaitUninterruptibly(cancelled); // ignores interrupts, honours its context
                    sawCancellation.set(true);
                    return "stopped";
                }).build();

        ToolExecution polled = executor.execute(ToolRegistry.of(polling), call("polling"));
        ToolExecution watched = executor.execute(ToolRegistry.of(watcher), call("watcher"));

        assertThat(polled.errorCode()).contains(ErrorCode.TOOL_TIMEOUT);
        assertThat(polled.retryable()).as("the tool is idempotent").isTrue();
        assertThat(watched.errorCode()).contains(ErrorCode.TOOL_TIMEOUT);
        assertThat(sawCancellation).isTrue();
    }

    @Test
    void aToolThatIgnoresInterruptionIsAbandonedAndCounted() throws Exception {
        ToolRegistry registry = ToolRegistry.of(stubborn("stuck", release), returning("calc", "42"));

        ToolExecution stuck = executor.execute(registry, call("stuck"));

        assertThat(stuck.errorCode()).contains(ErrorCode.TOOL_TIMEOUT);
        assertThat(executor.abandonedCount()).isEqualTo(1);
        assertThat(executor.abandonedTotal()).isEqualTo(1);
        assertThat(executor.runningCount()).isZero();
        assertThat(observer.ends).extracting(ToolEndEvent::errorCode).containsExactly("TOOL_TIMEOUT");

        ToolExecution next = executor.execute(registry, call("calc"));
        assertThat(next.result().content()).as("the executor keeps serving other calls").isEqualTo("42");

        release.countDown();
        eventually(() -> executor.abandonedCount() == 0);
        assertThat(executor.abandonedTotal()).isEqualTo(1);
    }

    @Test
    void abandonedThreadsDoNotTakeTheParallelCapacityOfLaterCalls() {
        executor.execute(ToolRegistry.of(stubborn("stuck", release)), call("stuck"));
        assertThat(executor.abandonedCount()).isEqualTo(1);
        CountDownLatch bothRunning = new CountDownLatch(2);
        ToolRegistry meeting = ToolRegistry.of(meeting("left", bothRunning), meeting("right", bothRunning));

        List<ToolExecution> turn = executor.executeAll(meeting, List.of(call("left"), call("right")));

        assertThat(turn).extracting(execution -> execution.result().content()).containsExactly("met", "met");
    }

    /** A parallel-safe tool that returns only once the other tool sharing the latch runs too. */
    private static Tool meeting(String name, CountDownLatch latch) {
        return Tool.builder(TestTools.noArgs(name)).safety(ToolSafety.READ_ONLY).timeout(Duration.ofSeconds(10))
                .handler((ctx, args) -> {
                    latch.countDown();
                    return latch.await(10, TimeUnit.SECONDS) ? "met" : "alone";
                }).build();
    }

    @Test
    void whenTheCapOfAbandonedThreadsIsReachedNewCallsFailFast() throws Exception {
        ToolRegistry registry = ToolRegistry.of(stubborn("stuck", release), returning("calc", "42"));
        executor.execute(registry, call("stuck"));
        executor.execute(registry, call("stuck"));
        assertThat(executor.abandonedCount()).isEqualTo(executor.maxAbandoned());

        ToolExecution refused = executor.execute(registry, call("calc"));

        assertThat(refused.errorCode()).contains(ErrorCode.TOOL_UNAVAILABLE);
        assertThat(refused.result().content()).contains("saturated").contains("cap 2");
        assertThat(refused.retryable()).isTrue();

        release.countDown();
        eventually(() -> executor.abandonedCount() == 0);
        assertThat(executor.execute(registry, call("calc")).result().content()).isEqualTo("42");
    }

    @Test
    void parallelCallsThatAllHangAreAllAbandonedAndTheTurnStillEnds() {
        Tool stuckA = Tool.builder(TestTools.noArgs("a")).safety(ToolSafety.READ_ONLY).handler((ctx, args) -> {
            TestTools.awaitUninterruptibly(release);
            return "a";
        }).build();
        Tool stuckB = Tool.builder(TestTools.noArgs("b")).safety(ToolSafety.READ_ONLY).handler((ctx, args) -> {
            TestTools.awaitUninterruptibly(release);
            return "b";
        }).build();

        List<ToolExecution> turn = executor.executeAll(CallContext.background(), ToolRegistry.of(stuckA, stuckB),
                List.of(call("a"), call("b")));

        assertThat(turn).extracting(execution -> execution.errorCode().orElseThrow())
                .containsExactly(ErrorCode.TOOL_TIMEOUT, ErrorCode.TOOL_TIMEOUT);
        assertThat(executor.abandonedCount()).isEqualTo(2);
    }

    @Test
    void threadsAbandonedBeyondTheCapKeepTheirSlotSoThePoolNeverOutgrowsItsSize() throws Exception {
        try (ToolExecutor small = ToolExecutor.builder().defaultTimeout(Duration.ofMillis(100))
                .interruptGrace(Duration.ofMillis(20)).maxParallelism(3).maxAbandoned(1).build()) {
            Tool stuck = Tool.builder(TestTools.noArgs("stuck")).safety(ToolSafety.READ_ONLY).handler((ctx, args) -> {
                TestTools.awaitUninterruptibly(release);
                return "late";
            }).build();
            ToolRegistry registry = ToolRegistry.of(stuck, returning("calc", "42"));

            List<ToolExecution> turn = small.executeAll(registry, List.of(call("stuck"), call("stuck"),
                    call("stuck")));

            assertThat(turn).allSatisfy(execution -> assertThat(execution.errorCode()).contains(ErrorCode.TOOL_TIMEOUT));
            assertThat(small.abandonedCount()).isEqualTo(3); // admitted together under the cap of 1
            assertThat(small.runningCount()).as("working slots held by the two abandoned beyond the cap").isEqualTo(2);
            assertThat(small.execute(registry, call("calc")).errorCode()).contains(ErrorCode.TOOL_UNAVAILABLE);

            release.countDown();
            eventually(() -> small.abandonedCount() == 0);
            assertThat(small.runningCount()).isZero();
            assertThat(small.execute(registry, call("calc")).result().content()).isEqualTo("42");
        }
    }
}
