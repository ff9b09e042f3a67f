package dev.pagantic.tool;

import java.util.Objects;

/**
 * Safety metadata of a tool, read by the executor and by retry decisions.
 *
 * <ul>
 *   <li>{@code sideEffect}: calls of tools with {@link SideEffect#parallelSafe() parallel-safe} levels may run
 *       concurrently; the others run alone, in call order.</li>
 *   <li>{@code idempotent}: running the call twice has the same effect as running it once. A tool that ran and then
 *       failed or timed out ({@code TOOL_EXECUTION_FAILED}, {@code TOOL_TIMEOUT}) is reported retryable only when it
 *       is idempotent.</li>
 * </ul>
 *
 * @param sideEffect what the tool does to the world
 * @param idempotent whether repeating a call is harmless
 */
public record ToolSafety(SideEffect sideEffect, boolean idempotent) {

    /** The default: side effects unknown, not idempotent. Never parallelised, never retried after it ran. */
    public static final ToolSafety UNKNOWN = new ToolSafety(SideEffect.UNKNOWN, false);
    /** A pure function: no side effects, idempotent. */
    public static final ToolSafety PURE = new ToolSafety(SideEffect.NONE, true);
    /** Reads state, changes nothing, idempotent. */
    public static final ToolSafety READ_ONLY = new ToolSafety(SideEffect.READ, true);

    public ToolSafety {
        Objects.requireNonNull(sideEffect, "sideEffect");
    }

    /** Safety metadata with the given level and idempotency. */
    public static ToolSafety of(SideEffect sideEffect, boolean idempotent) {
        return new ToolSafety(sideEffect, idempotent);
    }

    /** Whether calls of this tool may run concurrently with other parallel-safe calls. */
    public boolean parallelSafe() {
        return sideEffect.parallelSafe();
    }
}
