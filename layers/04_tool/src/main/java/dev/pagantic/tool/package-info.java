/**
 * Layer 04: tools, and running them under control.
 *
 * <h2>Domain concepts</h2>
 * <ul>
 *   <li>{@link dev.pagantic.tool.Tool}: a function the model may call: its {@link dev.pagantic.core.ToolDefinition}
 *       (name, description, JSON Schema of the arguments), {@code execute(ctx, arguments)}, its current
 *       {@link dev.pagantic.tool.Availability} (with a reason when unavailable), its
 *       {@link dev.pagantic.tool.ToolSafety} ({@link dev.pagantic.tool.SideEffect side-effect level}, idempotency)
 *       and optionally its own timeout. Build one from a lambda with {@code Tool.builder(definition)}.</li>
 *   <li>Tools from plain Java: annotate methods with {@link dev.pagantic.tool.annotation.Tool @Tool} and their
 *       parameters with {@link dev.pagantic.tool.annotation.Param @Param} (LangChain4j's {@code @Tool}/{@code @P})
 *       and register the object; {@link dev.pagantic.tool.AnnotatedTools} derives the parameter schema from the Java
 *       types with {@link dev.pagantic.types.TypeSchemaGenerator}, the generator typed structured output uses too
 *       (one JSON form of a Java type for arguments and outputs), and converts arguments with Jackson.</li>
 *   <li>{@link dev.pagantic.tool.ToolRegistry}: the tools an application offers, immutable once built, in
 *       registration order; {@code definitions()} lists those available now; {@code allowOnly(names)} is the
 *       whitelisted view for one request.</li>
 *   <li>{@link dev.pagantic.tool.ToolExecutor}: runs calls against a registry (or view) on threads that it owns
 *       (close it): a virtual thread per call on Java 21+, else a bounded set of platform threads that spin briefly
 *       for their next call before they park; the caller spins briefly for the outcome too, so that a quick tool
 *       costs no operating-system wake-up. It enforces per-tool timeouts, abandons tools that ignore them, and
 *       runs the independent calls of one model turn in parallel. Each call runs in
 *       {@code ctx.childSpan(toolCallId)}, so that its span's {@code causedBy} is the tool call id.</li>
 *   <li>{@link dev.pagantic.tool.ToolExecution}: the outcome of a call: the {@link dev.pagantic.core.ToolResult}
 *       fed back to the model, plus the error code, whether a retry is safe, the duration and the span.</li>
 *   <li>{@link dev.pagantic.tool.ToolObserver} with {@link dev.pagantic.tool.ToolStartEvent} and
 *       {@link dev.pagantic.tool.ToolEndEvent}: the specification's tool events (tool name, tool call id,
 *       {@link dev.pagantic.tool.ArgsHash args hash}, duration, success, error code, and the full correlation),
 *       declared here so that the observe layer plugs in by method reference without either layer importing the
 *       other.</li>
 * </ul>
 *
 * <h2>Failures are results</h2>
 * A tool-level failure never crashes the loop: the executor returns an error {@code ToolResult} whose content starts
 * with the code ({@code "TOOL_TIMEOUT: ..."}) so that the model can correct itself, and a {@code ToolExecution}
 * with the code and a retry hint.
 * <ul>
 *   <li>{@code TOOL_NOT_FOUND}: unknown name, or a name outside the request's whitelist; the content lists the
 *       available tools. Not retryable.</li>
 *   <li>{@code TOOL_UNAVAILABLE}: the tool's availability dropped (reason shown); also when the executor is
 *       saturated by abandoned threads (see below) or closed. Retryable (except when closed): the tool did not
 *       run.</li>
 *   <li>{@code TOOL_INVALID_ARGUMENTS}: the arguments do not match the parameter schema (missing required argument,
 *       wrong type, enum value outside the set, unexpected argument); checked for every tool before it runs, and
 *       by annotated tools before their method is invoked. The issue asked for {@code TOOL_EXECUTION_FAILED} here;
 *       we use core's dedicated code of the same ToolFailure category, because the distinction matters to the loop:
 *       the tool did not run, so the call is safe to retry with corrected arguments (retryable), whereas an
 *       execution failure of a non-idempotent tool is not.</li>
 *   <li>{@code TOOL_EXECUTION_FAILED}: the tool threw. A {@code PaganticException} with a {@code TOOL_*} code keeps
 *       its code; any other exception's class and message are shown. Retryable only if the tool is
 *       idempotent.</li>
 *   <li>{@code TOOL_TIMEOUT}: the tool ran past its timeout ({@code Tool.timeout()}, else the executor's default).
 *       Its {@code CallContext} is cancelled and its thread interrupted. Retryable only if idempotent.</li>
 * </ul>
 * The caller's own cancellation or deadline is not a tool failure: running tools are stopped the same way, every
 * started call still gets its end event (with {@code CANCELLED_SIGNAL} or {@code CANCELLED_TIMEOUT}), and the
 * executor throws that {@code PaganticException}.
 *
 * <h2>Abandoned threads</h2>
 * Java cannot kill a thread. A tool that ignores both its interrupt and its context is given a short grace after its
 * timeout, then abandoned: the caller gets {@code TOOL_TIMEOUT} at once and is never blocked by it. The pool holds
 * {@code maxParallelism + maxAbandoned} threads, so abandoned threads do not take capacity from working calls; their
 * number is visible ({@code abandonedCount()}, {@code abandonedTotal()}) and capped: at {@code maxAbandoned} still
 * running, new calls fail fast with {@code TOOL_UNAVAILABLE} ("executor saturated", retryable). Parallel calls
 * admitted while under the cap may all be abandoned and so pass it; those beyond the cap keep their working slot
 * until they end, so the pool never grows past its size and only working capacity shrinks. We chose a tool code
 * over {@code INFERENCE_SATURATED} because the failure is the tool layer's and must be fed back to the model like any
 * other tool failure rather than end the request. An abandoned thread that ends at last frees its place.
 *
 * <h2>Parallel execution</h2>
 * {@code executeAll} returns outcomes in call order. With {@code maxParallelism > 1}, consecutive calls of
 * parallel-safe tools (side-effect level {@code NONE} or {@code READ}) run concurrently, at most
 * {@code maxParallelism} at a time across the executor; a call of any other tool ({@code WRITE}, {@code EXTERNAL},
 * {@code UNKNOWN}, the default) waits for all calls before it and runs alone, so effects happen in the order the
 * model asked for them and never overlap with reads of the same turn.
 *
 * <h2>Threads and state</h2>
 * No static mutable state: the thread pool belongs to a {@code ToolExecutor} the application builds and closes;
 * registries are immutable; the default Jackson mapper is an immutable Jackson 3 mapper. Events are delivered on the
 * calling thread.
 *
 * <h2>Contract</h2>
 * Part of the flat band: depends on core and inference only (plus Jackson and SLF4J), never on another band layer
 * or on orchestrate. Orchestrate's loops take {@code registry.definitions()} for the request and hand the model's
 * calls to {@code executor.executeAll(ctx, registry, calls)}, bounded by the loop's iteration limit.
 */
@NullMarked
package dev.pagantic.tool;

import org.jspecify.annotations.NullMarked;
