package dev.pagantic.orchestrate.facade;

import static dev.pagantic.core.Preconditions.requireNonNull;

import dev.pagantic.constraint.Violation;
import dev.pagantic.core.Preconditions;

/**
 * One thing still wrong with an output after validation, an entry of {@link ValidationResult#violations()}.
 *
 * @param path    where in the output: a JSON path such as {@code $.items[0].name}, {@code $} for the whole output
 * @param keyword what kind of check failed: a JSON Schema keyword ({@code required}, {@code enum}, ...),
 *                {@code grammar}, or a validation rule's name; may be empty
 * @param message the human-readable description
 */
public record ValidationViolation(String path, String keyword, String message) {

    public ValidationViolation {
        requireNonNull(path, "path");
        requireNonNull(keyword, "keyword");
        requireNonNull(message, "message");
    }

    /** The facade's view of a constraint-pipeline violation. */
    public static ValidationViolation from(Violation violation) {
        requireNonNull(violation, "violation");
        return new ValidationViolation(violation.path(), violation.keyword(), violation.message());
    }

    @Override
    public String toString() {
        return path + ": " + message;
    }
}
