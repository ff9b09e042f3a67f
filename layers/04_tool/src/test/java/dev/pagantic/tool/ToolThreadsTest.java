package dev.pagantic.tool;

import static dev.pagantic.tool.TestTools.call;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.pagantic.core.ErrorCode;
import dev.pagantic.core.PaganticException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * Which threads isolated tools run on: virtual threads where the JVM offers them (Java 21+), platform daemon threads
 * otherwise or when asked. The build runs this class on Java 17 and on Java 25 (see .ci/run), so both paths are taken.
 */
@Timeout(30)
class ToolThreadsTest {

    private static final boolean JVM_HAS_VIRTUAL_THREADS = Runtime.version().feature() >= 21;

    /** Thread.isVirtual() of Java 21, called by reflection since the tests compile for Java 17. */
    private static boolean isVirtual(Thread thread) throws ReflectiveOperationException {
        return JVM_HAS_VIRTUAL_THREADS && (boolean) Thread.class.getMethod("isVirtual").invoke(thread);
    }

    private static Thread threadOfOneCall(ToolExecutor executor) {
        AtomicReference<Thread> ran = new AtomicReference<>();
        Tool tool = Tool.builder(TestTools.noArgs("where")).handler((ctx, args) -> {
            ran.set(Thread.currentThread());
            return "here";
        }).build();
        ToolExecution execution = executor.execute(ToolRegistry.of(tool), call("where"));
        assertThat(execution.succeeded()).isTrue();
        return ran.get();
    }

    @Test
    void isolatedToolsRunOnVirtualThreadsExactlyWhenTheJvmOffersThem() throws Exception {
        try (ToolExecutor executor = ToolExecutor.builder().threadNamePrefix("probe").build()) {
            Thread thread = threadOfOneCall(executor);

            assertThat(executor.usesVirtualThreads()).isEqualTo(JVM_HAS_VIRTUAL_THREADS);
            assertThat(isVirtual(thread)).isEqualTo(JVM_HAS_VIRTUAL_THREADS);
            assertThat(thread).isNotSameAs(Thread.currentThread());
            assertThat(thread.getName()).startsWith("probe-");
            assertThat(executor.toString()).contains("virtualThreads=" + JVM_HAS_VIRTUAL_THREADS);
        }
    }

    @Test
    void platformThreadsCanBeChosenOnEveryJvm() throws Exception {
        try (ToolExecutor executor = ToolExecutor.builder().virtualThreads(false).threadNamePrefix("pool").build()) {
            Thread thread = threadOfOneCall(executor);

            assertThat(executor.usesVirtualThreads()).isFalse();
            assertThat(isVirtual(thread)).isFalse();
            assertThat(thread.isDaemon()).as("an abandoned tool must not keep the JVM alive").isTrue();
            assertThat(thread.getName()).startsWith("pool-");
        }
    }

    @Test
    void aStuckToolIsAbandonedOnEitherKindOfThread() throws Exception {
        for (boolean virtual : List.of(true, false)) {
            CountDownLatch release = new CountDownLatch(1);
            try (ToolExecutor executor = ToolExecutor.builder().virtualThreads(virtual)
                    .defaultTimeout(Duration.ofMillis(100)).interruptGrace(Duration.ofMillis(20)).build()) {
                ToolExecution execution = executor.execute(ToolRegistry.of(TestTools.stubborn("stuck", release)),
                        call("stuck"));

                assertThat(execution.errorCode()).as("virtual threads: " + virtual).contains(ErrorCode.TOOL_TIMEOUT);
                assertThat(executor.abandonedCount()).isEqualTo(1);
            } finally {
                release.countDown();
            }
        }
    }

    @Test
    void manyQuickCallsInARowEachGetTheirOwnOutcome() {
        try (ToolExecutor executor = ToolExecutor.create()) {
            Tool echo = Tool.builder(TestTools.noArgs("echo")).handler((ctx, args) -> Thread.currentThread().getName())
                    .build();
            List<String> outputs = new ArrayList<>();
            for (int i = 0; i < 2_000; i++) { // the caller's spin-then-park wait, hit at every moment of a quick call
                ToolExecution execution = executor.execute(ToolRegistry.of(echo), call("echo"));
                assertThat(execution.succeeded()).isTrue();
                outputs.add(execution.result().content());
            }
            assertThat(outputs).allSatisfy(name -> assertThat(name).startsWith("pagantic-tool-"));
            assertThat(executor.runningCount()).isZero();
        }
    }

    @Test
    void quickCallsSucceedWhetherTheHandOffSpinsOrParksAtOnce() {
        for (boolean virtual : List.of(true, false)) {
            for (Duration spin : List.of(Duration.ZERO, Duration.ofMillis(1))) {
                try (ToolExecutor executor = ToolExecutor.builder().virtualThreads(virtual).spinWait(spin).build()) {
                    Tool echo = Tool.builder(TestTools.noArgs("echo"))
                            .handler((ctx, args) -> Thread.currentThread().getName()).build();
                    for (int i = 0; i < 500; i++) {
                        ToolExecution execution = executor.execute(ToolRegistry.of(echo), call("echo"));
                        assertThat(execution.succeeded()).as("virtual %s, spin %s", virtual, spin).isTrue();
                        assertThat(execution.result().content()).startsWith("pagantic-tool-");
                    }
                    assertThat(executor.toString()).contains("spinWait=");
                }
            }
        }
    }

    @Test
    void aToolSlowerThanTheSpinStillWakesItsCaller() {
        try (ToolExecutor executor = ToolExecutor.builder().virtualThreads(false).spinWait(Duration.ofNanos(1_000))
                .build()) {
            Tool slow = Tool.builder(TestTools.noArgs("slow")).handler((ctx, args) -> {
                Thread.sleep(20);
                return "done";
            }).build();
            for (int i = 0; i < 3; i++) {
                assertThat(executor.execute(ToolRegistry.of(slow), call("slow")).result().content()).isEqualTo("done");
            }
        }
    }

    @Test
    void anAbandonedPlatformThreadDoesNotHoldUpLaterCalls() {
        CountDownLatch release = new CountDownLatch(1);
        try (ToolExecutor executor = ToolExecutor.builder().virtualThreads(false).maxParallelism(1).maxAbandoned(2)
                .defaultTimeout(Duration.ofMillis(100)).interruptGrace(Duration.ofMillis(20)).build()) {
            AtomicReference<Thread> stuckOn = new AtomicReference<>();
            Tool stuck = Tool.builder(TestTools.noArgs("stuck")).handler((ctx, args) -> {
                stuckOn.set(Thread.currentThread());
                TestTools.awaitUninterruptibly(release);
                return "late";
            }).build();
            assertThat(executor.execute(ToolRegistry.of(stuck), call("stuck")).errorCode())
                    .contains(ErrorCode.TOOL_TIMEOUT);

            Thread next = threadOfOneCall(executor);

            assertThat(next).isNotSameAs(stuckOn.get());
            assertThat(executor.abandonedCount()).isEqualTo(1);
        } finally {
            release.countDown();
        }
    }

    @Test
    void theInterruptThatStopsATimedOutToolDoesNotReachTheNextCallOnTheSameThread() {
        try (ToolExecutor executor = ToolExecutor.builder().virtualThreads(false).maxParallelism(1)
                .defaultTimeout(Duration.ofMillis(50)).build()) {
            Tool sleeper = Tool.builder(TestTools.noArgs("sleeper")).handler((ctx, args) -> {
                Thread.sleep(10_000);
                return "woke";
            }).build();
            Tool probe = Tool.builder(TestTools.noArgs("probe"))
                    .handler((ctx, args) -> String.valueOf(Thread.currentThread().isInterrupted())).build();
            for (int i = 0; i < 5; i++) {
                assertThat(executor.execute(ToolRegistry.of(sleeper), call("sleeper")).errorCode())
                        .contains(ErrorCode.TOOL_TIMEOUT);
                assertThat(executor.execute(ToolRegistry.of(probe), call("probe")).result().content())
                        .isEqualTo("false");
            }
            assertThat(executor.abandonedCount()).isZero();
        }
    }

    @Test
    void closingEndsTheIdlePlatformThreads() throws InterruptedException {
        Thread worker;
        try (ToolExecutor executor = ToolExecutor.builder().virtualThreads(false).build()) {
            worker = threadOfOneCall(executor);
        }
        worker.join(10_000);

        assertThat(worker.isAlive()).isFalse();
    }

    @Test
    void aSpinWaitOutsideZeroToOneMillisecondIsRejectedAtBuildTime() {
        for (Duration spin : List.of(Duration.ofNanos(-1), Duration.ofNanos(1_000_001))) {
            assertThatThrownBy(() -> ToolExecutor.builder().spinWait(spin).build())
                    .isInstanceOfSatisfying(PaganticException.class,
                            e -> assertThat(e.code()).isEqualTo(ErrorCode.CONFIG_INVALID))
                    .hasMessageContaining("spinWait");
        }
    }
}
