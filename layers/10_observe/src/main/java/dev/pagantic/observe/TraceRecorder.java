package dev.pagantic.observe;

import dev.pagantic.core.CallContext;

/**
 * Starts spans (the specification's {@code TraceRecorder}). Go's {@code StartSpan(ctx, name) (ctx, Span)} becomes a
 * {@link Span} that carries its derived {@link Span#context() context}: the parent's request, session and trace ids,
 * a new span id from the parent's id generator, and the parent's span id as its parent
 * ({@link CallContext#childSpan(String)}), so the recorded spans form the tree the correlation ids describe.
 *
 * <p>Implementations: {@link InMemoryTracer} and {@link NoOpTracer}. Both are thread-safe.
 */
public interface TraceRecorder {

    /** Starts a span under the parent context, caused by the given tool call id or step name (empty for none). */
    Span startSpan(CallContext parent, String name, String causedBy);

    /** Starts a span under the parent context, keeping the parent's causal link. */
    default Span startSpan(CallContext parent, String name) {
        return startSpan(parent, name, parent.correlation().causedBy());
    }

    /** The recorder that records nothing. */
    static TraceRecorder noOp() {
        return NoOpTracer.INSTANCE;
    }

    /** A new in-memory recorder. */
    static InMemoryTracer inMemory() {
        return new InMemoryTracer();
    }
}
