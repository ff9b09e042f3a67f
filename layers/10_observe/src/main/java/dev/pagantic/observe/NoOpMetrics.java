package dev.pagantic.observe;

import dev.pagantic.core.TokenUsage;
import java.time.Duration;
import java.util.Objects;

/** The metrics collector that records nothing. Stateless, so one is shared. */
public final class NoOpMetrics implements MetricsCollector {

    /** The one instance; it holds no state. */
    public static final NoOpMetrics INSTANCE = new NoOpMetrics();

    private NoOpMetrics() {
    }

    @Override
    public void recordLatency(String layer, Duration duration) {
        Objects.requireNonNull(layer, "layer");
        Objects.requireNonNull(duration, "duration");
    }

    @Override
    public void recordTokens(TokenUsage usage) {
        Objects.requireNonNull(usage, "usage");
    }

    @Override
    public void incrementCounter(String name, long delta) {
        Objects.requireNonNull(name, "name");
    }
}
