package dev.pagantic.orchestrate.facade;

import static dev.pagantic.core.Preconditions.invalid;
import static dev.pagantic.core.Preconditions.requireNonNull;

import dev.pagantic.core.Preconditions;
import java.util.Locale;

/**
 * Which mechanism produced a {@link SystemResponse#confidence()} (seed 001's {@code ConfidenceSource}, "voting" |
 * "validation" | "retrieval").
 */
public enum ConfidenceSource {
    /** {@code voting}: the RedundantLoop's consensus (the winner's share of the votes). */
    VOTING("voting"),
    /** {@code validation}: the pass rate of the validation rules and constraint checks. */
    VALIDATION("validation"),
    /** {@code retrieval}: the relevance score of the retrieved context. */
    RETRIEVAL("retrieval");

    private final String wireName;

    ConfidenceSource(String wireName) {
        this.wireName = wireName;
    }

    /** The stable wire name: {@code voting}, {@code validation} or {@code retrieval}. */
    public String wireName() {
        return wireName;
    }

    /**
     * The source with the given wire name, ignoring case and surrounding blanks.
     *
     * @throws dev.pagantic.core.PaganticException {@code CONFIG_INVALID} for an unknown name
     */
    public static ConfidenceSource fromWireName(String name) {
        requireNonNull(name, "confidence source");
        String wanted = name.strip().toLowerCase(Locale.ROOT);
        for (ConfidenceSource source : values()) {
            if (source.wireName.equals(wanted)) {
                return source;
            }
        }
        throw invalid("unknown confidence source '" + name + "': expected voting, validation or retrieval");
    }

    @Override
    public String toString() {
        return wireName;
    }
}
