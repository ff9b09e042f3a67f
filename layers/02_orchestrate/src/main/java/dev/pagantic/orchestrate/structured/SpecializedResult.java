package dev.pagantic.orchestrate.structured;

import dev.pagantic.constraint.ValidationReport;
import dev.pagantic.inference.Result;
import dev.pagantic.tool.ToolExecution;
import dev.pagantic.validate.RuleReport;
import java.util.List;
import java.util.Objects;
import java.util.Optional;

/**
 * What one {@link SpecializedLoop} call produced.
 *
 * @param result         the structured answer: its content is the validated (possibly repaired and normalised) JSON
 *                       and its usage the sum over every inference of every attempt
 * @param validation     the constraint pipeline's report on the answer; with strict validation it is always valid,
 *                       except for an answer {@linkplain #cutOff() cut off} at the token limit
 * @param rules          the report of the loop's rules on the answer, when rules are configured
 * @param toolExecutions every tool call of every attempt, in the order they were made, failed ones included
 * @param attempts       how many attempts ran (1 when the first answer was valid)
 */
public record SpecializedResult(Result result, ValidationReport validation, Optional<RuleReport> rules,
                                List<ToolExecution> toolExecutions, int attempts) {

    public SpecializedResult {
        Objects.requireNonNull(result, "result");
        Objects.requireNonNull(validation, "validation");
        Objects.requireNonNull(rules, "rules");
        toolExecutions = List.copyOf(toolExecutions);
        if (attempts < 1) {
            throw new IllegalArgumentException("attempts must be at least 1: " + attempts);
        }
    }

    /** The validated JSON text (the result's content). */
    public String content() {
        return result.content();
    }

    /**
     * Whether the answer was cut off at the token limit (finish reason {@code LENGTH}): its content is the partial
     * output, unvalidated, and its report {@linkplain ValidationReport#cutOff says so}.
     */
    public boolean cutOff() {
        return validation.isCutOff();
    }

    /** Whether the answer passed the constraint pipeline and every rule. */
    public boolean valid() {
        return validation.valid() && rules.map(RuleReport::passed).orElse(true);
    }
}
