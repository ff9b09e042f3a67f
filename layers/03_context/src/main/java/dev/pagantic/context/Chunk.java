package dev.pagantic.context;

import dev.pagantic.core.ErrorCode;
import dev.pagantic.core.PaganticException;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Objects;

/**
 * A piece of content with its provenance: what retrievers index and return, and what a {@link ContextBuilder}
 * renders. An unsplit document is one chunk; {@link DocumentSplitter} cuts a long one into several.
 *
 * @param content  the text
 * @param source   where the text comes from (a file name, a URL, a document id), shown to the model for provenance
 * @param score    the relevance a retriever gave it for the query, higher is better; what it means depends on the
 *                 retriever (a BM25 score, a cosine similarity). Zero for a chunk that has not been retrieved
 * @param metadata anything else worth carrying (offsets, page numbers, authors); an immutable copy, in the given order,
 *                 with no null keys or values
 */
public record Chunk(String content, String source, double score, Map<String, Object> metadata) {

    /** Checks the fields and copies the metadata; {@code CONFIG_INVALID} for a NaN score or null metadata entries. */
    public Chunk {
        Objects.requireNonNull(content, "content");
        Objects.requireNonNull(source, "source");
        Objects.requireNonNull(metadata, "metadata");
        if (Double.isNaN(score)) {
            throw PaganticException.of(ErrorCode.CONFIG_INVALID, "chunk score must be a number, not NaN");
        }
        LinkedHashMap<String, Object> copy = new LinkedHashMap<>();
        metadata.forEach((key, value) -> {
            if (key == null || value == null) {
                throw PaganticException.builder(ErrorCode.CONFIG_INVALID,
                        "chunk metadata must not hold null keys or values").detail("source", source).build();
            }
            copy.put(key, value);
        });
        metadata = Collections.unmodifiableMap(copy);
    }

    /** A chunk with no score and no metadata. */
    public static Chunk of(String content, String source) {
        return new Chunk(content, source, 0.0, Map.of());
    }

    /** A chunk with no score and the given metadata. */
    public static Chunk of(String content, String source, Map<String, ?> metadata) {
        return new Chunk(content, source, 0.0, new LinkedHashMap<String, Object>(metadata));
    }

    /** This chunk with the given score (what a retriever returns). */
    public Chunk withScore(double newScore) {
        return new Chunk(content, source, newScore, metadata);
    }
}
