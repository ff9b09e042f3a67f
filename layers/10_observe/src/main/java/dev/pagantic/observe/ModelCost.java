package dev.pagantic.observe;

import dev.pagantic.core.TokenUsage;
import java.math.BigDecimal;
import java.util.Objects;

/**
 * The usage and cost recorded for one model.
 *
 * @param model           the model's name
 * @param calls           how many usages were recorded
 * @param promptTokens    prompt tokens in all
 * @param reasoningTokens reasoning tokens in all (billed as output)
 * @param outputTokens    output tokens in all
 * @param cost            the exact cost in all; zero for an unpriced model
 * @param priced          whether the price table had a price for the model; when false the cost is a placeholder
 *                        zero and the tracker's total is incomplete
 */
public record ModelCost(String model, long calls, long promptTokens, long reasoningTokens, long outputTokens,
                        BigDecimal cost, boolean priced) {

    public ModelCost {
        Checks.requireNonBlank(model, "model");
        Checks.requireNonNegative(calls, "calls");
        Checks.requireNonNegative(promptTokens, "promptTokens");
        Checks.requireNonNegative(reasoningTokens, "reasoningTokens");
        Checks.requireNonNegative(outputTokens, "outputTokens");
        Objects.requireNonNull(cost, "cost");
    }

    /** Nothing recorded yet for the model. */
    static ModelCost empty(String model, boolean priced) {
        return new ModelCost(model, 0, 0, 0, 0, BigDecimal.ZERO, priced);
    }

    /** This record plus one usage and its cost. */
    ModelCost plus(TokenUsage usage, BigDecimal usageCost) {
        return new ModelCost(model, Math.addExact(calls, 1), Math.addExact(promptTokens, usage.promptTokens()),
                Math.addExact(reasoningTokens, usage.reasoningTokens()),
                Math.addExact(outputTokens, usage.outputTokens()), cost.add(usageCost), priced);
    }
}
