package dev.pagantic.inference.grammar;

import java.math.BigDecimal;
import java.util.Iterator;
import java.util.List;
import java.util.Map;
import java.util.Random;

/**
 * Test support: the canonical serialisation of a JSON value made of {@link Map}s (in iteration order),
 * {@link List}s, {@link String}s, {@link Long}s and {@link Integer}s, {@link BigDecimal}s, {@link Boolean}s and
 * {@code null}.
 *
 * <p>Canonical means compact (no whitespace), strings escaped as JSON requires and nothing more ({@code "} and
 * {@code \}, the short escapes {@code \b \f \n \r \t}, other control characters and DEL as lower-case
 * {@code \}{@code u00xx}; everything else, supplementary characters included, written as itself), integers in
 * decimal and decimals by {@link BigDecimal#toString()} (plain, or scientific with one integer digit and an
 * {@code E+n}/{@code E-n} exponent). DEL is escaped because the generated grammar's string character class excludes
 * it raw, as llama.cpp's json.gbnf does. Numbers stay inside the generated grammar's limits (at most 16 integer
 * digits, 16 fraction digits and 4 exponent digits) when the instance generator keeps unscaled values below
 * 10<sup>16</sup> and scales in [-20, 16]: see {@link SchemaArbitraries}.
 *
 * <p>{@link #write(Object, Random)} writes the same tokens with random whitespace between them, of the kinds the
 * generated grammar allows at each token boundary: none, one space, or a newline and up to 20 spaces and tabs.
 */
final class CanonicalJson {

    private final Random whitespace; // null: canonical

    private CanonicalJson(Random whitespace) {
        this.whitespace = whitespace;
    }

    /** The compact canonical serialisation. */
    static String write(Object value) {
        StringBuilder out = new StringBuilder();
        new CanonicalJson(null).value(value, out);
        return out.toString();
    }

    /** The canonical tokens with random grammar-allowed whitespace between them. */
    static String write(Object value, Random whitespace) {
        StringBuilder out = new StringBuilder();
        new CanonicalJson(whitespace).value(value, out);
        return out.toString();
    }

    /** The JSON text of a string: the canonical escapes described above. */
    static String string(String value) {
        StringBuilder out = new StringBuilder();
        string(value, out);
        return out.toString();
    }

    private void value(Object value, StringBuilder out) {
        if (value == null) {
            out.append("null");
        } else if (value instanceof Map<?, ?> map) {
            out.append('{');
            ws(out);
            Iterator<? extends Map.Entry<?, ?>> entries = map.entrySet().iterator();
            while (entries.hasNext()) {
                Map.Entry<?, ?> entry = entries.next();
                string((String) entry.getKey(), out);
                ws(out);
                out.append(':');
                ws(out);
                value(entry.getValue(), out);
                ws(out);
                if (entries.hasNext()) {
                    out.append(',');
                    ws(out);
                }
            }
            out.append('}');
        } else if (value instanceof List<?> list) {
            out.append('[');
            ws(out);
            for (int i = 0; i < list.size(); i++) {
                value(list.get(i), out);
                ws(out);
                if (i + 1 < list.size()) {
                    out.append(',');
                    ws(out);
                }
            }
            out.append(']');
        } else if (value instanceof String text) {
            string(text, out);
        } else if (value instanceof BigDecimal decimal) {
            out.append(decimal);
        } else if (value instanceof Long || value instanceof Integer || value instanceof Boolean) {
            out.append(value);
        } else {
            throw new IllegalArgumentException("not a JSON value: " + value.getClass());
        }
    }

    private void ws(StringBuilder out) {
        if (whitespace == null) {
            return;
        }
        switch (whitespace.nextInt(4)) {
            case 0 -> out.append(' ');
            case 1 -> {
                out.append('\n');
                int indent = whitespace.nextInt(21);
                for (int i = 0; i < indent; i++) {
                    out.append(whitespace.nextInt(4) == 0 ? '\t' : ' ');
                }
            }
            default -> { } // none, half of the time
        }
    }

    private static void string(String value, StringBuilder out) {
        out.append('"');
        value.codePoints().forEach(c -> {
            switch (c) {
                case '"' -> out.append("\\\"");
                case '\\' -> out.append("\\\\");
                case '\b' -> out.append("\\b");
                case '\f' -> out.append("\\f");
                case '\n' -> out.append("\\n");
                case '\r' -> out.append("\\r");
                case '\t' -> out.append("\\t");
                default -> {
                    if (c < 0x20 || c == 0x7f) {
                        out.append(String.format("\\u%04x", c));
                    } else {
                        out.appendCodePoint(c);
                    }
                }
            }
        });
        out.append('"');
    }
}
