/**
 * The agent loop: a stateful, multi-turn conversation with a bounded tool loop in every turn (seed 000's
 * {@code AgentLoop}) and seed 004's streamed turn events.
 *
 * <ul>
 *   <li>{@link dev.pagantic.orchestrate.agent.AgentLoop}: appends the user message, retrieves ephemeral context,
 *       infers, runs the requested tools, infers again until the model answers, within {@code maxToolIterations}
 *       rounds; a failed turn is rolled back. {@code chatStructured} runs a turn whose answer must follow a
 *       schema.</li>
 *   <li>{@link dev.pagantic.orchestrate.agent.TurnOptions}: the per-turn hooks (tool whitelist, caller-executed
 *       tools, stream, event listener, steering and follow-up queues, a lifecycle to drive); a turn's
 *       {@link dev.pagantic.inference.InferenceSettings} are a parameter of their own.</li>
 *   <li>{@link dev.pagantic.orchestrate.agent.AgentTurn}: what a turn produced: the answer, the tool executions, and
 *       caller-tool calls handed back.</li>
 *   <li>{@link dev.pagantic.orchestrate.agent.AgentEvent}, {@link dev.pagantic.orchestrate.agent.AgentEventListener},
 *       {@link dev.pagantic.orchestrate.agent.MessageQueue}: seed 004's {@code turn_start}, {@code steering_mode},
 *       {@code thinking}, {@code tool_call}, {@code tool_result}, {@code text_delta}, {@code turn_end}, and the queues
 *       through which a caller steers or continues a turn.</li>
 * </ul>
 * The tool loop ({@code ToolLoop}), the round of tool calls ({@code ToolRound}) and the placement of ephemeral context
 * ({@code ContextInjection}) are package-private parts of the loop.
 */
@NullMarked
package dev.pagantic.orchestrate.agent;

import org.jspecify.annotations.NullMarked;
