package dev.pagantic.observe;

import dev.pagantic.core.TokenUsage;
import java.math.BigDecimal;

/**
 * Turns token usage per model into cost (the specification's {@code CostTracker}). The specification's
 * {@code TotalCost() float64} becomes an exact {@link BigDecimal}: money is not summed in binary floating point.
 * Implementations: {@link InMemoryCostTracker} (prices from a {@link PriceTable}) and {@link NoOpCostTracker}; both
 * thread-safe.
 */
public interface CostTracker {

    /** Records the usage of one inference call on the model. */
    void recordUsage(String model, TokenUsage usage);

    /** The exact cost of everything recorded; zero when nothing was. */
    BigDecimal totalCost();

    /** The tracker that records nothing and costs nothing. */
    static CostTracker noOp() {
        return NoOpCostTracker.INSTANCE;
    }

    /** A new in-memory tracker pricing usage from the table. */
    static InMemoryCostTracker inMemory(PriceTable prices) {
        return new InMemoryCostTracker(prices);
    }
}
