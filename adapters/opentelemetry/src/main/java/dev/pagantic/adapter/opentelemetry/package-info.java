/**
 * pagantic on OpenTelemetry: {@link dev.pagantic.adapter.opentelemetry.PaganticTelemetry} is an
 * {@link dev.pagantic.orchestrate.spi.Observer} that turns every request, agent turn, inference, tool call and plan
 * step into a span, and inferences, tool calls and votes into metrics, by the OpenTelemetry GenAI semantic conventions
 * v1.41.0.
 *
 * <h2>Design decisions</h2>
 * <ul>
 *   <li><b>The API only.</b> The module depends on {@code opentelemetry-api}; the application brings the SDK (or the
 *       Java agent), its processors and exporters. Without an SDK every call is the API's no-op.</li>
 *   <li><b>Live spans from the observer, not spans rebuilt from events.</b> The observer wraps the work, so spans have
 *       their real start and end, the work runs with its span current (an instrumented HTTP client inside a tool
 *       joins the tree), and the parent/child links are the current context's. Work on another thread (redundant
 *       replicas, multi-model voters) has no current span; it is parented to its request's span, found by request
 *       id. Only lifecycle transitions come from the event log: they become events of the request's span, and its
 *       final state and attempt.</li>
 *   <li><b>Conventions, then our own.</b> Standard attributes where the conventions have one
 *       ({@code gen_ai.*}, {@code error.type}); pagantic's own under {@code pagantic.} (lifecycle state, attempt,
 *       confidence, validation steps, cost, step name). {@code error.type} is pagantic's {@code ErrorCode}. The
 *       conventions' span for a plan step does not exist, so steps are {@code plan_step <name>}.</li>
 *   <li><b>Content is opt-in</b> ({@code captureContent(true)}), as the conventions advise; it is written in their
 *       message shape as JSON text.</li>
 *   <li><b>Trace continuation.</b> A request whose {@code traceContext} holds a W3C {@code traceparent} (the HTTP
 *       server passes the caller's headers) continues that trace when no span is current.</li>
 * </ul>
 */
@NullMarked
package dev.pagantic.adapter.opentelemetry;

import org.jspecify.annotations.NullMarked;
