package dev.pagantic.observe;

import dev.pagantic.core.CallContext;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import org.jspecify.annotations.Nullable;

/**
 * A trace recorder that keeps every span in memory (the specification's {@code InMemoryTracer}): for tests,
 * development, and reconstructing the execution tree of a request from span and parent span ids.
 *
 * <p>Thread-safe: spans may be started, changed and ended from any threads at once, and nothing is lost. Reads return
 * immutable {@link SpanData} snapshots, in the order the spans were started.
 */
public final class InMemoryTracer implements TraceRecorder {

    private final Object lock = new Object();
    private final List<RecordedSpan> spans = new ArrayList<>(); // guarded by lock; start order
    private final Map<String, RecordedSpan> bySpanId = new HashMap<>(); // guarded by lock; first span of each id

    /** A recorder with no spans; also {@link TraceRecorder#inMemory()}. */
    public InMemoryTracer() {
    }

    @Override
    public Span startSpan(CallContext parent, String name, String causedBy) {
        Objects.requireNonNull(parent, "parent");
        Checks.requireNonBlank(name, "name");
        CallContext child = parent.childSpan(causedBy);
        RecordedSpan span = new RecordedSpan(name, child, child.now());
        synchronized (lock) {
            spans.add(span);
            bySpanId.putIfAbsent(child.spanId(), span);
        }
        return span;
    }

    /** Snapshots of every span, in start order. */
    public List<SpanData> spans() {
        synchronized (lock) {
            List<SpanData> copy = new ArrayList<>(spans.size());
            spans.forEach(span -> copy.add(span.snapshot()));
            return List.copyOf(copy);
        }
    }

    /** A snapshot of the span with the given id, if one was started. */
    public Optional<SpanData> span(String spanId) {
        Objects.requireNonNull(spanId, "spanId");
        synchronized (lock) {
            return Optional.ofNullable(bySpanId.get(spanId)).map(RecordedSpan::snapshot);
        }
    }

    /** Snapshots of the spans whose parent is the given span, in start order. */
    public List<SpanData> children(String spanId) {
        Objects.requireNonNull(spanId, "spanId");
        return spans().stream().filter(span -> span.parentSpanId().equals(spanId)).toList();
    }

    /** Snapshots of the spans whose parent was not recorded here (the roots of the recorded trees), in start order. */
    public List<SpanData> roots() {
        synchronized (lock) {
            List<SpanData> roots = new ArrayList<>();
            for (RecordedSpan span : spans) {
                if (!bySpanId.containsKey(span.context.correlation().parentSpanId())) {
                    roots.add(span.snapshot());
                }
            }
            return List.copyOf(roots);
        }
    }

    /** How many spans were started. */
    public int size() {
        synchronized (lock) {
            return spans.size();
        }
    }

    /** Forgets every span; spans still running keep working but are no longer listed. */
    public void clear() {
        synchronized (lock) {
            spans.clear();
            bySpanId.clear();
        }
    }

    /** A live span; its mutable state is guarded by the tracer's lock. */
    private final class RecordedSpan implements Span {
        private final String name;
        private final CallContext context;
        private final Instant start;
        private final Map<String, Object> attributes = new LinkedHashMap<>(); // guarded by lock
        private final List<EventError> errors = new ArrayList<>(); // guarded by lock
        private @Nullable Instant end; // guarded by lock; null while running

        RecordedSpan(String name, CallContext context, Instant start) {
            this.name = name;
            this.context = context;
            this.start = start;
        }

        @Override
        public String name() {
            return name;
        }

        @Override
        public CallContext context() {
            return context;
        }

        @Override
        public void setAttribute(String key, Object value) {
            Objects.requireNonNull(key, "key");
            Object copy = DataValues.copyValue(value);
            synchronized (lock) {
                if (end == null) {
                    attributes.put(key, copy);
                }
            }
        }

        @Override
        public void recordError(EventError error) {
            Objects.requireNonNull(error, "error");
            synchronized (lock) {
                if (end == null) {
                    errors.add(error);
                }
            }
        }

        @Override
        public void end() {
            Instant now = context.now();
            synchronized (lock) {
                if (end == null) {
                    end = now;
                }
            }
        }

        SpanData snapshot() { // called with lock held
            return new SpanData(name, context.correlation(), start, Optional.ofNullable(end), attributes, errors);
        }
    }
}
