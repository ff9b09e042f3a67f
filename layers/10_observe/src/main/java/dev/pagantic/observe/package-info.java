/**
 * Layer 10, observability: an event for everything that happened, the span tree it happened in, the numbers it
 * produced, and what it cost.
 *
 * <h2>Domain concepts</h2>
 * <ul>
 *   <li>{@link dev.pagantic.observe.Event}: a timestamp, the emitting layer, an action, structured data, a duration
 *       and an optional {@link dev.pagantic.observe.EventError} (code and message, never a live exception), plus the
 *       {@link dev.pagantic.core.Correlation} ids of the {@link dev.pagantic.core.CallContext} it happened in. Built
 *       with {@code Event.builder(ctx, layer, action)}, which takes the ids and the timestamp from the context.</li>
 *   <li>{@link dev.pagantic.observe.EventLog}: records events and returns them in order.
 *       {@link dev.pagantic.observe.InMemoryEventLog} (unbounded, or bounded to the newest N with a dropped count),
 *       {@link dev.pagantic.observe.NoOpEventLog}, {@link dev.pagantic.observe.Slf4jEventLog} (one structured log
 *       line per event, correlation ids as SLF4J key-value pairs) and {@code EventLog.tee(...)} to combine them.</li>
 *   <li>The specification's event schemas as records, the {@link dev.pagantic.observe.SchemaEvent}s:
 *       {@link dev.pagantic.observe.InferenceStartEvent}, {@link dev.pagantic.observe.InferenceEndEvent},
 *       {@link dev.pagantic.observe.ToolStartEvent}, {@link dev.pagantic.observe.ToolEndEvent} and
 *       {@link dev.pagantic.observe.LifecycleTransitionEvent}. Each carries an
 *       {@link dev.pagantic.observe.EventContext} (timestamp, correlation ids, and where it was emitted) and converts
 *       to a generic {@code Event} whose data uses the specification's snake_case field names.</li>
 *   <li>{@link dev.pagantic.observe.TraceRecorder} and {@link dev.pagantic.observe.Span}: a span carries the child
 *       {@code CallContext} ({@code ctx.childSpan(causedBy)}) to run its work in, so the recorded spans form the tree
 *       that trace, span and parent span ids describe. {@link dev.pagantic.observe.InMemoryTracer} keeps
 *       {@link dev.pagantic.observe.SpanData} snapshots (attributes, errors, start, end);
 *       {@link dev.pagantic.observe.NoOpTracer} keeps nothing but still derives the child context.</li>
 *   <li>{@link dev.pagantic.observe.MetricsCollector}: latency summaries per layer, token totals, counters;
 *       {@link dev.pagantic.observe.InMemoryMetrics} and {@link dev.pagantic.observe.NoOpMetrics}.</li>
 *   <li>{@link dev.pagantic.observe.CostTracker}: token usage per model turned into cost from a
 *       {@link dev.pagantic.observe.PriceTable} of {@link dev.pagantic.observe.ModelPrice}s (input and output price
 *       per million tokens); {@link dev.pagantic.observe.InMemoryCostTracker} and
 *       {@link dev.pagantic.observe.NoOpCostTracker}.</li>
 * </ul>
 *
 * <h2>Design decisions</h2>
 * <ul>
 *   <li><b>Deep copies by immutability.</b> The specification asks that events and spans be deep-copied on read and
 *       write. Here every recorded value is immutable: an event's data and a span's attributes are deep,
 *       unmodifiable copies made when they are given (maps, lists, sets and arrays recursively; mutable objects
 *       snapshotted as text), and errors are values. Nothing stored can change, so reads copy only the lists.</li>
 *   <li><b>Required event fields</b> are checked when an event is constructed and refused with
 *       {@code CONFIG_INVALID} (detail {@code field}): {@code request_id} on every event, generic or typed;
 *       {@code tool_call_id} on tool events; {@code session_id} when the emitter declares the event as inside a
 *       conversation ({@code EventContext.inConversation()}); {@code step_name} when it declares it as inside a plan
 *       step ({@code EventContext.inStep(name)}). Only the emitter knows where it is, so it declares it, and the
 *       declaration is refused when the field it requires is missing.</li>
 *   <li><b>Cost is exact.</b> The specification's {@code TotalCost() float64} is a {@link java.math.BigDecimal}:
 *       prompt tokens at the input price plus output and reasoning tokens at the output price, divided by a million
 *       without rounding. A model without a price is recorded at zero and flagged (with one warning logged), or
 *       refused, as the price table's {@link dev.pagantic.observe.UnknownModelPolicy} says.</li>
 *   <li><b>Mirrored tool events.</b> The tool layer declares its own {@code ToolStartEvent} and {@code ToolEndEvent}
 *       because band layers cannot import each other; orchestrate converts them into this layer's records at the
 *       call site. Lifecycle states are strings for the same reason (the state type is orchestrate's).</li>
 *   <li><b>Thread safety.</b> All in-memory implementations are safe for concurrent use and lose nothing under
 *       concurrent writers; the no-op implementations are stateless shared instances.</li>
 * </ul>
 *
 * <h2>Contract</h2>
 * Part of the flat band: depends on core and inference only, never on another band layer or on orchestrate.
 * Orchestrate, which coordinates the other layers' work, records the inference, tool, context and lifecycle events
 * through these interfaces; other band layers do not import this one. Nothing here writes to {@code System.out}:
 * logging goes through SLF4J, and the library ships no SLF4J binding.
 */
@NullMarked
package dev.pagantic.observe;

import org.jspecify.annotations.NullMarked;
