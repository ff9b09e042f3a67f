package dev.pagantic.orchestrate.spi;

/** What an intercepted unit of work is. */
public enum InvocationKind {
    /** One {@code Engine.infer} call; the input is the inference {@code Request}, the result its {@code Result}. */
    INFERENCE,
    /** One tool call; the input is the {@code ToolCall}, the result its {@code ToolResult}. */
    TOOL_CALL,
    /** One plan step; the input is the step's input value, the result the completed step. */
    PLAN_STEP,
    /**
     * One request through the facade, seen only by an {@link Observer}; the name is the mode's wire name, the input
     * the {@code SystemRequest} (ids assigned), the result its {@code SystemResponse} (failures included: the work
     * does not throw for a failed request).
     */
    REQUEST,
    /**
     * One agent-loop turn, seen only by an {@link Observer}; the name is the model's, the input the turn's new
     * messages, the result the {@code AgentTurn}.
     */
    AGENT_TURN
}
