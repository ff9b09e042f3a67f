package dev.pagantic.observe;

import dev.pagantic.core.TokenUsage;
import java.math.BigDecimal;
import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;

/**
 * Prices per model, and what to do about a model without one. Immutable once built, so it can be shared.
 *
 * <pre>{@code
 * PriceTable prices = PriceTable.builder()
 *         .model("gpt-4o", "2.50", "10.00")          // input and output per 1M tokens
 *         .model("local-qwen", "0", "0")
 *         .unknownModels(UnknownModelPolicy.REFUSE)
 *         .build();
 * }</pre>
 *
 * Model names are matched exactly (case-sensitive), as the engine reports them.
 */
public final class PriceTable {

    private final Map<String, ModelPrice> prices;
    private final UnknownModelPolicy unknownModels;

    private PriceTable(Map<String, ModelPrice> prices, UnknownModelPolicy unknownModels) {
        this.prices = Collections.unmodifiableMap(new LinkedHashMap<>(prices));
        this.unknownModels = unknownModels;
    }

    /** Starts building a table. */
    public static Builder builder() {
        return new Builder();
    }

    /** The price of the model, if the table has one. */
    public Optional<ModelPrice> price(String model) {
        Objects.requireNonNull(model, "model");
        return Optional.ofNullable(prices.get(model));
    }

    /** The exact cost of the usage, if the table has a price for the model. */
    public Optional<BigDecimal> costOf(String model, TokenUsage usage) {
        Objects.requireNonNull(usage, "usage");
        return price(model).map(price -> price.costOf(usage));
    }

    /** Every price, by model, in the order they were added. */
    public Map<String, ModelPrice> prices() {
        return prices;
    }

    /** What a tracker does with a model the table has no price for. */
    public UnknownModelPolicy unknownModels() {
        return unknownModels;
    }

    @Override
    public String toString() {
        return "PriceTable" + prices + " unknownModels=" + unknownModels;
    }

    /** Builds a {@link PriceTable}; every problem is reported at {@link #build()}, in one {@code CONFIG_INVALID}. */
    public static final class Builder {
        private final Map<String, ModelPrice> prices = new LinkedHashMap<>();
        private final List<String> problems = new ArrayList<>();
        private UnknownModelPolicy unknownModels = UnknownModelPolicy.ZERO_WITH_WARNING;

        private Builder() {
        }

        /** The model's price; a blank name or a model given twice is refused at {@link #build()}. */
        public Builder model(String model, ModelPrice price) {
            Objects.requireNonNull(price, "price");
            if (model == null || model.isBlank()) {
                problems.add("model names must not be blank");
            } else if (prices.putIfAbsent(model, price) != null) {
                problems.add("model '" + model + "' is priced twice");
            }
            return this;
        }

        /** The model's price per million input and output tokens, as decimal strings. */
        public Builder model(String model, String inputPerMillion, String outputPerMillion) {
            return model(model, ModelPrice.of(inputPerMillion, outputPerMillion));
        }

        /**
         * What to do with a model the table has no price for; defaults to
         * {@link UnknownModelPolicy#ZERO_WITH_WARNING}.
         */
        public Builder unknownModels(UnknownModelPolicy policy) {
            this.unknownModels = Objects.requireNonNull(policy, "policy");
            return this;
        }

        /** The table; {@code CONFIG_INVALID} listing every problem found. */
        public PriceTable build() {
            if (!problems.isEmpty()) {
                throw Checks.invalid("prices", "invalid price table: " + String.join("; ", problems));
            }
            return new PriceTable(prices, unknownModels);
        }
    }
}
