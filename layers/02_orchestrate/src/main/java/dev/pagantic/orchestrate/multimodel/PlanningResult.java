package dev.pagantic.orchestrate.multimodel;

import dev.pagantic.core.TokenUsage;
import java.math.BigDecimal;

/**
 * The outcome of the planning profile: one call on the planning engine.
 *
 * @param content the answer
 * @param call    the call
 */
public record PlanningResult(String content, PhaseCall call) {

    /** The reason string of this mode. */
    public static final String REASON = "planning-orchestration";

    /** {@value #REASON}. */
    public String reason() {
        return REASON;
    }

    /** The call's usage. */
    public TokenUsage usage() {
        return call.usage();
    }

    /** The call's cost. */
    public BigDecimal cost() {
        return call.cost();
    }
}
