package dev.pagantic.constraint;

import dev.pagantic.core.ErrorCode;
import dev.pagantic.core.PaganticException;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;

/**
 * Turns what models really emit into valid JSON, when that can be done without guessing (the seed's
 * {@code RepairJSON}).
 *
 * <p>What it repairs:
 * <ul>
 *   <li>text around the JSON: a UTF-8 byte order mark, {@code <think>...</think>} reasoning before the answer (also
 *       when only its closing tag is in the output), a markdown code fence, prose before or after the value;</li>
 *   <li>truncated output: an unterminated string is closed; open objects and arrays are closed; a member whose value
 *       had not started or not completed ({@code "key"}, {@code "key":}, {@code "key": tru}, {@code "key": 1.}) and
 *       a dangling comma are dropped, so no value is ever invented;</li>
 *   <li>syntax: trailing commas, single-quoted strings and keys, unquoted keys, unescaped double quotes and raw
 *       control characters (newlines, tabs) inside strings, Python's {@code True}, {@code False} and
 *       {@code None}.</li>
 * </ul>
 *
 * <p>Guarantees:
 * <ul>
 *   <li>Input that is already valid JSON (checked first with a strict parser) is returned byte for byte, with no
 *       fixes.</li>
 *   <li>Otherwise the result is the repaired value alone (surrounding whitespace removed) and is strictly valid
 *       JSON, so repair is idempotent. Whitespace between tokens and the text of every string, number and literal
 *       that was already valid are kept exactly.</li>
 *   <li>When no repair is possible without guessing (a missing comma between members, a malformed number, an invalid
 *       escape, no JSON value at all), it fails with {@code CONSTRAINT_JSON_INVALID} whose details name the
 *       {@code offset}, {@code line}, {@code column} and {@code reason} of the problem in the original output. No
 *       other exception escapes, whatever the input.</li>
 *   <li>Nesting is limited ({@link #DEFAULT_MAX_DEPTH} levels unless configured): deeper input fails with
 *       {@code CONSTRAINT_JSON_INVALID} instead of overflowing the stack. Valid JSON nested deeper than
 *       {@link #DEFAULT_MAX_DEPTH} is refused by the strict check as well.</li>
 * </ul>
 *
 * <p>How an unescaped quote is told from the end of a string: in a value, a double quote ends the string when what
 * follows it fits the string's position ({@code ,} and a next member, or <code>&#125;</code>, after an object value;
 * {@code ,} and a next value, or {@code ]}, after an array element; the end of the output). Otherwise it is escaped,
 * but only if a later quote does end the string, so that a broken document is never swallowed into one string. A
 * double-quoted key always ends at its first unescaped quote. The same rule applies to the apostrophes of
 * single-quoted strings ({@code 'it's'}), which are kept as apostrophes.
 *
 * <pre>{@code
 * RepairResult result = JsonRepair.standard().repair("```json\n{\"a\": 1,}\n```");
 * result.json();   // {"a": 1}
 * result.kinds();  // [REMOVED_CODE_FENCE, REMOVED_TRAILING_COMMA]
 * }</pre>
 *
 * <p>Immutable and thread-safe.
 */
public final class JsonRepair {

    /** The default nesting limit: objects and arrays nested deeper than this are refused. */
    public static final int DEFAULT_MAX_DEPTH = 512;


    /** How many candidate starts (<code>&#123;</code> or {@code [}) within prose are tried before giving up. */
    private static final int MAX_CANDIDATES = 64;

    private static final JsonRepair STANDARD = new JsonRepair(DEFAULT_MAX_DEPTH);

    private final int maxDepth;

    private JsonRepair(int maxDepth) {
        this.maxDepth = maxDepth;
    }

    /** The repairer with the default nesting limit. */
    public static JsonRepair standard() {
        return STANDARD;
    }

    /**
     * A repairer with a lower nesting limit, between 1 and {@link #DEFAULT_MAX_DEPTH} (the limit of the strict
     * parser, which also checks every repaired result). Valid JSON is still returned as is up to the default limit;
     * the lower limit applies to what needs repair.
     */
    public static JsonRepair withMaxDepth(int maxDepth) {
        if (maxDepth < 1 || maxDepth > DEFAULT_MAX_DEPTH) {
            throw PaganticException.of(ErrorCode.CONFIG_INVALID,
                    "maxDepth must be between 1 and " + DEFAULT_MAX_DEPTH + ": " + maxDepth);
        }
        return new JsonRepair(maxDepth);
    }

    /** The nesting limit. */
    public int maxDepth() {
        return maxDepth;
    }

    /** Whether the text is strictly valid JSON (RFC 8259: no byte order mark, no trailing text). */
    public static boolean isValidJson(String text) {
        return JsonText.isValid(Objects.requireNonNull(text, "text"));
    }

    /**
     * Repairs model output into valid JSON.
     *
     * @throws PaganticException {@code CONSTRAINT_JSON_INVALID} when the output cannot be repaired without guessing
     */
    public RepairResult repair(String output) {
        Objects.requireNonNull(output, "output");
        if (JsonText.isValid(output)) {
            return new RepairResult(output, List.of());
        }
        List<RepairFix> fixes = new ArrayList<>();
        int start = 0;
        int end = output.length();
        if (output.startsWith("\uFEFF")) {
            fixes.add(new RepairFix(RepairKind.REMOVED_BYTE_ORDER_MARK, 0));
            start = 1;
        }
        start = skipReasoning(output, start, fixes);
        int fence = output.indexOf("```", start);
        int firstBracket = indexOfBracket(output, start, end);
        if (fence >= 0 && (firstBracket < 0 || fence < firstBracket)) {
            fixes.add(new RepairFix(RepairKind.REMOVED_CODE_FENCE, fence));
            start = afterFenceLine(output, fence);
            int closing = output.indexOf("```", start);
            end = closing < 0 ? output.length() : closing;
        }
        return repairRegion(output, start, end, fixes);
    }

    /**
     * Skips leading {@code <think>...</think>} blocks; the output must hold an answer after them. Reasoning whose
     * opening tag was part of the prompt (chat templates that open the think block themselves) shows as text ending
     * in {@code </think>} with no {@code <think>} before it: that is skipped too, unless the output starts as JSON
     * (the tag may be inside a string).
     */
    private static int skipReasoning(String output, int start, List<RepairFix> fixes) {
        int at = skipWhitespace(output, start, output.length());
        int orphanClose = output.indexOf("</think>", at);
        if (orphanClose >= 0 && !startsJson(output, at) && !output.startsWith("<think>", at)
                && output.lastIndexOf("<think>", orphanClose) < at) {
            fixes.add(new RepairFix(RepairKind.REMOVED_REASONING, at));
            start = orphanClose + "</think>".length();
            at = skipWhitespace(output, start, output.length());
        }
        while (output.startsWith("<think>", at)) {
            int close = output.indexOf("</think>", at + "<think>".length());
            if (close < 0) {
                throw JsonText.invalid(output, at, "the output is reasoning that never ends (<think> without "
                        + "</think>), with no answer after it", null);
            }
            fixes.add(new RepairFix(RepairKind.REMOVED_REASONING, at));
            start = close + "</think>".length();
            at = skipWhitespace(output, start, output.length());
        }
        return start;
    }

    private static boolean startsJson(String output, int at) {
        return at < output.length() && "{[\"'".indexOf(output.charAt(at)) >= 0;
    }

    /** Where the fenced content starts: after the fence's info string ({@code ```json}) and its newline. */
    private static int afterFenceLine(String output, int fence) {
        int at = fence + 3;
        int info = at;
        while (info < output.length() && isInfoStringChar(output.charAt(info))) {
            info++;
        }
        if (info < output.length() && output.charAt(info) == '\r') {
            info++;
        }
        if (info < output.length() && output.charAt(info) == '\n') {
            return info + 1;
        }
        return at; // an inline fence: ```{"a":1}```
    }

    private static boolean isInfoStringChar(char c) {
        return Character.isLetterOrDigit(c) || c == '_' || c == '-' || c == '+' || c == ' ' || c == '\t';
    }

    /**
     * Repairs the value within [start, end): from the first <code>&#123;</code> or {@code [}; if that fails and it was within
     * prose (such as "the result [as requested]:"), from the next one after its bracketed span, and so on. A region without either
     * must be one scalar value.
     */
    private RepairResult repairRegion(String output, int start, int end, List<RepairFix> fixes) {
        int first = skipWhitespace(output, start, end);
        if (first >= end) {
            throw JsonText.invalid(output, first, "the output holds no JSON value", null);
        }
        if (indexOfBracket(output, first, end) < 0) {
            return attempt(output, first, end, fixes, false);
        }
        PaganticException furthest = null;
        int candidate = indexOfBracket(output, first, end);
        for (int tries = 0; candidate >= 0 && tries < MAX_CANDIDATES; tries++) {
            List<RepairFix> attemptFixes = new ArrayList<>(fixes);
            if (candidate > first) {
                attemptFixes.add(new RepairFix(RepairKind.REMOVED_SURROUNDING_TEXT, first));
            }
            try {
                return attempt(output, candidate, end, attemptFixes, true);
            } catch (PaganticException failure) {
                if (candidate == first) {
                    throw failure; // the output starts with a broken value: nothing else is dug out of it
                }
                if (furthest == null || offset(failure) > offset(furthest)) {
                    furthest = failure;
                }
            }
            candidate = indexOfBracket(output, endOfBracketedSpan(output, candidate, end), end);
        }
        throw furthest;
    }

    /**
     * The end of the bracketed span that starts at {@code open} (its matching closer, strings skipped), or
     * {@code end} when it never closes. A candidate that failed is skipped whole, so a value is never dug out of the
     * middle of a broken one.
     */
    private static int endOfBracketedSpan(String text, int open, int end) {
        int depth = 0;
        boolean inString = false;
        for (int i = open; i < end; i++) {
            char c = text.charAt(i);
            if (inString) {
                if (c == '\\') {
                    i++;
                } else if (c == '"') {
                    inString = false;
                }
            } else if (c == '"') {
                inString = true;
            } else if (c == '{' || c == '[') {
                depth++;
            } else if ((c == '}' || c == ']') && --depth == 0) {
                return i + 1;
            }
        }
        return end;
    }

    private RepairResult attempt(String output, int start, int end, List<RepairFix> fixes, boolean trailingTextAllowed) {
        RepairScanner scanner = new RepairScanner(output, start, end, maxDepth);
        String json = scanner.topLevelValue(trailingTextAllowed);
        fixes.addAll(scanner.fixes());
        if (!JsonText.isValid(json)) {
            // A safety net: the scanner only writes valid JSON, but the result is never returned unchecked.
            throw JsonText.invalid(output, start, "the output could not be repaired into valid JSON", null);
        }
        return new RepairResult(json, fixes);
    }

    private static int offset(PaganticException failure) {
        Object offset = failure.details().get("offset");
        return offset instanceof Integer value ? value : -1;
    }

    private static int indexOfBracket(String text, int from, int end) {
        for (int i = from; i < end; i++) {
            char c = text.charAt(i);
            if (c == '{' || c == '[') {
                return i;
            }
        }
        return -1;
    }

    static int skipWhitespace(String text, int from, int end) {
        int at = from;
        while (at < end && isJsonWhitespace(text.charAt(at))) {
            at++;
        }
        return at;
    }

    static boolean isJsonWhitespace(char c) {
        return c == ' ' || c == '\t' || c == '\n' || c == '\r';
    }
}
