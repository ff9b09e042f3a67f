/**
 * Layer 10, observability (planned; not yet implemented): an event for everything that happened.
 *
 * <h2>Domain concepts</h2>
 * <ul>
 *   <li>{@code Event}: a timestamp, the emitting layer, an action, structured data, a duration and an optional error,
 *       plus the {@link dev.pagantic.core.Correlation} ids of the {@link dev.pagantic.core.CallContext} it happened
 *       in: request id always, session id inside an agent loop, step name inside a plan, tool call id when
 *       tool-related.</li>
 *   <li>{@code EventLog}: records events and returns them in order.</li>
 *   <li>{@code TraceRecorder} and {@code Span}: the span tree that trace, span and parent span ids describe.</li>
 *   <li>{@code MetricsCollector}: latencies per layer, token usage, counters.</li>
 *   <li>{@code CostTracker}: token usage per model, turned into cost.</li>
 * </ul>
 * Each has an in-memory implementation for tests and development and a no-op implementation for production paths that
 * need no observability. The in-memory implementations are thread-safe and copy on read and write to prevent
 * aliasing. The specification's event schemas (inference start and end, tool start and end, lifecycle transitions)
 * are what orchestrate records.
 *
 * <h2>Contract</h2>
 * Part of the flat band: depends on core and inference only, never on another band layer or on orchestrate.
 * Orchestrate, which coordinates the other layers' work, records the inference, tool, context and lifecycle events
 * through these interfaces; other band layers do not import this one. Nothing here writes to {@code System.out}:
 * logging goes through SLF4J.
 */
package dev.pagantic.observe;
