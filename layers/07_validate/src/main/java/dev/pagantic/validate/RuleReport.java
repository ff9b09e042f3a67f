package dev.pagantic.validate;

import dev.pagantic.core.ErrorCode;
import dev.pagantic.core.PaganticException;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.stream.Collectors;

/**
 * The results of every rule a {@link RuleValidator} (or a {@link Guardrails} stage) applied to one text, in the
 * order the rules were declared. Failures are all reported, not just the first.
 *
 * <p>{@link #passRate()} is the fraction of rules that passed; orchestrate may report it as a response's confidence
 * with the source {@value #CONFIDENCE_SOURCE}.
 *
 * @param results one result per rule, in declaration order
 */
public record RuleReport(List<RuleResult> results) {

    /** The {@code ConfidenceSource} value of the specification for a confidence derived from rule pass rate. */
    public static final String CONFIDENCE_SOURCE = "validation";

    public RuleReport {
        results = List.copyOf(results);
    }

    /** Whether every rule passed (true when there were no rules). */
    public boolean passed() {
        return results.stream().allMatch(RuleResult::passed);
    }

    /** The failed results, in declaration order. */
    public List<RuleResult> failures() {
        return results.stream().filter(result -> !result.passed()).toList();
    }

    /** How many rules passed. */
    public int passCount() {
        return results.size() - failures().size();
    }

    /** How many rules failed. */
    public int failCount() {
        return failures().size();
    }

    /** The fraction of rules that passed, in [0, 1]; 1.0 when there were no rules (nothing failed). */
    public double passRate() {
        return results.isEmpty() ? 1.0 : (double) passCount() / results.size();
    }

    /**
     * Throws {@code VALIDATION_RULE_FAILED} (retryable by default: re-infer or adjust the prompt) when any rule failed;
     * does nothing otherwise. The exception's details hold {@code failed_rules} (names, in order) and
     * {@code reasons} (rule name to reason), and its message lists every failure.
     */
    public void throwIfFailed() {
        throwIfFailed(ErrorCode.VALIDATION_RULE_FAILED.retryable());
    }

    /** As {@link #throwIfFailed()}, with the given retryability (an input guardrail's failure is not retryable). */
    public void throwIfFailed(boolean retryable) {
        failure(retryable, "").ifPresent(e -> {
            throw e;
        });
    }

    /** The exception {@link #throwIfFailed(boolean)} throws, if any rule failed; {@code stage} is added when set. */
    Optional<PaganticException> failure(boolean retryable, String stage) {
        List<RuleResult> failed = failures();
        if (failed.isEmpty()) {
            return Optional.empty();
        }
        String summary = failed.stream().map(f -> f.rule() + ": " + f.reason()).collect(Collectors.joining("; "));
        Map<String, String> reasons = failed.stream().collect(Collectors.toMap(RuleResult::rule, RuleResult::reason,
                (first, second) -> first + "; " + second, LinkedHashMap::new));
        String prefix = stage.isEmpty() ? "" : stage + " ";
        return Optional.of(PaganticException.builder(ErrorCode.VALIDATION_RULE_FAILED,
                        prefix + failed.size() + " of " + results.size() + " rules failed: " + summary)
                .retryable(retryable)
                .detail("stage", stage.isEmpty() ? null : stage)
                .detail("failed_rules", failed.stream().map(RuleResult::rule).toList())
                .detail("reasons", Collections.unmodifiableMap(reasons))
                .detail("pass_rate", passRate())
                .build());
    }
}
