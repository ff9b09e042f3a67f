package dev.pagantic.constraint;

import dev.pagantic.core.ErrorCode;
import dev.pagantic.core.PaganticException;
import tools.jackson.core.JacksonException;
import tools.jackson.core.StreamReadConstraints;
import tools.jackson.core.TokenStreamLocation;
import tools.jackson.core.json.JsonFactory;
import tools.jackson.databind.DeserializationFeature;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.cfg.JsonNodeFeature;
import tools.jackson.databind.json.JsonMapper;

/**
 * Strict JSON reading shared by this layer: RFC 8259 only (no comments, no single quotes, no trailing tokens, no
 * byte order mark), numbers kept exactly ({@code 1.10} stays {@code 1.10}), nesting limited to
 * {@link JsonRepair#DEFAULT_MAX_DEPTH}. Immutable and thread-safe.
 */
final class JsonText {

    /** Jackson 3 mappers are immutable and thread-safe. */
    static final JsonMapper MAPPER = JsonMapper.builder(JsonFactory.builder()
                    .streamReadConstraints(StreamReadConstraints.builder()
                            .maxNestingDepth(JsonRepair.DEFAULT_MAX_DEPTH).build())
                    .build())
            .enable(DeserializationFeature.FAIL_ON_TRAILING_TOKENS)
            .enable(JsonNodeFeature.USE_BIG_DECIMAL_FOR_FLOATS)
            .disable(JsonNodeFeature.STRIP_TRAILING_BIGDECIMAL_ZEROES)
            .build();

    private JsonText() {
    }

    /** Whether the text is one strictly valid JSON value, optionally surrounded by JSON whitespace. */
    static boolean isValid(String text) {
        if (text.startsWith("\uFEFF")) {
            return false; // RFC 8259 §8.1: a BOM is not part of JSON text
        }
        try {
            JsonNode node = MAPPER.readTree(text);
            return node != null && !node.isMissingNode();
        } catch (JacksonException invalid) {
            return false;
        }
    }

    /** Reads strictly valid JSON; anything else is {@code CONSTRAINT_JSON_INVALID} with its position. */
    static JsonNode read(String text) {
        if (text.startsWith("\uFEFF")) {
            throw invalid(text, 0, "a byte order mark is not part of JSON text", null);
        }
        try {
            JsonNode node = MAPPER.readTree(text);
            if (node == null || node.isMissingNode()) {
                throw invalid(text, text.length(), "no JSON value", null);
            }
            return node;
        } catch (JacksonException error) {
            TokenStreamLocation location = error.getLocation();
            long offset = location == null ? -1 : location.getCharOffset();
            int at = offset < 0 ? 0 : (int) Math.min(offset, text.length());
            throw invalid(text, at, error.getOriginalMessage(), error);
        }
    }

    /** {@code CONSTRAINT_JSON_INVALID} naming the offset, line and column (both 1-based) in {@code text}. */
    static PaganticException invalid(String text, int offset, String reason, Throwable cause) {
        int line = 1;
        int column = 1;
        for (int i = 0; i < offset && i < text.length(); i++) {
            if (text.charAt(i) == '\n') {
                line++;
                column = 1;
            } else {
                column++;
            }
        }
        return PaganticException.builder(ErrorCode.CONSTRAINT_JSON_INVALID,
                        "invalid JSON at line " + line + ", column " + column + ": " + reason)
                .detail("offset", offset).detail("line", line).detail("column", column).detail("reason", reason)
                .cause(cause).build();
    }
}
