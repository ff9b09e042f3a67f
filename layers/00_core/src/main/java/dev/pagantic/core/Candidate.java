package dev.pagantic.core;

import static dev.pagantic.core.Preconditions.require;
import static dev.pagantic.core.Preconditions.requireNonNull;

import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * A piece of content with its provenance and a score: a retrieved chunk, an item to rerank, a generated answer to vote
 * on. The one candidate type of pagantic: retrievers return candidates, rerankers reorder them, plan steps pass them
 * on, and voting reports them, so nothing is converted on the way.
 *
 * <p>What {@link #score()} means depends on who produced it: a retrieval score (BM25, cosine similarity) for a
 * retrieved chunk, a relevance score for a reranked candidate, a vote share for a voting candidate; zero for content
 * nobody scored yet. Compare scores only between candidates from the same producer.
 *
 * @param content  the text
 * @param source   where the text comes from (a file name, a URL, a document id), shown to the model for provenance; may
 *                 be empty
 * @param score    the producer's score, higher is better; a number, never NaN
 * @param metadata anything else worth carrying (offsets, page numbers, authors); an immutable copy, in the given order,
 *                 with no null keys or values
 */
public record Candidate(String content, String source, double score, Map<String, Object> metadata) {

    /** Checks the fields and copies the metadata; {@code CONFIG_INVALID} for nulls or a NaN score. */
    public Candidate {
        requireNonNull(content, "candidate content");
        requireNonNull(source, "candidate source");
        requireNonNull(metadata, "candidate metadata");
        require(!Double.isNaN(score), "candidate score must be a number, not NaN");
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
        return new Candidate(content, source, 0.0, Map.of());
    }

    /** A candidate with the given score and no metadata. */
    public static Candidate of(String content, String source, double score) {
        return new Candidate(content, source, score, Map.of());
    }

    /** A candidate with score 0 and the given metadata. */
    public static Candidate of(String content, String source, Map<String, ?> metadata) {
        return new Candidate(content, source, 0.0, new LinkedHashMap<String, Object>(metadata));
    }

    /** This candidate with another score (what a retriever, a scorer or a vote gives it). */
    public Candidate withScore(double newScore) {
        return new Candidate(content, source, newScore, metadata);
    }
}
