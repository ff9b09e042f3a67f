package dev.pagantic.engine.llamacpp;

/**
 * A reversible encoding of text into the Basic Multilingual Plane, for strings that make a round trip through the
 * binding's {@code applyTemplate}: the rendered prompt comes back through JNI's modified UTF-8, which garbles
 * characters beyond U+FFFF (an emoji) and the rest of the string after them. Before the trip each such character
 * becomes three private-use characters, and the private-use escape character itself two, and after it
 * {@link #decode} restores them. Lone surrogates, which are no characters and would abort the native JSON parser,
 * become U+FFFD.
 */
final class BmpCodec {

    private static final char ESCAPE = '\uE000';
    private static final char ESCAPED_ESCAPE = '\uE001';
    private static final char HIGH_BASE = '\uE400';
    private static final char LOW_BASE = '\uE800';
    private static final int TEN_BITS = 0x3FF;

    private BmpCodec() {
    }

    static String encode(String text) {
        StringBuilder out = new StringBuilder(text.length());
        for (int i = 0; i < text.length(); i++) {
            char c = text.charAt(i);
            if (c == ESCAPE) {
                out.append(ESCAPE).append(ESCAPED_ESCAPE);
            } else if (Character.isHighSurrogate(c) && i + 1 < text.length()
                    && Character.isLowSurrogate(text.charAt(i + 1))) {
                int offset = Character.toCodePoint(c, text.charAt(++i)) - Character.MIN_SUPPLEMENTARY_CODE_POINT;
                out.append(ESCAPE).append((char) (HIGH_BASE + (offset >> 10))).append((char) (LOW_BASE + (offset & TEN_BITS)));
            } else if (Character.isSurrogate(c)) {
                out.append('\uFFFD');
            } else {
                out.append(c);
            }
        }
        return out.toString();
    }

    static String decode(String text) {
        StringBuilder out = new StringBuilder(text.length());
        for (int i = 0; i < text.length(); i++) {
            char c = text.charAt(i);
            if (c == ESCAPE && i + 1 < text.length() && text.charAt(i + 1) == ESCAPED_ESCAPE) {
                out.append(ESCAPE);
                i++;
            } else if (c == ESCAPE && i + 2 < text.length() && isHigh(text.charAt(i + 1)) && isLow(text.charAt(i + 2))) {
                int offset = ((text.charAt(i + 1) - HIGH_BASE) << 10) | (text.charAt(i + 2) - LOW_BASE);
                out.appendCodePoint(Character.MIN_SUPPLEMENTARY_CODE_POINT + offset);
                i += 2;
            } else {
                out.append(c);
            }
        }
        return out.toString();
    }

    private static boolean isHigh(char c) {
        return c >= HIGH_BASE && c <= HIGH_BASE + TEN_BITS;
    }

    private static boolean isLow(char c) {
        return c >= LOW_BASE && c <= LOW_BASE + TEN_BITS;
    }
}
