/**
 * Layer 04, tools and their controlled execution (planned; not yet implemented).
 *
 * <h2>Domain concepts</h2>
 * <ul>
 *   <li>{@code Tool}: a named function the model may call: its {@link dev.pagantic.core.ToolDefinition} (with a JSON
 *       Schema for the arguments), whether it is currently available, and how to execute a
 *       {@link dev.pagantic.core.ToolCall} into a {@link dev.pagantic.core.ToolResult}.</li>
 *   <li>{@code Registry}: the tools an application offers, looked up by name; a request may narrow it to an allowed
 *       subset.</li>
 *   <li>Execution with timeouts: each call runs under a child {@link dev.pagantic.core.CallContext} with its own
 *       deadline, whose span is caused by the tool call id, so that tool events link back to the inference response
 *       that requested them.</li>
 * </ul>
 *
 * <h2>Failures</h2>
 * This layer emits the ToolFailure codes: {@code TOOL_NOT_FOUND}, {@code TOOL_EXECUTION_FAILED},
 * {@code TOOL_TIMEOUT}, {@code TOOL_UNAVAILABLE} and {@code TOOL_INVALID_ARGUMENTS} (arguments that do not match the
 * parameter schema; the tool does not run). A failed call can still be fed back to the model as an error
 * {@code ToolResult} so that it can correct itself. Execution failures are not retryable by default because a tool
 * may not be idempotent; a tool that is can say so.
 *
 * <h2>Contract</h2>
 * Part of the flat band: depends on core and inference only, never on another band layer or on orchestrate.
 * Orchestrate's loops use the registry to list tool definitions for the request and to execute the calls the model
 * makes, bounded by the loop's iteration limit.
 */
package dev.pagantic.tool;
