package dev.pagantic.core;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;

class CancellationTest {

    @Test
    void newCancellationIsNotCancelledAndHasNoReason() {
        Cancellation cancellation = new Cancellation();

        assertThat(cancellation.isCancelled()).isFalse();
        assertThat(cancellation.reason()).isEmpty();
    }

    @Test
    void cancelRecordsTheReason() {
        Cancellation cancellation = new Cancellation();

        cancellation.cancel("user pressed Ctrl-C");

        assertThat(cancellation.isCancelled()).isTrue();
        assertThat(cancellation.reason()).contains("user pressed Ctrl-C");
    }

    @Test
    void cancelWithoutReasonUsesAGenericOne() {
        Cancellation plain = new Cancellation();
        Cancellation withNull = new Cancellation();

        plain.cancel();
        withNull.cancel(null);

        assertThat(plain.reason()).contains("cancelled by caller");
        assertThat(withNull.reason()).contains("cancelled by caller");
    }

    @Test
    void onlyTheFirstCancelCounts() {
        Cancellation cancellation = new Cancellation();
        AtomicInteger runs = new AtomicInteger();
        cancellation.onCancel(runs::incrementAndGet);

        cancellation.cancel("first");
        cancellation.cancel("second");
        cancellation.cancel();

        assertThat(cancellation.reason()).contains("first");
        assertThat(runs).hasValue(1);
    }

    @Test
    void listenersRunOnceInRegistrationOrder() {
        Cancellation cancellation = new Cancellation();
        List<String> order = new ArrayList<>();
        cancellation.onCancel(() -> order.add("a"));
        cancellation.onCancel(() -> order.add("b"));

        cancellation.cancel();

        assertThat(order).containsExactly("a", "b");
    }

    @Test
    void listenerRegisteredAfterCancelRunsImmediately() {
        Cancellation cancellation = new Cancellation();
        cancellation.cancel();
        AtomicInteger runs = new AtomicInteger();

        cancellation.onCancel(runs::incrementAndGet);

        assertThat(runs).hasValue(1);
    }

    @Test
    void closedRegistrationDoesNotRun() {
        Cancellation cancellation = new Cancellation();
        AtomicInteger removed = new AtomicInteger();
        AtomicInteger kept = new AtomicInteger();
        Registration registration = cancellation.onCancel(removed::incrementAndGet);
        cancellation.onCancel(kept::incrementAndGet);

        registration.close();
        registration.close();
        cancellation.cancel();

        assertThat(removed).hasValue(0);
        assertThat(kept).hasValue(1);
    }

    @Test
    void throwingListenerDoesNotStopTheOthersAndIsRethrownAfterwards() {
        Cancellation cancellation = new Cancellation();
        AtomicInteger after = new AtomicInteger();
        IllegalStateException first = new IllegalStateException("first");
        IllegalStateException second = new IllegalStateException("second");
        cancellation.onCancel(() -> {
            throw first;
        });
        cancellation.onCancel(after::incrementAndGet);
        cancellation.onCancel(() -> {
            throw second;
        });
        cancellation.onCancel(after::incrementAndGet);

        assertThatThrownBy(() -> cancellation.cancel("stop")).isSameAs(first);

        assertThat(after).hasValue(2);
        assertThat(first.getSuppressed()).containsExactly(second);
        assertThat(cancellation.isCancelled()).isTrue();
        assertThat(cancellation.reason()).contains("stop");
    }

    @Test
    void concurrentCancelsRunEachListenerExactlyOnce() throws InterruptedException {
        for (int round = 0; round < 50; round++) {
            Cancellation cancellation = new Cancellation();
            AtomicInteger runs = new AtomicInteger();
            cancellation.onCancel(runs::incrementAndGet);
            int threads = 8;
            CountDownLatch start = new CountDownLatch(1);
            ExecutorService pool = Executors.newFixedThreadPool(threads);
            try {
                for (int i = 0; i < threads; i++) {
                    String reason = "thread " + i;
                    pool.execute(() -> {
                        awaitQuietly(start);
                        cancellation.cancel(reason);
                    });
                }
                start.countDown();
            } finally {
                pool.shutdown();
                assertThat(pool.awaitTermination(10, TimeUnit.SECONDS)).isTrue();
            }

            assertThat(runs).hasValue(1);
            assertThat(cancellation.reason()).get().asString().startsWith("thread ");
        }
    }

    @Test
    void listenerRegisteredWhileCancellingRunsExactlyOnce() throws InterruptedException {
        for (int round = 0; round < 200; round++) {
            Cancellation cancellation = new Cancellation();
            AtomicInteger runs = new AtomicInteger();
            CountDownLatch start = new CountDownLatch(1);
            Thread registrar = new Thread(() -> {
                awaitQuietly(start);
                cancellation.onCancel(runs::incrementAndGet);
            });
            registrar.start();
            start.countDown();
            cancellation.cancel();
            registrar.join(10_000);

            assertThat(registrar.isAlive()).isFalse();
            assertThat(runs).hasValue(1);
        }
    }

    private static void awaitQuietly(CountDownLatch latch) {
        try {
            latch.await();
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }
}
