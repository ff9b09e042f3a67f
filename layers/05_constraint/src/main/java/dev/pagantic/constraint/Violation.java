package dev.pagantic.constraint;

import java.util.Objects;

/**
 * One way an output fails its constraints.
 *
 * @param path    where, as a JSON path into the instance ({@code $}, {@code $.items[0].status}); for a missing
 *                required property, the path the property would have; for a grammar rejection, {@code $}
 * @param keyword the rule that failed: a JSON Schema keyword ({@code required}, {@code enum}, {@code type},
 *                {@code additionalProperties}...) or {@code grammar}
 * @param message a human-readable description (not stable: do not parse it)
 */
public record Violation(String path, String keyword, String message) {

    /** The keyword of a grammar rejection. */
    public static final String GRAMMAR = "grammar";

    /** The keyword of output cut off at the token limit, which is never validated (see {@link ValidationReport#cutOff}). */
    public static final String CUT_OFF = "cut-off";

    public Violation {
        Objects.requireNonNull(path, "path");
        Objects.requireNonNull(keyword, "keyword");
        Objects.requireNonNull(message, "message");
    }

    /** Whether this is an enum violation (a value outside the allowed set). */
    public boolean isEnum() {
        return keyword.equals("enum");
    }

    @Override
    public String toString() {
        return path + ": " + message;
    }
}
