package dev.pagantic.observe;

/** What a cost tracker does with usage of a model that its {@link PriceTable} has no price for. */
public enum UnknownModelPolicy {
    /**
     * Record the usage at zero cost, remember the model as unpriced (so the total is flagged as incomplete) and log a
     * warning once per model. The default: missing prices must not break inference.
     */
    ZERO_WITH_WARNING,
    /** Refuse the usage with a {@code CONFIG_INVALID} failure naming the model; nothing is recorded. */
    REFUSE
}
