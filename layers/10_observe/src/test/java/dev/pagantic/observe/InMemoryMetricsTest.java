package dev.pagantic.observe;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.pagantic.core.ErrorCode;
import dev.pagantic.core.PaganticException;
import dev.pagantic.core.TokenUsage;
import java.time.Duration;
import org.junit.jupiter.api.Test;

class InMemoryMetricsTest {

    @Test
    void latencyIsSummarisedPerLayer() {
        InMemoryMetrics metrics = MetricsCollector.inMemory();

        metrics.recordLatency("inference", Duration.ofMillis(100));
        metrics.recordLatency("inference", Duration.ofMillis(300));
        metrics.recordLatency("tool", Duration.ofMillis(7));

        LatencySummary inference = metrics.latency("inference").orElseThrow();
        assertThat(inference.count()).isEqualTo(2);
        assertThat(inference.total()).isEqualTo(Duration.ofMillis(400));
        assertThat(inference.min()).isEqualTo(Duration.ofMillis(100));
        assertThat(inference.max()).isEqualTo(Duration.ofMillis(300));
        assertThat(inference.mean()).isEqualTo(Duration.ofMillis(200));
        assertThat(metrics.latency("tool").orElseThrow().count()).isEqualTo(1);
        assertThat(metrics.latency("memory")).isEmpty();
    }

    @Test
    void tokenUsageIsSummedOverCalls() {
        InMemoryMetrics metrics = MetricsCollector.inMemory();

        metrics.recordTokens(new TokenUsage(100, 20, 30, 150, 4096, Duration.ofSeconds(1)));
        metrics.recordTokens(TokenUsage.of(50, 5));

        TokenTotals tokens = metrics.tokens();
        assertThat(tokens).isEqualTo(new TokenTotals(2, 150, 20, 35, Duration.ofSeconds(1)));
        assertThat(tokens.totalTokens()).isEqualTo(205);
    }

    @Test
    void countersStartAtZeroAndAddDeltas() {
        InMemoryMetrics metrics = MetricsCollector.inMemory();

        metrics.incrementCounter("retries");
        metrics.incrementCounter("retries", 4);
        metrics.incrementCounter("in_flight", -1);

        assertThat(metrics.counter("retries")).isEqualTo(5);
        assertThat(metrics.counter("in_flight")).isEqualTo(-1);
        assertThat(metrics.counter("never")).isZero();
        assertThat(metrics.snapshot().counters()).containsOnlyKeys("in_flight", "retries");
    }

    @Test
    void concurrentRecordingLosesNoCounterLatencyOrTokenUpdate() throws Exception {
        InMemoryMetrics metrics = MetricsCollector.inMemory();

        Concurrently.run(Concurrently.THREADS, thread -> {
            for (int i = 0; i < Concurrently.PER_THREAD; i++) {
                metrics.incrementCounter("calls");
                metrics.incrementCounter("calls." + thread);
                metrics.recordLatency("inference", Duration.ofMillis(1 + i % 10));
                metrics.recordTokens(TokenUsage.of(3, 2));
            }
        });

        long total = (long) Concurrently.THREADS * Concurrently.PER_THREAD;
        MetricsSnapshot snapshot = metrics.snapshot();
        assertThat(snapshot.counters()).containsEntry("calls", total);
        for (int thread = 0; thread < Concurrently.THREADS; thread++) {
            assertThat(snapshot.counters()).containsEntry("calls." + thread, (long) Concurrently.PER_THREAD);
        }
        LatencySummary latency = snapshot.latencies().get("inference");
        assertThat(latency.count()).isEqualTo(total);
        assertThat(latency.total()).isEqualTo(Duration.ofMillis(total / 10 * 55)); // 1+2+...+10 per 10 calls
        assertThat(latency.min()).isEqualTo(Duration.ofMillis(1));
        assertThat(latency.max()).isEqualTo(Duration.ofMillis(10));
        assertThat(snapshot.tokens().calls()).isEqualTo(total);
        assertThat(snapshot.tokens().promptTokens()).isEqualTo(3 * total);
        assertThat(snapshot.tokens().outputTokens()).isEqualTo(2 * total);
    }

    @Test
    void negativeLatencyAndBlankNamesAreRefused() {
        InMemoryMetrics metrics = MetricsCollector.inMemory();

        assertThatThrownBy(() -> metrics.recordLatency("tool", Duration.ofMillis(-1)))
                .isInstanceOfSatisfying(PaganticException.class,
                        e -> assertThat(e.code()).isEqualTo(ErrorCode.CONFIG_INVALID));
        assertThatThrownBy(() -> metrics.incrementCounter(" "))
                .isInstanceOfSatisfying(PaganticException.class,
                        e -> assertThat(e.code()).isEqualTo(ErrorCode.CONFIG_INVALID));
        assertThat(metrics.snapshot().latencies()).isEmpty();
    }
}
