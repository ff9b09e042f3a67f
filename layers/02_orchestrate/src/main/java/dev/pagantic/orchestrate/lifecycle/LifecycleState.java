package dev.pagantic.orchestrate.lifecycle;

/** The states of the execution lifecycle (seed 001). COMPLETE, ERROR and CANCELLED are terminal. */
public enum LifecycleState {
    /** Request received; envelope validated, correlation ids assigned. */
    INIT,
    /** An execution plan is created (plan mode only). */
    PLAN,
    /** Context, tools, schema, grammar and system prompt are assembled. */
    PREPARE,
    /** The pattern runs: inference calls, tool calls, steps. */
    EXECUTE,
    /** Constraints, rules and semantic checks are applied; may send the request back to EXECUTE. */
    VALIDATE,
    /** The response is assembled. Terminal. */
    COMPLETE,
    /** Terminal failure. */
    ERROR,
    /** Cancelled or timed out. Terminal. */
    CANCELLED;

    /** Whether no transition leaves this state. */
    public boolean isTerminal() {
        return this == COMPLETE || this == ERROR || this == CANCELLED;
    }
}
