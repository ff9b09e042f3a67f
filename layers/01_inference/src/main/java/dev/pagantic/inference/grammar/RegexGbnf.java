package dev.pagantic.inference.grammar;

import dev.pagantic.core.ErrorCode;
import dev.pagantic.core.PaganticException;
import java.util.ArrayList;
import java.util.List;

/**
 * Compiles a JSON Schema {@code pattern} (an ECMA-262 regular expression) into GBNF for the content of a JSON string,
 * so that the decoder can only write strings the pattern matches.
 *
 * <p>The subset a grammar can express is accepted: literals and escapes, {@code .}, character classes (ranges,
 * negation, {@code \d \w \s} and their negations), groups ({@code (...)}, {@code (?:...)}, {@code (?<name>...)}),
 * alternation, the quantifiers {@code * + ? {n} {n,} {n,m}} (lazy or not: the language is the same), and the anchors
 * {@code ^} and {@code $} at the start and end of a top-level alternative. JSON Schema patterns are not anchored, so an
 * alternative without {@code ^} may be preceded, and one without {@code $} followed, by any characters. Everything
 * else (back-references, look-around, word boundaries, anchors elsewhere, Unicode property escapes) cannot be a
 * context-free grammar and is refused with {@code CONFIG_INVALID}, saying so. Character classes have the meaning
 * the validator gives them (Java's regular expressions, which networknt uses): {@code \d}, {@code \w} and {@code \s}
 * are ASCII, and {@code .} excludes the line terminators.
 *
 * <p>Characters are written as JSON requires inside a string: {@code "} and the backslash escaped, controls as
 * escapes. A quantifier bound above {@value GbnfParser#MAX_REPETITIONS} (llama.cpp's limit) is widened to an
 * unbounded repetition, and the pattern is then also checked after generation ({@link #exact()} is false).
 */
final class RegexGbnf {

    private static final int MAX_NESTING = 50;
    private static final CodePoints DIGIT = CodePoints.of('0', '9');
    private static final CodePoints WORD = CodePoints.of('0', '9', 'A', 'Z', 'a', 'z', '_', '_');
    private static final CodePoints SPACE = CodePoints.of('\t', '\r', ' ', ' ');
    private static final CodePoints DOT = CodePoints.of('\n', '\n', '\r', '\r', 0x85, 0x85, 0x2028, 0x2029)
            .complement();

    private final String pattern;
    private final String anyChar;
    private int pos;
    private int nesting;
    private boolean exact = true;

    private RegexGbnf(String pattern, String anyChar) {
        this.pattern = pattern;
        this.anyChar = anyChar;
    }

    /**
     * The GBNF expression of the string contents the pattern matches (without the quotes).
     *
     * @param anyChar the rule matching any one character of a JSON string, for the unanchored ends
     * @throws PaganticException {@code CONFIG_INVALID} for a pattern outside the expressible subset
     */
    static RegexGbnf compile(String pattern, String anyChar) {
        RegexGbnf compiler = new RegexGbnf(pattern, anyChar);
        compiler.expression = compiler.topLevel();
        return compiler;
    }

    private String expression;

    /** The GBNF expression of the matching string contents. */
    String expression() {
        return expression;
    }

    /** Whether the expression matches exactly the pattern's strings (no bound was widened). */
    boolean exact() {
        return exact;
    }

    private String topLevel() {
        List<String> alternatives = new ArrayList<>();
        do {
            boolean anchoredStart = peek() == '^';
            if (anchoredStart) {
                pos++;
            }
            String sequence = sequence(true);
            boolean anchoredEnd = peek() == '$';
            if (anchoredEnd) {
                pos++;
            }
            if (pos < pattern.length() && peek() != '|') {
                throw refused("an anchor ('^' or '$') is only supported at the start or end of the pattern");
            }
            String open = anyChar + "*";
            alternatives.add(join(anchoredStart ? "" : open, join(sequence, anchoredEnd ? "" : open)));
        } while (take('|'));
        return group(alternatives);
    }

    private String alternation() {
        List<String> alternatives = new ArrayList<>();
        do {
            alternatives.add(sequence(false));
        } while (take('|'));
        return group(alternatives);
    }

    private String sequence(boolean topLevel) {
        StringBuilder out = new StringBuilder();
        while (pos < pattern.length()) {
            char c = peek();
            if (c == '|' || c == ')' || topLevel && c == '$' && isLastOfAlternative()) {
                break;
            }
            String atom = atom();
            String quantified = quantifier(atom);
            if (!quantified.isEmpty()) {
                out.append(out.length() == 0 ? "" : " ").append(quantified);
            }
        }
        return out.toString();
    }

    /** Whether the '$' at pos ends the current top-level alternative. */
    private boolean isLastOfAlternative() {
        return pos + 1 == pattern.length() || pattern.charAt(pos + 1) == '|';
    }

    private String atom() {
        char c = peek();
        pos++;
        switch (c) {
            case '.':
                return DOT.jsonCharExpression();
            case '[':
                return charClass().jsonCharExpression();
            case '(':
                return groupAtom();
            case '\\':
                return escapeOutsideClass();
            case '^', '$':
                throw refused("an anchor ('^' or '$') is only supported at the start or end of the pattern");
            case '*', '+', '?', '{':
                throw refused("a quantifier needs something to repeat");
            default:
                pos--;
                int codePoint = pattern.codePointAt(pos);
                pos += Character.charCount(codePoint);
                return CodePoints.single(codePoint).jsonCharExpression();
        }
    }

    private String groupAtom() {
        if (take('?')) {
            if (take(':')) {
                // a non-capturing group
            } else if (peek() == '<' && pos + 1 < pattern.length() && pattern.charAt(pos + 1) != '='
                    && pattern.charAt(pos + 1) != '!') {
                int end = pattern.indexOf('>', pos);
                if (end < 0) {
                    throw refused("unterminated group name");
                }
                pos = end + 1;
            } else {
                throw refused("look-around and inline flags ('(?...') cannot be expressed in a grammar");
            }
        }
        if (++nesting > MAX_NESTING) {
            throw refused("groups are nested deeper than " + MAX_NESTING + " levels");
        }
        String inner = alternation();
        nesting--;
        if (!take(')')) {
            throw refused("unbalanced parenthesis");
        }
        return inner.isEmpty() ? "\"\"" : "(" + inner + ")";
    }

    private String quantifier(String atom) {
        int min;
        int max;
        char c = pos < pattern.length() ? peek() : 0;
        if (c == '*') {
            min = 0;
            max = -1;
        } else if (c == '+') {
            min = 1;
            max = -1;
        } else if (c == '?') {
            min = 0;
            max = 1;
        } else if (c == '{' && isBraceQuantifier()) {
            int close = pattern.indexOf('}', pos);
            String[] bounds = pattern.substring(pos + 1, close).split(",", -1);
            min = count(bounds[0]);
            max = bounds.length == 1 ? min : bounds[1].isEmpty() ? -1 : count(bounds[1]);
            pos = close;
        } else {
            return atom;
        }
        pos++;
        take('?'); // lazy: the same strings
        if (max >= 0 && max < min) {
            throw refused("a quantifier's maximum is below its minimum");
        }
        if (min > GbnfParser.MAX_REPETITIONS || max > GbnfParser.MAX_REPETITIONS) {
            exact = false;
            min = Math.min(min, GbnfParser.MAX_REPETITIONS);
            max = -1;
        }
        if (atom.equals("\"\"") || max == 0) {
            return "";
        }
        String item = atom.startsWith("(") || !atom.contains(" ") ? atom : "(" + atom + ")";
        if (min == 0 && max < 0) {
            return item + "*";
        }
        if (min == 1 && max < 0) {
            return item + "+";
        }
        if (min == 0 && max == 1) {
            return item + "?";
        }
        if (min == 1 && max == 1) {
            return item;
        }
        return item + (max < 0 ? "{" + min + ",}" : min == max ? "{" + min + "}" : "{" + min + "," + max + "}");
    }

    private boolean isBraceQuantifier() {
        int close = pattern.indexOf('}', pos);
        return close > pos + 1 && pattern.substring(pos + 1, close).matches("\\d+(,\\d*)?");
    }

    private int count(String digits) {
        return digits.length() > 9 ? Integer.MAX_VALUE : Integer.parseInt(digits);
    }

    private CodePoints charClass() {
        boolean negated = take('^');
        CodePoints set = CodePoints.NONE;
        boolean first = true; // a ']' first in the class is a literal, as Java (the validator's engine) reads it
        while (pos < pattern.length() && (peek() != ']' || first)) {
            CodePoints low = classAtom();
            if (peek() == '-' && pos + 1 < pattern.length() && pattern.charAt(pos + 1) != ']') {
                pos++;
                CodePoints high = classAtom();
                int from = low.only();
                int to = high.only();
                if (from < 0 || to < 0 || to < from) {
                    throw refused("invalid character range in a class");
                }
                set = set.union(CodePoints.of(from, to));
            } else {
                set = set.union(low);
            }
            first = false;
        }
        if (!take(']')) {
            throw refused("unterminated character class");
        }
        return negated ? set.complement() : set;
    }

    private CodePoints classAtom() {
        int c = pattern.codePointAt(pos);
        pos += Character.charCount(c);
        if (c != '\\') {
            return CodePoints.single(c);
        }
        if (pos >= pattern.length()) {
            throw refused("a pattern cannot end with a backslash");
        }
        char e = pattern.charAt(pos);
        if (e == 'b') {
            pos++;
            return CodePoints.single('\b');
        }
        return escape();
    }

    private String escapeOutsideClass() {
        if (pos >= pattern.length()) {
            throw refused("a pattern cannot end with a backslash");
        }
        char e = peek();
        if (e == 'b' || e == 'B') {
            throw refused("word boundaries (\\b, \\B) cannot be expressed in a grammar");
        }
        if (e >= '1' && e <= '9' || e == 'k') {
            throw refused("back-references cannot be expressed in a grammar");
        }
        return escape().jsonCharExpression();
    }

    /** The set of an escape after its backslash (not a back-reference or boundary). */
    private CodePoints escape() {
        char e = peek();
        pos++;
        return switch (e) {
            case 'd' -> DIGIT;
            case 'D' -> DIGIT.complement();
            case 'w' -> WORD;
            case 'W' -> WORD.complement();
            case 's' -> SPACE;
            case 'S' -> SPACE.complement();
            case 't' -> CodePoints.single('\t');
            case 'n' -> CodePoints.single('\n');
            case 'r' -> CodePoints.single('\r');
            case 'f' -> CodePoints.single('\f');
            case 'v' -> CodePoints.single(0x0B);
            case '0' -> CodePoints.single(0);
            case 'x' -> CodePoints.single(hex(2));
            case 'u' -> CodePoints.single(hex(4));
            case 'c' -> {
                char letter = peek();
                pos++;
                yield CodePoints.single(letter % 32);
            }
            case 'p', 'P' -> throw refused("Unicode property escapes (\\p{...}) are not supported");
            default -> {
                if (Character.isLetterOrDigit(e)) {
                    throw refused("unknown escape '\\" + e + "'");
                }
                yield CodePoints.single(e);
            }
        };
    }

    private int hex(int digits) {
        if (pos + digits > pattern.length()) {
            throw refused("expected " + digits + " hex digits");
        }
        try {
            int value = Integer.parseInt(pattern.substring(pos, pos + digits), 16);
            pos += digits;
            return value;
        } catch (NumberFormatException notHex) {
            throw refused("expected " + digits + " hex digits");
        }
    }

    private char peek() {
        return pos < pattern.length() ? pattern.charAt(pos) : 0;
    }

    private boolean take(char c) {
        if (pos < pattern.length() && pattern.charAt(pos) == c) {
            pos++;
            return true;
        }
        return false;
    }

    private static String group(List<String> alternatives) {
        List<String> nonEmpty = alternatives.stream().map(a -> a.isEmpty() ? "\"\"" : a).toList();
        return nonEmpty.size() == 1 ? nonEmpty.get(0) : String.join(" | ", nonEmpty);
    }

    private static String join(String first, String second) {
        return first.isEmpty() ? second : second.isEmpty() ? first : first + " " + second;
    }

    private PaganticException refused(String why) {
        return PaganticException.builder(ErrorCode.CONFIG_INVALID, "pattern '" + pattern + "' is outside the "
                + "regular expressions a grammar can enforce: " + why).detail("pattern", pattern).build();
    }
}
