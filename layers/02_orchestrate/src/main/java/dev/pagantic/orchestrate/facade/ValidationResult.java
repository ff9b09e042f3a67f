package dev.pagantic.orchestrate.facade;

import static dev.pagantic.core.Preconditions.require;
import static dev.pagantic.core.Preconditions.requireElements;
import static dev.pagantic.core.Preconditions.requireNonNull;
import static dev.pagantic.core.Preconditions.requireText;

import dev.pagantic.constraint.PipelineStep;
import dev.pagantic.constraint.ValidationReport;
import dev.pagantic.constraint.Violation;
import dev.pagantic.core.Preconditions;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.OptionalDouble;

/**
 * A summary of the constraint and rule validation of one request (seed 001's {@code ValidationResult}: "pass/fail
 * counts, repair attempts, and any remaining violations"), carried in {@link SystemResponse#validationResult()}.
 *
 * <p>A <em>check</em> is one verdict on the output: a grammar-conformance check, the JSON-validity check, the schema
 * validation, a validation rule. Transformations (JSON repair, enum normalisation) are steps that run but are not
 * checks. A check fails when it leaves at least one violation, so {@code failed} is zero exactly when
 * {@code violations} is empty; {@link #passRate()} is what a "validation" confidence reports.
 *
 * <p>With {@link OutputContract#strictValidation()} false, a response may carry output together with a result whose
 * violations are not empty; with it true, such output is an error instead.
 *
 * @param passed         the checks that passed
 * @param failed         the checks that failed
 * @param repairAttempts how many times JSON repair ran
 * @param repaired       whether repair changed the output
 * @param stepsRun       the names of the steps that ran, in order: {@code grammar_check}, {@code json_check},
 *                       {@code repair}, {@code enum_normalization}, {@code schema_validation} for the constraint
 *                       pipeline, and the names of validation rules
 * @param violations     what is still wrong with the output; empty when it conforms
 */
public record ValidationResult(int passed, int failed, int repairAttempts, boolean repaired, List<String> stepsRun,
                               List<ValidationViolation> violations) {

    public ValidationResult {
        require(passed >= 0, "passed must not be negative: ", passed);
        require(failed >= 0, "failed must not be negative: ", failed);
        require(repairAttempts >= 0, "repairAttempts must not be negative: ", repairAttempts);
        require(!repaired || repairAttempts > 0, "a repaired output needs at least one repair attempt");
        stepsRun = requireElements(stepsRun, "stepsRun");
        stepsRun.forEach(step -> requireText(step, "step name"));
        violations = requireElements(violations, "violations");
        require((failed == 0) == violations.isEmpty(),
                "failed checks and remaining violations must agree: " + failed + " failed, " + violations.size()
                        + " violations");
    }

    /**
     * The summary of one run of the constraint pipeline. The checks are the grammar check (when it ran; failed when a
     * {@code grammar} violation remains), the JSON check (passed: a report exists only for output that parsed,
     * possibly after repair) and the schema validation (failed when any other violation remains). Repair counts as
     * one attempt when it ran.
     */
    public static ValidationResult from(ValidationReport report) {
        requireNonNull(report, "report");
        List<Violation> remaining = report.violations();
        boolean grammarFailed = remaining.stream().anyMatch(v -> v.keyword().equals(Violation.GRAMMAR));
        boolean schemaFailed = remaining.stream().anyMatch(v -> !v.keyword().equals(Violation.GRAMMAR));
        int passed = 0;
        int failed = 0;
        for (PipelineStep step : report.steps()) {
            switch (step) {
                case GRAMMAR_CHECK -> {
                    if (grammarFailed) {
                        failed++;
                    } else {
                        passed++;
                    }
                }
                case JSON_CHECK -> passed++;
                case SCHEMA_VALIDATION -> {
                    if (schemaFailed) {
                        failed++;
                    } else {
                        passed++;
                    }
                }
                case REPAIR, ENUM_NORMALIZATION -> {
                    // transformations, not checks
                }
            }
        }
        // Violations the report holds without the step that finds them (not produced by the pipeline) still count.
        if (failed == 0 && !remaining.isEmpty()) {
            failed = 1;
        }
        return new ValidationResult(passed, failed, report.ran(PipelineStep.REPAIR) ? 1 : 0, report.repaired(),
                report.steps().stream().map(ValidationResult::stepName).toList(),
                remaining.stream().map(ValidationViolation::from).toList());
    }

    /** The facade's name of a constraint-pipeline step: its constant name in lower case. */
    public static String stepName(PipelineStep step) {
        return requireNonNull(step, "step").name().toLowerCase(Locale.ROOT);
    }

    /** Whether every check passed (no violations remain). */
    public boolean valid() {
        return failed == 0;
    }

    /** The share of checks that passed, in [0, 1]; empty when no check ran. */
    public OptionalDouble passRate() {
        int total = passed + failed;
        return total == 0 ? OptionalDouble.empty() : OptionalDouble.of((double) passed / total);
    }

    /**
     * The combined summary of this validation and a further one of the same output (the constraint pipeline, then
     * the validation rules): counts and repair attempts summed, steps and violations concatenated in order. (For a
     * retry, which produces a new output, report the retry's own result instead, since the earlier violations no
     * longer remain.)
     */
    public ValidationResult plus(ValidationResult later) {
        requireNonNull(later, "later");
        List<String> steps = new ArrayList<>(stepsRun);
        steps.addAll(later.stepsRun);
        List<ValidationViolation> remaining = new ArrayList<>(violations);
        remaining.addAll(later.violations);
        return new ValidationResult(Math.addExact(passed, later.passed), Math.addExact(failed, later.failed),
                Math.addExact(repairAttempts, later.repairAttempts), repaired || later.repaired, steps, remaining);
    }
}
