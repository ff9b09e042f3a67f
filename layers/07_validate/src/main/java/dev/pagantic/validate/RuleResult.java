package dev.pagantic.validate;

import dev.pagantic.core.ErrorCode;
import dev.pagantic.core.PaganticException;
import java.util.Objects;

/**
 * The outcome of one {@link Rule} on one text.
 *
 * @param rule   the name of the rule that produced it
 * @param passed whether the text satisfied the rule
 * @param reason why the rule failed; empty when it passed
 */
public record RuleResult(String rule, boolean passed, String reason) {

    public RuleResult {
        Objects.requireNonNull(rule, "rule");
        Objects.requireNonNull(reason, "reason");
        if (!passed && reason.isBlank()) {
            throw PaganticException.of(ErrorCode.CONFIG_INVALID, "a failed rule result needs a reason: " + rule);
        }
        if (passed && !reason.isEmpty()) {
            throw PaganticException.of(ErrorCode.CONFIG_INVALID, "a passed rule result carries no reason: " + rule);
        }
    }

    /** A passing result of the named rule. */
    public static RuleResult pass(String rule) {
        return new RuleResult(rule, true, "");
    }

    /** A failing result of the named rule, with the reason. */
    public static RuleResult fail(String rule, String reason) {
        return new RuleResult(rule, false, reason);
    }
}
