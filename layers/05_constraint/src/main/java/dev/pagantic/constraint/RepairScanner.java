package dev.pagantic.constraint;

import dev.pagantic.core.PaganticException;
import java.util.ArrayList;
import java.util.List;

/**
 * The tolerant scanner behind {@link JsonRepair}: a recursive-descent reader of one JSON value from a region of the
 * output that writes strictly valid JSON as it goes, one method per construct. Single use, not thread-safe.
 *
 * <p>Every method that reads a value either writes it completely and returns {@code true}, or, when the output ended
 * before the value was complete (a truncated number or literal, or nothing at all), writes nothing and returns
 * {@code false} so that the enclosing object or array drops the member. Strings and containers are never incomplete:
 * they are closed.
 *
 * <p>Why this file is longer than 500 lines: a recursive-descent reader is one unit. Its methods, one per JSON
 * construct, call each other and share the position, the output and the fixes; split across classes, the recursion
 * and that state would have to be read in several places at once.
 */
final class RepairScanner {

    /** Where a string or value sits; decides what may follow a closing quote. */
    private enum Position { TOP, KEY, OBJECT_VALUE, ARRAY_ELEMENT }

    private static final List<String> LITERALS = List.of("true", "false", "null", "True", "False", "None");

    private final String text;
    private final int end;
    private final int maxDepth;
    private final StringBuilder out = new StringBuilder();
    private final List<RepairFix> fixes = new ArrayList<>();
    private int pos;

    RepairScanner(String text, int start, int end, int maxDepth) {
        this.text = text;
        this.pos = start;
        this.end = end;
        this.maxDepth = maxDepth;
    }

    List<RepairFix> fixes() {
        return fixes;
    }

    /** Reads the value at the start position; text after it is dropped when allowed, otherwise refused. */
    String topLevelValue(boolean trailingTextAllowed) {
        if (!value(0, Position.TOP)) {
            throw fail(pos, "the output ended before a complete JSON value");
        }
        int after = JsonRepair.skipWhitespace(text, pos, end);
        if (after < end) {
            if (!trailingTextAllowed) {
                throw fail(after, "unexpected text after the JSON value");
            }
            fix(RepairKind.REMOVED_SURROUNDING_TEXT, after);
        }
        return out.toString();
    }

    // ------------------------------------------------------------------------------------------------------ values

    private boolean value(int depth, Position position) {
        if (pos >= end) {
            return false;
        }
        char c = text.charAt(pos);
        if (c == '{') {
            return object(depth + 1);
        }
        if (c == '[') {
            return array(depth + 1);
        }
        if (c == '"' || c == '\'') {
            string(c, position);
            return true;
        }
        if (c == '-' || isDigit(c)) {
            return number();
        }
        if (isLetter(c)) {
            return literal();
        }
        throw fail(pos, "expected a JSON value but found '" + c + "'");
    }

    private boolean object(int depth) {
        checkDepth(depth);
        out.append('{');
        pos++;
        int memberStart = out.length();
        int fixMark = fixes.size();
        while (true) {
            copyWhitespace();
            if (pos >= end) {
                return closeTruncated('}');
            }
            if (text.charAt(pos) == '}') {
                return closeWith('}');
            }
            int memberPos = pos;
            if (!key()) {
                return dropIncomplete(memberStart, fixMark, memberPos, '}');
            }
            copyWhitespace();
            if (pos >= end) {
                return dropIncomplete(memberStart, fixMark, memberPos, '}');
            }
            if (text.charAt(pos) != ':') {
                throw fail(pos, "expected ':' after the property name");
            }
            out.append(':');
            pos++;
            copyWhitespace();
            if (!value(depth, Position.OBJECT_VALUE)) {
                return dropIncomplete(memberStart, fixMark, memberPos, '}');
            }
            copyWhitespace();
            if (pos >= end) {
                return closeTruncated('}');
            }
            char c = text.charAt(pos);
            if (c == '}') {
                return closeWith('}');
            }
            if (c != ',') {
                throw fail(pos, "expected ',' or '}' after the property value");
            }
            memberStart = out.length();
            if (commaEndsContainer('}')) {
                return true;
            }
            fixMark = fixes.size();
        }
    }

    private boolean array(int depth) {
        checkDepth(depth);
        out.append('[');
        pos++;
        int elementStart = out.length();
        int fixMark = fixes.size();
        while (true) {
            copyWhitespace();
            if (pos >= end) {
                return closeTruncated(']');
            }
            if (text.charAt(pos) == ']') {
                return closeWith(']');
            }
            int elementPos = pos;
            if (!value(depth, Position.ARRAY_ELEMENT)) {
                return dropIncomplete(elementStart, fixMark, elementPos, ']');
            }
            copyWhitespace();
            if (pos >= end) {
                return closeTruncated(']');
            }
            char c = text.charAt(pos);
            if (c == ']') {
                return closeWith(']');
            }
            if (c != ',') {
                throw fail(pos, "expected ',' or ']' after the array element");
            }
            elementStart = out.length();
            if (commaEndsContainer(']')) {
                return true;
            }
            fixMark = fixes.size();
        }
    }

    /**
     * Handles the comma at {@code pos}: a trailing comma before the closer is removed and the container closed, a
     * dangling comma at the end of the output is removed and the container closed (both return {@code true});
     * otherwise the comma is written and the next member follows ({@code false}).
     */
    private boolean commaEndsContainer(char closer) {
        int commaPos = pos;
        int commaOut = out.length();
        out.append(',');
        pos++;
        copyWhitespace();
        if (pos >= end) {
            out.setLength(commaOut);
            fix(RepairKind.REMOVED_DANGLING_COMMA, commaPos);
            closeTruncated(closer);
            return true;
        }
        if (text.charAt(pos) == closer) {
            out.deleteCharAt(commaOut);
            fix(RepairKind.REMOVED_TRAILING_COMMA, commaPos);
            closeWith(closer);
            return true;
        }
        return false;
    }

    /** Reads a property name: double-quoted, single-quoted or a bare identifier. False when the output ended in it. */
    private boolean key() {
        char c = text.charAt(pos);
        if (c == '"' || c == '\'') {
            return string(c, Position.KEY);
        }
        if (isIdentifierStart(c)) {
            return unquotedKey();
        }
        throw fail(pos, "expected a property name but found '" + c + "'");
    }

    private boolean unquotedKey() {
        int start = pos;
        while (pos < end && isIdentifierPart(text.charAt(pos))) {
            pos++;
        }
        if (pos >= end) {
            return false;
        }
        out.append('"').append(text, start, pos).append('"');
        fix(RepairKind.QUOTED_KEY, start);
        return true;
    }

    /**
     * Reads a string delimited by {@code quote}, writing it double-quoted. Returns whether its closing quote was
     * found; a string the output ended inside is closed (and {@code false} returned).
     */
    private boolean string(char quote, Position position) {
        if (quote == '\'') {
            fix(RepairKind.CONVERTED_SINGLE_QUOTES, pos);
        }
        out.append('"');
        pos++;
        int laterEnd = -1; // a later quote known to end this string: quotes before it are inner quotes
        while (pos < end) {
            char c = text.charAt(pos);
            if (c == '\\') {
                escape();
            } else if (c == quote) {
                if (pos >= laterEnd) {
                    laterEnd = endsString(pos, quote, position) ? pos : laterEndingQuote(pos, quote, position);
                }
                if (laterEnd == pos) {
                    out.append('"');
                    pos++;
                    return true;
                }
                fix(RepairKind.ESCAPED_QUOTE, pos);
                out.append(quote == '"' ? "\\\"" : "'");
                pos++;
            } else if (c == '"') {
                out.append("\\\""); // a double quote inside a single-quoted string
                pos++;
            } else if (c < 0x20) {
                fix(RepairKind.ESCAPED_CONTROL_CHARACTER, pos);
                out.append(controlEscape(c));
                pos++;
            } else {
                out.append(c);
                pos++;
            }
        }
        fix(RepairKind.CLOSED_STRING, end);
        out.append('"');
        return false;
    }

    /** Copies a valid escape; {@code \'} becomes a plain apostrophe; an escape cut off by the end is dropped. */
    private void escape() {
        if (pos + 1 >= end) {
            pos = end; // a lone backslash at the end of truncated output
            return;
        }
        char e = text.charAt(pos + 1);
        if ("\"\\/bfnrt".indexOf(e) >= 0) {
            out.append('\\').append(e);
            pos += 2;
        } else if (e == '\'') {
            fix(RepairKind.CONVERTED_SINGLE_QUOTES, pos);
            out.append('\'');
            pos += 2;
        } else if (e == 'u') {
            unicodeEscape();
        } else {
            throw fail(pos, "invalid escape '\\" + e + "' in a string");
        }
    }

    private void unicodeEscape() {
        int digits = 0;
        while (digits < 4 && pos + 2 + digits < end && isHexDigit(text.charAt(pos + 2 + digits))) {
            digits++;
        }
        if (digits == 4) {
            out.append(text, pos, pos + 6);
            pos += 6;
        } else if (pos + 2 + digits >= end) {
            pos = end; // a \\u escape cut off by the end of truncated output
        } else {
            throw fail(pos, "invalid \\u escape in a string");
        }
    }

    /** Whether the quote at {@code at} ends the string because what follows it fits the string's position. */
    private boolean endsString(int at, char quote, Position position) {
        return position == Position.TOP || position == Position.KEY && quote == '"' || fitsAfterString(at, position);
    }

    /**
     * For a quote at {@code at} that does not fit as the end of the string: the first later quote that does, making
     * this one an inner quote; or {@code at} itself when there is none (so a broken document is not swallowed).
     */
    private int laterEndingQuote(int at, char quote, Position position) {
        for (int later = text.indexOf(quote, at + 1); later >= 0 && later < end;
             later = text.indexOf(quote, later + 1)) {
            if (text.charAt(later - 1) != '\\' && fitsAfterString(later, position)) {
                return later;
            }
        }
        return at;
    }

    private boolean fitsAfterString(int quoteAt, Position position) {
        int next = JsonRepair.skipWhitespace(text, quoteAt + 1, end);
        if (next >= end) {
            return true;
        }
        char c = text.charAt(next);
        switch (position) {
            case KEY:
                return c == ':';
            case OBJECT_VALUE:
                return c == '}' || c == ',' && startsMember(JsonRepair.skipWhitespace(text, next + 1, end));
            case ARRAY_ELEMENT:
                return c == ']' || c == ',' && startsElement(JsonRepair.skipWhitespace(text, next + 1, end));
            default:
                return true;
        }
    }

    private boolean startsMember(int at) {
        if (at >= end) {
            return true;
        }
        char c = text.charAt(at);
        if (c == '"' || c == '\'' || c == '}') {
            return true;
        }
        if (!isIdentifierStart(c)) {
            return false;
        }
        int after = at;
        while (after < end && isIdentifierPart(text.charAt(after))) {
            after++;
        }
        after = JsonRepair.skipWhitespace(text, after, end);
        return after >= end || text.charAt(after) == ':';
    }

    private boolean startsElement(int at) {
        if (at >= end) {
            return true;
        }
        char c = text.charAt(at);
        return c == '"' || c == '\'' || c == '{' || c == '[' || c == ']' || c == '-' || isDigit(c)
                || startsLiteral(at);
    }

    private boolean startsLiteral(int at) {
        for (String literal : LITERALS) {
            if (text.startsWith(literal, at)) {
                return true;
            }
        }
        return false;
    }

    /** Reads a number; false when the output ended inside it ({@code -}, {@code 1.}, {@code 2e}). */
    private boolean number() {
        int start = pos;
        if (text.charAt(pos) == '-') {
            pos++;
        }
        if (!integerPart()) {
            return false;
        }
        if (pos < end && text.charAt(pos) == '.') {
            pos++;
            if (!digits("a digit after the decimal point")) {
                return false;
            }
        }
        if (pos < end && (text.charAt(pos) == 'e' || text.charAt(pos) == 'E')) {
            pos++;
            if (pos < end && (text.charAt(pos) == '+' || text.charAt(pos) == '-')) {
                pos++;
            }
            if (!digits("a digit in the exponent")) {
                return false;
            }
        }
        if (pos < end && (isDigit(text.charAt(pos)) || isLetter(text.charAt(pos)))) {
            throw fail(start, "malformed number");
        }
        out.append(text, start, pos);
        return true;
    }

    private boolean integerPart() {
        if (pos >= end) {
            return false;
        }
        char c = text.charAt(pos);
        if (c == '0') {
            pos++;
            return true;
        }
        return digits("a digit");
    }

    private boolean digits(String expected) {
        if (pos >= end) {
            return false;
        }
        if (!isDigit(text.charAt(pos))) {
            throw fail(pos, "malformed number: expected " + expected);
        }
        while (pos < end && isDigit(text.charAt(pos))) {
            pos++;
        }
        return true;
    }

    /** Reads {@code true}, {@code false}, {@code null} or their Python spellings; false when cut off by the end. */
    private boolean literal() {
        int start = pos;
        while (pos < end && isLetter(text.charAt(pos))) {
            pos++;
        }
        String word = text.substring(start, pos);
        switch (word) {
            case "true", "false", "null" -> {
                out.append(word);
                return true;
            }
            case "True", "False", "None" -> {
                fix(RepairKind.CONVERTED_PYTHON_LITERAL, start);
                out.append(word.equals("None") ? "null" : word.toLowerCase(java.util.Locale.ROOT));
                return true;
            }
            default -> {
                if (pos >= end && isLiteralPrefix(word)) {
                    return false;
                }
                throw fail(start, "unexpected word '" + abbreviate(word) + "' where a value was expected");
            }
        }
    }

    private static boolean isLiteralPrefix(String word) {
        for (String literal : LITERALS) {
            if (literal.startsWith(word)) {
                return true;
            }
        }
        return false;
    }

    // ------------------------------------------------------------------------------------------------- structure

    private boolean closeWith(char closer) {
        out.append(closer);
        pos++;
        return true;
    }

    /** Closes a container the output ended inside, dropping whitespace left at the end. */
    private boolean closeTruncated(char closer) {
        int length = out.length();
        while (length > 0 && JsonRepair.isJsonWhitespace(out.charAt(length - 1))) {
            length--;
        }
        out.setLength(length);
        out.append(closer);
        fix(RepairKind.CLOSED_STRUCTURE, end);
        return true;
    }

    /** Drops a member or element the output ended inside (and its fixes), then closes the container. */
    private boolean dropIncomplete(int outMark, int fixMark, int memberPos, char closer) {
        out.setLength(outMark);
        fixes.subList(fixMark, fixes.size()).clear();
        fix(RepairKind.DROPPED_INCOMPLETE_VALUE, memberPos);
        pos = end;
        return closeTruncated(closer);
    }

    private void copyWhitespace() {
        while (pos < end && JsonRepair.isJsonWhitespace(text.charAt(pos))) {
            out.append(text.charAt(pos));
            pos++;
        }
    }

    private void checkDepth(int depth) {
        if (depth > maxDepth) {
            throw fail(pos, "objects and arrays are nested deeper than " + maxDepth + " levels");
        }
    }

    private void fix(RepairKind kind, int offset) {
        fixes.add(new RepairFix(kind, offset));
    }

    private PaganticException fail(int offset, String reason) {
        return JsonText.invalid(text, offset, reason, null);
    }

    // ------------------------------------------------------------------------------------------------- characters

    private static String controlEscape(char c) {
        return switch (c) {
            case '\n' -> "\\n";
            case '\r' -> "\\r";
            case '\t' -> "\\t";
            case '\b' -> "\\b";
            case '\f' -> "\\f";
            default -> String.format("\\u%04x", (int) c);
        };
    }

    private static String abbreviate(String word) {
        return word.length() <= 20 ? word : word.substring(0, 20) + "...";
    }

    private static boolean isDigit(char c) {
        return c >= '0' && c <= '9';
    }

    private static boolean isHexDigit(char c) {
        return isDigit(c) || c >= 'a' && c <= 'f' || c >= 'A' && c <= 'F';
    }

    private static boolean isLetter(char c) {
        return c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z';
    }

    private static boolean isIdentifierStart(char c) {
        return isLetter(c) || c == '_' || c == '$';
    }

    private static boolean isIdentifierPart(char c) {
        return isIdentifierStart(c) || isDigit(c) || c == '-';
    }
}
