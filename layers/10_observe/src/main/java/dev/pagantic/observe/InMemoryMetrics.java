package dev.pagantic.observe;

import dev.pagantic.core.TokenUsage;
import java.time.Duration;
import java.util.HashMap;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;

/**
 * A metrics collector that keeps its numbers in memory (the specification's {@code InMemoryMetrics}): latency
 * summaries (count, total, min, max) per layer, token totals, and counters.
 *
 * <p>Thread-safe: any number of threads may record at once and no update is lost. Reads return immutable values;
 * {@link #snapshot()} reads everything consistently at once.
 */
public final class InMemoryMetrics implements MetricsCollector {

    private final Object lock = new Object();
    private final Map<String, LatencySummary> latencies = new HashMap<>(); // guarded by lock
    private final Map<String, Long> counters = new HashMap<>(); // guarded by lock
    private TokenTotals tokens = TokenTotals.ZERO; // guarded by lock

    /** A collector with nothing recorded; also {@link MetricsCollector#inMemory()}. */
    public InMemoryMetrics() {
    }

    @Override
    public void recordLatency(String layer, Duration duration) {
        Checks.requireNonBlank(layer, "layer");
        Checks.requireNonNegative(duration, "duration");
        synchronized (lock) {
            latencies.merge(layer, new LatencySummary(1, duration, duration, duration), InMemoryMetrics::combine);
        }
    }

    private static LatencySummary combine(LatencySummary a, LatencySummary b) {
        return new LatencySummary(Math.addExact(a.count(), b.count()), a.total().plus(b.total()),
                a.min().compareTo(b.min()) <= 0 ? a.min() : b.min(),
                a.max().compareTo(b.max()) >= 0 ? a.max() : b.max());
    }

    @Override
    public void recordTokens(TokenUsage usage) {
        Objects.requireNonNull(usage, "usage");
        synchronized (lock) {
            tokens = tokens.plus(usage);
        }
    }

    @Override
    public void incrementCounter(String name, long delta) {
        Checks.requireNonBlank(name, "name");
        synchronized (lock) {
            counters.merge(name, delta, Math::addExact);
        }
    }

    /** The latencies recorded for the layer, if any. */
    public Optional<LatencySummary> latency(String layer) {
        Objects.requireNonNull(layer, "layer");
        synchronized (lock) {
            return Optional.ofNullable(latencies.get(layer));
        }
    }

    /** The token usage summed over every recorded call. */
    public TokenTotals tokens() {
        synchronized (lock) {
            return tokens;
        }
    }

    /** The counter's value; zero for a counter never incremented. */
    public long counter(String name) {
        Objects.requireNonNull(name, "name");
        synchronized (lock) {
            return counters.getOrDefault(name, 0L);
        }
    }

    /** Everything recorded, consistently at one moment. */
    public MetricsSnapshot snapshot() {
        synchronized (lock) {
            return new MetricsSnapshot(latencies, tokens, counters);
        }
    }

    /** Forgets everything. */
    public void clear() {
        synchronized (lock) {
            latencies.clear();
            counters.clear();
            tokens = TokenTotals.ZERO;
        }
    }
}
