package dev.pagantic.validate;

import dev.pagantic.core.ErrorCode;
import dev.pagantic.core.PaganticException;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Objects;
import java.util.Set;

/**
 * Applies an ordered set of {@link Rule}s to a text and reports every failure with its reason. Immutable and
 * thread-safe (as long as its rules are).
 *
 * <p>A rule that throws is not allowed to abort validation: its exception is recorded as that rule's failure
 * (reason {@code "rule threw: ..."}), so the report still covers every rule.
 *
 * <pre>{@code
 * RuleValidator validator = RuleValidator.builder()
 *         .rule(Rules.maxLength(2_000))
 *         .rule(Rules.forbiddenPattern("no-apology", Pattern.compile("(?i)as an ai")))
 *         .build();
 * RuleReport report = validator.validate(output);
 * double confidence = report.passRate();        // ConfidenceSource "validation"
 * report.throwIfFailed();                        // VALIDATION_RULE_FAILED with every reason
 * }</pre>
 */
public final class RuleValidator {

    private final List<Rule> rules;

    private RuleValidator(List<Rule> rules) {
        this.rules = List.copyOf(rules);
    }

    /** Starts building a validator. */
    public static Builder builder() {
        return new Builder();
    }

    /** A validator of the given rules, in order. */
    public static RuleValidator of(Rule... rules) {
        Builder builder = builder();
        for (Rule rule : rules) {
            builder.rule(rule);
        }
        return builder.build();
    }

    /** The rules, in the order they are applied. */
    public List<Rule> rules() {
        return rules;
    }

    /** Applies every rule to the text and reports all results. Never throws for a failed rule. */
    public RuleReport validate(String text) {
        Objects.requireNonNull(text, "text");
        List<RuleResult> results = new ArrayList<>(rules.size());
        for (Rule rule : rules) {
            results.add(apply(rule, text));
        }
        return new RuleReport(results);
    }

    /**
     * Applies every rule and throws {@code VALIDATION_RULE_FAILED} (retryable) naming every failed rule if any
     * failed.
     *
     * @return the report, which has passed
     */
    public RuleReport require(String text) {
        RuleReport report = validate(text);
        report.throwIfFailed();
        return report;
    }

    static RuleResult apply(Rule rule, String text) {
        try {
            RuleResult result = rule.check(text);
            if (result == null) {
                return RuleResult.fail(rule.name(), "rule returned no result");
            }
            return result;
        } catch (RuntimeException e) {
            return RuleResult.fail(rule.name(), "rule threw: " + e);
        }
    }

    /** Builds a {@link RuleValidator}; {@link #build()} throws {@code CONFIG_INVALID} if it is not valid. */
    public static final class Builder {
        private final List<Rule> rules = new ArrayList<>();

        private Builder() {
        }

        /** Adds a rule; rules run in the order added. */
        public Builder rule(Rule rule) {
            rules.add(Objects.requireNonNull(rule, "rule"));
            return this;
        }

        /** Adds several rules, in order. */
        public Builder rules(List<? extends Rule> list) {
            list.forEach(this::rule);
            return this;
        }

        /**
         * Builds the validator.
         *
         * @throws PaganticException {@code CONFIG_INVALID} when there are no rules or two share a name
         */
        public RuleValidator build() {
            if (rules.isEmpty()) {
                throw PaganticException.of(ErrorCode.CONFIG_INVALID, "a rule validator needs at least one rule");
            }
            checkDistinctNames(rules);
            return new RuleValidator(rules);
        }
    }

    static void checkDistinctNames(List<Rule> rules) {
        Set<String> names = new HashSet<>();
        for (Rule rule : rules) {
            if (!names.add(rule.name())) {
                throw PaganticException.builder(ErrorCode.CONFIG_INVALID, "duplicate rule name: " + rule.name())
                        .detail("rule", rule.name()).build();
            }
        }
    }
}
