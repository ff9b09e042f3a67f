package dev.pagantic.observe;

import java.time.Duration;
import java.util.Objects;

/**
 * The latencies recorded for one layer: how many, their total, the shortest and the longest.
 *
 * @param count how many latencies were recorded; at least one
 * @param total their sum
 * @param min   the shortest
 * @param max   the longest
 */
public record LatencySummary(long count, Duration total, Duration min, Duration max) {

    public LatencySummary {
        if (count <= 0) {
            throw Checks.invalid("count", "a latency summary covers at least one latency: " + count);
        }
        Objects.requireNonNull(total, "total");
        Objects.requireNonNull(min, "min");
        Objects.requireNonNull(max, "max");
    }

    /** The mean latency, truncated to whole nanoseconds. */
    public Duration mean() {
        return total.dividedBy(count);
    }
}
