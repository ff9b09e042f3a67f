package dev.pagantic.observe;

import dev.pagantic.core.CallContext;

/**
 * A unit of work in the trace tree (the specification's {@code Span}), started by a {@link TraceRecorder}. Its
 * {@link #context()} is the call context to run the work in: a child of the context it was started from, with a new
 * span id whose parent is the starting context's span, so that events recorded inside it carry the span's ids.
 *
 * <p>A span is ended once; {@link #end()} again, and attributes or errors added after the end, are ignored (as in
 * OpenTelemetry). A span may be used from several threads. It is {@link AutoCloseable}: closing it ends it.
 *
 * <pre>{@code
 * try (Span span = tracer.startSpan(ctx, "retrieve")) {
 *     span.setAttribute("query", query);
 *     try {
 *         chunks = retriever.retrieve(span.context(), query, 5);
 *     } catch (PaganticException e) {
 *         span.recordError(e);
 *         throw e;
 *     }
 * }
 * }</pre>
 */
public interface Span extends AutoCloseable {

    /** The span's name ({@code infer}, {@code tool:search}, a plan step's name...). */
    String name();

    /** The call context of the work inside the span; its span id is this span's id. */
    CallContext context();

    /** This span's id. */
    default String spanId() {
        return context().spanId();
    }

    /**
     * Sets an attribute; a later value for the same key replaces an earlier one. The value is deep-copied as event
     * data is (see {@link Event}). Ignored after the end.
     */
    void setAttribute(String key, Object value);

    /** Records a failure of the work; a span may record several. Ignored after the end. */
    void recordError(EventError error);

    /** Records a failure of the work, as the throwable describes it ({@link EventError#from}). */
    default void recordError(Throwable throwable) {
        recordError(EventError.from(throwable));
    }

    /** Ends the span at the current instant of its context's clock; later calls do nothing. */
    void end();

    /** Ends the span. */
    @Override
    default void close() {
        end();
    }
}
