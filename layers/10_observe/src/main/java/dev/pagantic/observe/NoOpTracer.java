package dev.pagantic.observe;

import dev.pagantic.core.CallContext;
import java.util.Objects;

/**
 * The trace recorder that records nothing. Its spans still derive their {@link Span#context() child context}, so
 * the correlation ids of events recorded inside a span are the same whichever recorder is configured. Stateless, so
 * one is shared.
 */
public final class NoOpTracer implements TraceRecorder {

    /** The one instance; it holds no state. */
    public static final NoOpTracer INSTANCE = new NoOpTracer();

    private NoOpTracer() {
    }

    @Override
    public Span startSpan(CallContext parent, String name, String causedBy) {
        Objects.requireNonNull(parent, "parent");
        Checks.requireNonBlank(name, "name");
        return new NoOpSpan(name, parent.childSpan(causedBy));
    }

    /** A span that keeps nothing. */
    private record NoOpSpan(String name, CallContext context) implements Span {

        @Override
        public void setAttribute(String key, Object value) {
            Objects.requireNonNull(key, "key");
        }

        @Override
        public void recordError(EventError error) {
            Objects.requireNonNull(error, "error");
        }

        @Override
        public void end() {
            // nothing recorded
        }
    }
}
