package dev.pagantic.constraint;

import dev.pagantic.core.ErrorCode;
import dev.pagantic.core.PaganticException;
import java.util.List;
import java.util.Objects;
import java.util.Optional;
import java.util.function.Function;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.node.MissingNode;

/**
 * What the {@link ConstraintPipeline} did to one output and what is left wrong with it; it becomes the
 * {@code ValidationResult} of a system response.
 *
 * <p>The parsed value is a Jackson {@link JsonNode} (numbers as exact {@link java.math.BigDecimal}/integer nodes, so
 * {@code 1.10} keeps its scale); {@link #value()} returns a fresh deep copy on every call, so the report stays
 * immutable. The constructor keeps the value it is given without copying it (the pipeline hands over a tree it has
 * just parsed and holds no more): whoever builds a report must not modify that tree afterwards.
 *
 * @param output       the output as the model produced it
 * @param json         the final JSON text: the output itself when it was valid and needed no normalisation
 * @param value        the final JSON parsed
 * @param steps        the steps that ran, in order
 * @param repairs      the fixes the repair step applied; empty when it did not run
 * @param enumChanges  the enum values normalised; empty when none
 * @param violations   what is still wrong (schema violations, a grammar rejection); empty when the output conforms
 */
public record ValidationReport(String output, String json, JsonNode value, List<PipelineStep> steps,
                               List<RepairFix> repairs, List<EnumChange> enumChanges, List<Violation> violations) {

    public ValidationReport {
        Objects.requireNonNull(output, "output");
        Objects.requireNonNull(json, "json");
        Objects.requireNonNull(value, "value");
        steps = List.copyOf(steps);
        repairs = List.copyOf(repairs);
        enumChanges = List.copyOf(enumChanges);
        violations = List.copyOf(violations);
    }

    /**
     * The report on output cut off at the token limit: nothing ran on it (a prefix of JSON is no JSON value, and
     * repairing it would invent the rest), its value is missing, and its one violation says why.
     */
    public static ValidationReport cutOff(String output) {
        return new ValidationReport(output, output, MissingNode.getInstance(), List.of(), List.of(), List.of(),
                List.of(new Violation("$", Violation.CUT_OFF, "the output was cut off at the token limit")));
    }

    /** Whether the output was cut off at the token limit and not validated ({@link #cutOff}). */
    public boolean isCutOff() {
        return violations.size() == 1 && violations.get(0).keyword().equals(Violation.CUT_OFF);
    }

    /** A deep copy of the final JSON value. */
    @Override
    public JsonNode value() {
        return value.deepCopy();
    }

    /**
     * Reads the final JSON value without copying it, for a reader that leaves the tree as it is (a conversion to a
     * Java type): the copy {@link #value()} makes costs as much as the conversion itself.
     */
    public <T> T readValue(Function<? super JsonNode, T> reader) {
        return reader.apply(value);
    }

    /** Whether the output conforms to every constraint (after repair and normalisation). */
    public boolean valid() {
        return violations.isEmpty();
    }

    /** Whether the repair step changed the output. */
    public boolean repaired() {
        return !repairs.isEmpty();
    }

    /** Whether the given step ran. */
    public boolean ran(PipelineStep step) {
        return steps.contains(step);
    }

    /**
     * The error code of the remaining violations: {@code CONSTRAINT_GRAMMAR_REJECTED} if the grammar rejected the
     * output, else {@code CONSTRAINT_ENUM_UNRECOGNIZED} if every violation is an enum violation, else
     * {@code CONSTRAINT_SCHEMA_INVALID}; empty when valid.
     */
    public Optional<ErrorCode> errorCode() {
        return valid() ? Optional.empty() : Optional.of(SchemaValidator.failure(violations).code());
    }

    /** Returns this report if valid, otherwise throws the {@link #errorCode()} with the violations' paths. */
    public ValidationReport requireValid() {
        if (!valid()) {
            throw SchemaValidator.failure(violations);
        }
        return this;
    }

    /** The exception for the remaining violations, if any (for callers that route rather than throw). */
    public Optional<PaganticException> failure() {
        return valid() ? Optional.empty() : Optional.of(SchemaValidator.failure(violations));
    }
}
