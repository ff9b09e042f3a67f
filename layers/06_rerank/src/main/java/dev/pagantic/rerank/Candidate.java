package dev.pagantic.rerank;

import dev.pagantic.core.ErrorCode;
import dev.pagantic.core.PaganticException;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Objects;

/**
 * A scored item to rerank: a retrieved chunk, a generated answer, a search hit. Orchestrate keeps a mirrored type with
 * the same fields ({@code RerankCandidate}); the call site converts between the two.
 *
 * @param content  the text that scorers judge
 * @param score    the current score, higher is better; what it means depends on who produced it (a retriever, a
 *                 scorer of this layer, a model). A number, never NaN
 * @param source   where the content comes from
 * @param metadata anything else worth carrying; an immutable copy, in the given order, with no null keys or values
 */
public record Candidate(String content, double score, String source, Map<String, Object> metadata) {

    /** Checks the fields and copies the metadata; {@code CONFIG_INVALID} for a NaN score or null metadata entries. */
    public Candidate {
        Objects.requireNonNull(content, "content");
        Objects.requireNonNull(source, "source");
        Objects.requireNonNull(metadata, "metadata");
        if (Double.isNaN(score)) {
            throw PaganticException.of(ErrorCode.CONFIG_INVALID, "candidate score must be a number, not NaN");
        }
        LinkedHashMap<String, Object> copy = new LinkedHashMap<>();
        metadata.forEach((key, value) -> {
            if (key == null || value == null) {
                throw PaganticException.builder(ErrorCode.CONFIG_INVALID,
                        "candidate metadata must not hold null keys or values").detail("source", source).build();
            }
            copy.put(key, value);
        });
        metadata = Collections.unmodifiableMap(copy);
    }

    /** A candidate with score 0 and no metadata. */
    public static Candidate of(String content, String source) {
        return new Candidate(content, 0.0, source, Map.of());
    }

    /** A candidate with the given score and no metadata. */
    public static Candidate of(String content, double score, String source) {
        return new Candidate(content, score, source, Map.of());
    }

    /** This candidate with another score. */
    public Candidate withScore(double newScore) {
        return new Candidate(content, newScore, source, metadata);
    }
}
