package dev.pagantic.observe;

import dev.pagantic.core.ErrorCode;
import dev.pagantic.core.PaganticException;
import dev.pagantic.core.TokenUsage;
import java.math.BigDecimal;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.Set;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * A cost tracker that prices usage from a {@link PriceTable} and keeps the totals per model in memory (the
 * specification's {@code InMemoryCostTracker}, which here really computes cost).
 *
 * <p>Each usage is priced when recorded ({@link ModelPrice#costOf}: prompt tokens at the input price, output and
 * reasoning tokens at the output price, per million, exactly). A model without a price is handled by the table's
 * {@link UnknownModelPolicy}: either recorded at zero cost and flagged ({@link #hasUnpricedUsage()},
 * {@link #unpricedModels()}, a warning logged once per model), or refused with {@code CONFIG_INVALID}.
 *
 * <p>Thread-safe: any number of threads may record at once and no usage is lost; reads return immutable values.
 */
public final class InMemoryCostTracker implements CostTracker {

    private static final Logger LOG = LoggerFactory.getLogger(InMemoryCostTracker.class);

    private final PriceTable prices;
    private final Object lock = new Object();
    private final Map<String, ModelCost> byModel = new LinkedHashMap<>(); // guarded by lock; first-use order
    private BigDecimal total = BigDecimal.ZERO; // guarded by lock

    /** A tracker with nothing recorded that prices usage from the table; also {@link CostTracker#inMemory}. */
    public InMemoryCostTracker(PriceTable prices) {
        this.prices = Objects.requireNonNull(prices, "prices");
    }

    @Override
    public void recordUsage(String model, TokenUsage usage) {
        Checks.requireNonBlank(model, "model");
        Objects.requireNonNull(usage, "usage");
        Optional<ModelPrice> price = prices.price(model);
        if (price.isEmpty() && prices.unknownModels() == UnknownModelPolicy.REFUSE) {
            throw PaganticException.builder(ErrorCode.CONFIG_INVALID, "no price for model '" + model + "'")
                    .detail("field", "model").detail("model", model).build();
        }
        BigDecimal cost = price.map(p -> p.costOf(usage)).orElse(BigDecimal.ZERO);
        boolean firstUnpriced;
        synchronized (lock) {
            ModelCost before = byModel.get(model);
            firstUnpriced = before == null && price.isEmpty();
            ModelCost current = before != null ? before : ModelCost.empty(model, price.isPresent());
            byModel.put(model, current.plus(usage, cost));
            total = total.add(cost);
        }
        if (firstUnpriced) {
            LOG.warn("no price for model '{}': its usage is recorded at zero cost and the total is incomplete", model);
        }
    }

    @Override
    public BigDecimal totalCost() {
        synchronized (lock) {
            return total;
        }
    }

    /** The exact cost recorded for the model; zero when none was. */
    public BigDecimal cost(String model) {
        return modelCost(model).map(ModelCost::cost).orElse(BigDecimal.ZERO);
    }

    /** What was recorded for the model, if anything. */
    public Optional<ModelCost> modelCost(String model) {
        Objects.requireNonNull(model, "model");
        synchronized (lock) {
            return Optional.ofNullable(byModel.get(model));
        }
    }

    /** What was recorded, by model, in the order the models were first used. */
    public Map<String, ModelCost> costsByModel() {
        synchronized (lock) {
            return Collections.unmodifiableMap(new LinkedHashMap<>(byModel));
        }
    }

    /** The models whose usage was recorded without a price (at zero cost). */
    public Set<String> unpricedModels() {
        Set<String> unpriced = new LinkedHashSet<>();
        synchronized (lock) {
            byModel.values().stream().filter(cost -> !cost.priced()).forEach(cost -> unpriced.add(cost.model()));
        }
        return Collections.unmodifiableSet(unpriced);
    }

    /** Whether any usage was recorded without a price, so that {@link #totalCost()} understates the real cost. */
    public boolean hasUnpricedUsage() {
        return !unpricedModels().isEmpty();
    }

    /** The table usage is priced from. */
    public PriceTable prices() {
        return prices;
    }

    /** Forgets everything recorded. */
    public void clear() {
        synchronized (lock) {
            byModel.clear();
            total = BigDecimal.ZERO;
        }
    }
}
