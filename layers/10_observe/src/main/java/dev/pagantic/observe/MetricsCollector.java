package dev.pagantic.observe;

import dev.pagantic.core.TokenUsage;
import java.time.Duration;

/**
 * Collects numbers about what happened (the specification's {@code MetricsCollector}): latency per layer, token usage
 * and named counters. Implementations: {@link InMemoryMetrics} and {@link NoOpMetrics}; both thread-safe. An
 * application that exports to a metrics system implements this interface over its registry.
 */
public interface MetricsCollector {

    /** Records how long one piece of work in the layer took; a negative duration is refused with CONFIG_INVALID. */
    void recordLatency(String layer, Duration duration);

    /** Records the token usage of one inference call. */
    void recordTokens(TokenUsage usage);

    /** Adds the delta (which may be negative) to the named counter, which starts at zero. */
    void incrementCounter(String name, long delta);

    /** Adds one to the named counter. */
    default void incrementCounter(String name) {
        incrementCounter(name, 1);
    }

    /** The collector that records nothing. */
    static MetricsCollector noOp() {
        return NoOpMetrics.INSTANCE;
    }

    /** A new in-memory collector. */
    static InMemoryMetrics inMemory() {
        return new InMemoryMetrics();
    }
}
