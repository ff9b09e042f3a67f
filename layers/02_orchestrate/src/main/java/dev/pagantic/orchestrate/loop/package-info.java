/**
 * What every loop shares, written once.
 *
 * <ul>
 *   <li>{@link dev.pagantic.orchestrate.loop.LoopSettings}: the settings of a loop (engine, tools and their executor,
 *       system message, inference settings, tool rounds, stream, event log, context, interceptor), resolved and
 *       validated once; an orchestrator builds one and hands it to the loops of every request.</li>
 *   <li>{@link dev.pagantic.orchestrate.loop.LoopBuilder}: the setters of those settings, extended by the agent,
 *       specialized and redundant loops' builders and the orchestrator's.</li>
 *   <li>{@link dev.pagantic.orchestrate.loop.Outcome}: the one outcome type of the patterns' reporting forms: a value
 *       or a failure, with the usage and the tool executions either way.</li>
 *   <li>{@link dev.pagantic.orchestrate.loop.ToolEvents}: seed 001's {@code tool_start} and {@code tool_end} events for
 *       a tool executor.</li>
 * </ul>
 */
@NullMarked
package dev.pagantic.orchestrate.loop;

import org.jspecify.annotations.NullMarked;
