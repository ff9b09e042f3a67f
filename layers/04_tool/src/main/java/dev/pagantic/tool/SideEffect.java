package dev.pagantic.tool;

/**
 * What a tool does to the world beyond computing its answer. The executor reads it to decide which calls of one
 * model turn may run in parallel ({@link #parallelSafe()}); retry decisions read it together with
 * {@link ToolSafety#idempotent()}.
 */
public enum SideEffect {
    /** A pure function of its arguments (a calculator, a unit converter). */
    NONE,
    /** Reads state (files, a database, the web) but changes nothing. */
    READ,
    /** Changes state that this application owns (writes a file, updates a row). */
    WRITE,
    /** Acts on the outside world, often irreversibly (sends an email, places an order, calls a paid API). */
    EXTERNAL,
    /** Not declared; treated as the most dangerous level that matters: not parallel-safe. */
    UNKNOWN;

    /** Whether calls with this level may run concurrently with each other: {@link #NONE} and {@link #READ} only. */
    public boolean parallelSafe() {
        return this == NONE || this == READ;
    }
}
