package dev.pagantic.observe;

import dev.pagantic.core.TokenUsage;
import java.math.BigDecimal;
import java.util.Objects;

/** The cost tracker that records nothing; its total is always zero. Stateless, so one is shared. */
public final class NoOpCostTracker implements CostTracker {

    /** The one instance; it holds no state. */
    public static final NoOpCostTracker INSTANCE = new NoOpCostTracker();

    private NoOpCostTracker() {
    }

    @Override
    public void recordUsage(String model, TokenUsage usage) {
        Objects.requireNonNull(model, "model");
        Objects.requireNonNull(usage, "usage");
    }

    /** Always zero. */
    @Override
    public BigDecimal totalCost() {
        return BigDecimal.ZERO;
    }
}
