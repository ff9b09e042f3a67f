package dev.pagantic.constraint;

/**
 * The kinds of breakage {@link JsonRepair} fixes. Each applied fix is reported as a {@link RepairFix} so that the
 * caller (and the event log) can tell exactly what was changed.
 */
public enum RepairKind {
    /** A UTF-8 byte order mark before the JSON was removed. */
    REMOVED_BYTE_ORDER_MARK,
    /** A {@code <think>...</think>} reasoning block before the answer was removed. */
    REMOVED_REASONING,
    /** A markdown code fence around the JSON was removed. */
    REMOVED_CODE_FENCE,
    /** Prose before or after the JSON value was removed. */
    REMOVED_SURROUNDING_TEXT,
    /** A trailing comma before a closing brace or bracket was removed. */
    REMOVED_TRAILING_COMMA,
    /** A comma at the very end of truncated output was removed. */
    REMOVED_DANGLING_COMMA,
    /** A member or element whose value had not started (or not completed) when the output ended was removed. */
    DROPPED_INCOMPLETE_VALUE,
    /** A string the output ended inside was closed. */
    CLOSED_STRING,
    /** Objects or arrays left open when the output ended were closed. */
    CLOSED_STRUCTURE,
    /** A single-quoted string or key was converted to a double-quoted one. */
    CONVERTED_SINGLE_QUOTES,
    /** An unquoted object key was quoted. */
    QUOTED_KEY,
    /**
     * A quote inside a string that does not end it was escaped (a double quote) or kept as a plain apostrophe (in a
     * single-quoted string).
     */
    ESCAPED_QUOTE,
    /** A raw control character (newline, tab...) inside a string was escaped. */
    ESCAPED_CONTROL_CHARACTER,
    /** A Python literal ({@code True}, {@code False}, {@code None}) was converted to its JSON spelling. */
    CONVERTED_PYTHON_LITERAL
}
