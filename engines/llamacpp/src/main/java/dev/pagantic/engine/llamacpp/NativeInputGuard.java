package dev.pagantic.engine.llamacpp;

import dev.pagantic.core.ErrorCode;
import dev.pagantic.core.PaganticException;
import dev.pagantic.inference.Request;
import java.util.Locale;

/**
 * Refuses, in Java and before any native call, the request values that the inference layer accepts but
 * java-llama.cpp 4.2.0 cannot take. Each rule comes from a child-JVM probe ({@code NativeSafetyTest}):
 * <ul>
 *   <li><b>A temperature beyond the float range</b> (say {@code 1e300}) becomes an infinite float, which the binding
 *       writes into its JSON parameters as {@code Infinity}; the native JSON parser throws, nothing catches it, and
 *       the JVM aborts (SIGABRT). {@code CONFIG_INVALID}. (Sampling options get the same rule in
 *       {@link RequestOptions}.)</li>
 *   <li><b>A grammar terminal that can match U+0000</b> ({@code "a\x00b"}, {@code [\x00]}, {@code "\u0000"}): native
 *       code uses code point 0 as its end-of-text marker, so the sampler picks a token that the grammar then cannot
 *       accept, and llama.cpp's uncaught {@code runtime_error} aborts the JVM. {@code CONFIG_GRAMMAR_INVALID}.</li>
 *   <li><b>A NUL character in the grammar text</b>: native code takes it for the end of the grammar, fails to parse
 *       the rest and generates unconstrained text, which a token-limited answer would return unchecked.
 *       {@code CONFIG_GRAMMAR_INVALID}.</li>
 *   <li><b>A surrogate in the grammar</b> (a lone one, or an escaped {@code \uD800}): no character can match it, so
 *       the output would fail as {@code CONSTRAINT_GRAMMAR_REJECTED}, a retryable output error, for what is a
 *       configuration error. {@code CONFIG_GRAMMAR_INVALID}.</li>
 * </ul>
 * A negated class ({@code [^"]}) is allowed although it formally covers U+0000: the generated JSON grammars use such
 * classes, and the probes show no token that native code can pick for it.
 */
final class NativeInputGuard {

    private NativeInputGuard() {
    }

    /**
     * Checks the request's values that reach native code unchanged.
     *
     * @throws PaganticException {@code CONFIG_INVALID} for a temperature beyond the float range,
     *                           {@code CONFIG_GRAMMAR_INVALID} for a grammar native code cannot take
     */
    static void requireSafe(Request request) {
        request.settings().temperature().ifPresent(t -> {
            if (!Float.isFinite((float) t)) {
                throw PaganticException.builder(ErrorCode.CONFIG_INVALID, "temperature " + t + " is beyond the "
                        + "float range of the llama.cpp sampler").detail("temperature", t).build();
            }
        });
        if (request.hasGrammar()) {
            requireSafeGrammar(request.grammar().get().text());
        }
    }

    /**
     * Scans the terminals of a grammar (already parsed by the inference layer) for code points native code cannot
     * take. Comments are skipped; string literals and character classes are decoded with GBNF's escapes.
     */
    static void requireSafeGrammar(String grammar) {
        if (grammar.indexOf('\0') >= 0) {
            throw refused(grammar.indexOf('\0'), "holds a NUL character, which native code takes for the end of "
                    + "the grammar");
        }
        int i = 0;
        while (i < grammar.length()) {
            char c = grammar.charAt(i);
            if (c == '#') {
                while (i < grammar.length() && grammar.charAt(i) != '\n') {
                    i++;
                }
            } else if (c == '"') {
                i = terminal(grammar, i + 1, '"', false);
            } else if (c == '[') {
                boolean negated = i + 1 < grammar.length() && grammar.charAt(i + 1) == '^';
                i = terminal(grammar, negated ? i + 2 : i + 1, ']', negated);
            } else {
                requireNotSurrogate(grammar, i, c);
            }
            i++;
        }
    }

    /** Checks a literal or class body from {@code start}; returns the index of its closing character. */
    private static int terminal(String grammar, int start, char close, boolean negated) {
        int i = start;
        while (i < grammar.length() && grammar.charAt(i) != close) {
            int at = i;
            int codePoint;
            if (grammar.charAt(i) == '\\' && i + 1 < grammar.length()) {
                int digits = switch (grammar.charAt(i + 1)) {
                    case 'x' -> 2;
                    case 'u' -> 4;
                    case 'U' -> 8;
                    default -> 0;
                };
                if (digits > 0 && i + 2 + digits <= grammar.length()) {
                    codePoint = hex(grammar.substring(i + 2, i + 2 + digits));
                    i += 2 + digits;
                } else {
                    codePoint = grammar.charAt(i + 1);
                    i += 2;
                }
            } else {
                requireNotSurrogate(grammar, i, grammar.charAt(i));
                codePoint = grammar.codePointAt(i);
                i += Character.charCount(codePoint);
            }
            if (codePoint >= Character.MIN_SURROGATE && codePoint <= Character.MAX_SURROGATE) {
                throw refused(at, "names the surrogate U+" + Integer.toHexString(codePoint).toUpperCase(Locale.ROOT)
                        + ", which no character matches");
            }
            if (codePoint == 0 && !negated) {
                throw refused(at, "lets a terminal match U+0000, which native code cannot generate (it aborts the "
                        + "JVM)");
            }
        }
        return i;
    }

    private static void requireNotSurrogate(String grammar, int i, char c) {
        if (Character.isHighSurrogate(c) && i + 1 < grammar.length()
                && Character.isLowSurrogate(grammar.charAt(i + 1))) {
            return;
        }
        if (Character.isLowSurrogate(c) && i > 0 && Character.isHighSurrogate(grammar.charAt(i - 1))) {
            return;
        }
        if (Character.isSurrogate(c)) {
            throw refused(i, "holds a lone surrogate, which is no character");
        }
    }

    private static int hex(String digits) {
        try {
            return Integer.parseUnsignedInt(digits, 16);
        } catch (NumberFormatException notHex) {
            return -1; // the inference layer's parser has accepted the grammar; leave odd escapes to it
        }
    }

    private static PaganticException refused(int offset, String why) {
        return PaganticException.builder(ErrorCode.CONFIG_GRAMMAR_INVALID, "the grammar " + why + " (offset "
                + offset + ")").detail("offset", offset).build();
    }
}
