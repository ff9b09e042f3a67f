package dev.pagantic.validate;

import dev.pagantic.core.ErrorCode;
import dev.pagantic.core.PaganticException;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;

/**
 * Rules applied at the two edges of a model call: to the input before inference (user text, retrieved context, tool
 * results headed for the model) and to the output after it. Immutable and thread-safe (as long as its rules are).
 *
 * <p>Both stages fail with {@code VALIDATION_RULE_FAILED} naming every failed rule, with detail {@code stage} set to
 * {@code input} or {@code output}. They differ in retryability: re-running the same input cannot make an input
 * guardrail pass, so an input failure is <em>not</em> retryable; an output failure is retryable (re-infer, repair, or
 * adjust the prompt), the code's default.
 *
 * <pre>{@code
 * Guardrails guardrails = Guardrails.builder()
 *         .input(Rules.maxLength(8_000))
 *         .input(PromptInjectionDetector.defaults())
 *         .output(Rules.mustBeJson())
 *         .output(Rules.forbiddenPattern("no-secrets", Pattern.compile("sk-[A-Za-z0-9]{20,}")))
 *         .build();
 * guardrails.requireInput(userText);
 * String answer = engine.infer(ctx, request).content();
 * guardrails.requireOutput(answer);
 * }</pre>
 */
public final class Guardrails {

    /** The {@code stage} detail of an input failure. */
    public static final String INPUT = "input";
    /** The {@code stage} detail of an output failure. */
    public static final String OUTPUT = "output";

    private final List<Rule> inputRules;
    private final List<Rule> outputRules;

    private Guardrails(List<Rule> inputRules, List<Rule> outputRules) {
        this.inputRules = List.copyOf(inputRules);
        this.outputRules = List.copyOf(outputRules);
    }

    /** Starts building guardrails. */
    public static Builder builder() {
        return new Builder();
    }

    /** The input rules, in order. */
    public List<Rule> inputRules() {
        return inputRules;
    }

    /** The output rules, in order. */
    public List<Rule> outputRules() {
        return outputRules;
    }

    /** Applies the input rules; never throws for a failed rule. */
    public RuleReport checkInput(String input) {
        return apply(inputRules, input);
    }

    /** Applies the output rules; never throws for a failed rule. */
    public RuleReport checkOutput(String output) {
        return apply(outputRules, output);
    }

    /**
     * Applies the input rules and throws {@code VALIDATION_RULE_FAILED}, not retryable, with detail
     * {@code stage=input}, if any failed.
     *
     * @return the passed report
     */
    public RuleReport requireInput(String input) {
        RuleReport report = checkInput(input);
        report.failure(false, INPUT).ifPresent(e -> {
            throw e;
        });
        return report;
    }

    /**
     * Applies the output rules and throws {@code VALIDATION_RULE_FAILED}, retryable, with detail
     * {@code stage=output}, if any failed.
     *
     * @return the passed report
     */
    public RuleReport requireOutput(String output) {
        RuleReport report = checkOutput(output);
        report.failure(ErrorCode.VALIDATION_RULE_FAILED.retryable(), OUTPUT).ifPresent(e -> {
            throw e;
        });
        return report;
    }

    private static RuleReport apply(List<Rule> rules, String text) {
        Objects.requireNonNull(text, "text");
        List<RuleResult> results = new ArrayList<>(rules.size());
        for (Rule rule : rules) {
            results.add(RuleValidator.apply(rule, text));
        }
        return new RuleReport(results);
    }

    /** Builds {@link Guardrails}; {@link #build()} throws {@code CONFIG_INVALID} if they are not valid. */
    public static final class Builder {
        private final List<Rule> inputRules = new ArrayList<>();
        private final List<Rule> outputRules = new ArrayList<>();

        private Builder() {
        }

        /** Adds a rule applied to inputs. */
        public Builder input(Rule rule) {
            inputRules.add(Objects.requireNonNull(rule, "rule"));
            return this;
        }

        /** Adds a rule applied to outputs. */
        public Builder output(Rule rule) {
            outputRules.add(Objects.requireNonNull(rule, "rule"));
            return this;
        }

        /**
         * Builds the guardrails.
         *
         * @throws PaganticException {@code CONFIG_INVALID} when there are no rules at all, or two rules of one stage
         *                           share a name
         */
        public Guardrails build() {
            if (inputRules.isEmpty() && outputRules.isEmpty()) {
                throw PaganticException.of(ErrorCode.CONFIG_INVALID,
                        "guardrails need at least one input or output rule");
            }
            RuleValidator.checkDistinctNames(inputRules);
            RuleValidator.checkDistinctNames(outputRules);
            return new Guardrails(inputRules, outputRules);
        }
    }
}
