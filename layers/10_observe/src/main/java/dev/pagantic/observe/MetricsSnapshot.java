package dev.pagantic.observe;

import java.util.Collections;
import java.util.Map;
import java.util.Objects;
import java.util.TreeMap;

/**
 * What an {@link InMemoryMetrics} holds at one moment, as immutable values. Taken under one lock, so the parts are
 * consistent with each other.
 *
 * @param latencies latency summaries by layer, sorted by layer name
 * @param tokens    token usage summed over all calls
 * @param counters  counter values by name, sorted by name
 */
public record MetricsSnapshot(Map<String, LatencySummary> latencies, TokenTotals tokens, Map<String, Long> counters) {

    public MetricsSnapshot {
        latencies = Collections.unmodifiableMap(new TreeMap<>(latencies));
        Objects.requireNonNull(tokens, "tokens");
        counters = Collections.unmodifiableMap(new TreeMap<>(counters));
    }
}
