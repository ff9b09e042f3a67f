package dev.pagantic.orchestrate.spi;

/** What an intercepted unit of work is. */
public enum InvocationKind {
    /** One {@code Engine.infer} call; the input is the inference {@code Request}, the result its {@code Result}. */
    INFERENCE,
    /** One tool call; the input is the {@code ToolCall}, the result its {@code ToolResult}. */
    TOOL_CALL,
    /** One plan step; the input is the step's input value, the result the completed step. */
    PLAN_STEP
}
