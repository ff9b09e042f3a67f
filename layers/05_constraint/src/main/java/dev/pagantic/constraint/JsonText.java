package dev.pagantic.constraint;

import dev.pagantic.core.ErrorCode;
import dev.pagantic.core.PaganticException;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.jspecify.annotations.Nullable;
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
 * {@link JsonRepair#DEFAULT_MAX_DEPTH}. A number Jackson cannot hold as a {@code BigDecimal} (an exponent beyond the
 * {@code int} range, such as {@code 1E33333333333333}) is refused as invalid JSON too: it is valid RFC 8259 syntax,
 * but no later step could read it. Immutable and thread-safe.
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

    /** A number whose exponent has at least 10 digits, that is, may be beyond the {@code int} range. */
    private static final Pattern HUGE_EXPONENT = Pattern.compile("-?\\d+(?:\\.\\d+)?[eE][+-]?\\d{10,}");

    private JsonText() {
    }

    /** Whether the text is one strictly valid JSON value, optionally surrounded by JSON whitespace. */
    static boolean isValid(String text) {
        return readIfValid(text) != null;
    }

    /** The value of strictly valid JSON text, or null for anything else (no exception, no position). */
    static @Nullable JsonNode readIfValid(String text) {
        if (text.startsWith("\uFEFF")) {
            return null; // RFC 8259 §8.1: a BOM is not part of JSON text
        }
        if (!canStartAValue(text)) {
            return null; // prose or a Markdown fence, the usual case before repair: no parser exception to build
        }
        try {
            JsonNode node = MAPPER.readTree(text);
            return node == null || node.isMissingNode() ? null : node;
        } catch (JacksonException | NumberFormatException invalid) {
            // NumberFormatException: found by JsonRepairFuzzTest (seed number-exponent-out-of-range); Jackson throws
            // it unwrapped for a float whose exponent exceeds BigDecimal's range.
            return null;
        }
    }

    /** Whether the first character after JSON whitespace can begin a JSON value. */
    private static boolean canStartAValue(String text) {
        for (int i = 0; i < text.length(); i++) {
            char c = text.charAt(i);
            if (c != ' ' && c != '\t' && c != '\n' && c != '\r') {
                return c == '{' || c == '[' || c == '"' || c == '-' || c >= '0' && c <= '9' || c == 't' || c == 'f'
                        || c == 'n';
            }
        }
        return false;
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
        } catch (NumberFormatException outOfRange) {
            throw invalid(text, offsetOfNumber(text), "a number is out of the supported range: "
                    + outOfRange.getMessage(), outOfRange);
        }
    }

    /**
     * Where the number Jackson could not hold starts: the first number whose exponent has more digits than an
     * {@code int} exponent can, or 0 when none is found (Jackson's exception does not say where).
     */
    private static int offsetOfNumber(String text) {
        Matcher matcher = HUGE_EXPONENT.matcher(text);
        return matcher.find() ? matcher.start() : 0;
    }

    /** {@code CONSTRAINT_JSON_INVALID} naming the offset, line and column (both 1-based) in {@code text}. */
    static PaganticException invalid(String text, int offset, String reason, @Nullable Throwable cause) {
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
