package dev.pagantic.orchestrate.multimodel;

import dev.pagantic.core.ErrorCode;
import dev.pagantic.core.PaganticException;
import dev.pagantic.core.TokenUsage;
import dev.pagantic.inference.Engine;
import java.math.BigDecimal;

/**
 * One engine of an {@link EngineCatalogue}.
 *
 * @param id                  the stable name modes and directives refer to
 * @param engine              the engine
 * @param weight              its capability weight: higher is more capable (the judge and critic default to the
 *                            highest); not negative
 * @param promptCostPer1k     the price of 1000 prompt tokens; not negative
 * @param completionCostPer1k the price of 1000 generated tokens; not negative
 * @param healthy             whether it may be selected; an unhealthy entry is skipped by weight selection and refused
 *                            by id
 */
public record EngineEntry(String id, Engine engine, int weight, BigDecimal promptCostPer1k,
                          BigDecimal completionCostPer1k, boolean healthy) {

    public EngineEntry {
        require(id != null && !id.isBlank(), "an engine entry needs an id");
        require(engine != null, "engine entry '" + id + "' needs an engine");
        require(weight >= 0, "engine entry '" + id + "' has a negative weight: " + weight);
        require(promptCostPer1k != null && promptCostPer1k.signum() >= 0,
                "engine entry '" + id + "' needs a non-negative prompt cost");
        require(completionCostPer1k != null && completionCostPer1k.signum() >= 0,
                "engine entry '" + id + "' needs a non-negative completion cost");
    }

    /** A healthy, free entry. */
    public static EngineEntry of(String id, Engine engine, int weight) {
        return new EngineEntry(id, engine, weight, BigDecimal.ZERO, BigDecimal.ZERO, true);
    }

    /** The cost of one call's usage: prompt and generated tokens at this entry's prices (exact). */
    public BigDecimal cost(TokenUsage usage) {
        return promptCostPer1k.multiply(BigDecimal.valueOf(usage.promptTokens()))
                .add(completionCostPer1k.multiply(BigDecimal.valueOf(usage.outputTokens())))
                .movePointLeft(3);
    }

    private static void require(boolean condition, String message) {
        if (!condition) {
            throw PaganticException.of(ErrorCode.CONFIG_INVALID, message);
        }
    }
}
