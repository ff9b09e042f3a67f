package dev.pagantic.observe;

import static org.assertj.core.api.Assertions.assertThat;

import dev.pagantic.core.CallContext;
import dev.pagantic.core.ErrorCode;
import dev.pagantic.core.PaganticException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.junit.jupiter.api.Test;

class InMemoryTracerTest {

    private final TestContexts.ManualClock clock = new TestContexts.ManualClock();
    private final CallContext ctx = TestContexts.context(clock);

    @Test
    void spansFormTheTreeTheirCorrelationIdsDescribe() {
        InMemoryTracer tracer = TraceRecorder.inMemory();

        Span request = tracer.startSpan(ctx, "request");
        Span infer = tracer.startSpan(request.context(), "infer");
        Span tool = tracer.startSpan(request.context(), "tool:search", "call_1");
        Span nested = tracer.startSpan(tool.context(), "http");

        assertThat(request.context().correlation().parentSpanId()).isEqualTo(ctx.spanId());
        assertThat(tracer.roots()).extracting(SpanData::name).containsExactly("request");
        assertThat(tracer.children(request.spanId())).extracting(SpanData::name).containsExactly("infer",
                "tool:search");
        assertThat(tracer.children(tool.spanId())).extracting(SpanData::name).containsExactly("http");
        assertThat(tracer.span(nested.spanId()).orElseThrow().parentSpanId()).isEqualTo(tool.spanId());
        assertThat(tracer.spans()).extracting(SpanData::traceId).containsOnly("trace-1");
        assertThat(tracer.spans()).extracting(SpanData::spanId).doesNotHaveDuplicates();
        assertThat(tracer.span(tool.spanId()).orElseThrow().correlation().causedBy()).isEqualTo("call_1");
        assertThat(tracer.span(infer.spanId()).orElseThrow().correlation().requestId()).isEqualTo("req-1");
    }

    @Test
    void aSpanRecordsAttributesErrorsAndItsEnd() {
        InMemoryTracer tracer = TraceRecorder.inMemory();

        try (Span span = tracer.startSpan(ctx, "infer")) {
            span.setAttribute("model", "qwen");
            span.setAttribute("messages", List.of("a", "b"));
            span.recordError(PaganticException.of(ErrorCode.INFERENCE_ENGINE_ERROR, "503"));
            clock.advance(Duration.ofMillis(250));
        }

        SpanData data = tracer.spans().get(0);
        assertThat(data.attributes()).containsExactly(Map.entry("model", "qwen"),
                Map.entry("messages", List.of("a", "b")));
        assertThat(data.errors()).containsExactly(new EventError("INFERENCE_ENGINE_ERROR", "503"));
        assertThat(data.failed()).isTrue();
        assertThat(data.start()).isEqualTo(TestContexts.T0);
        assertThat(data.duration()).contains(Duration.ofMillis(250));
    }

    @Test
    void endingIsIdempotentAndFreezesTheSpan() {
        InMemoryTracer tracer = TraceRecorder.inMemory();
        Span span = tracer.startSpan(ctx, "step");

        clock.advance(Duration.ofMillis(10));
        span.end();
        clock.advance(Duration.ofMillis(10));
        span.end();
        span.setAttribute("late", true);
        span.recordError(new IllegalStateException("late"));

        SpanData data = tracer.spans().get(0);
        assertThat(data.duration()).contains(Duration.ofMillis(10));
        assertThat(data.attributes()).isEmpty();
        assertThat(data.errors()).isEmpty();
    }

    @Test
    void snapshotsDoNotChangeWhenTheLiveSpanDoes() {
        InMemoryTracer tracer = TraceRecorder.inMemory();
        Span span = tracer.startSpan(ctx, "step");
        List<String> mutable = new ArrayList<>(List.of("x"));
        span.setAttribute("list", mutable);

        SpanData before = tracer.spans().get(0);
        mutable.add("y");
        span.setAttribute("more", 1);
        span.end();

        assertThat(before.ended()).isFalse();
        assertThat(before.attributes()).containsExactly(Map.entry("list", List.of("x")));
        assertThat(tracer.spans().get(0).attributes().get("list")).isEqualTo(List.of("x"));
    }

    @Test
    void concurrentSpansAreAllRecorded() throws Exception {
        InMemoryTracer tracer = TraceRecorder.inMemory();
        Span root = tracer.startSpan(ctx, "root");

        Concurrently.run(Concurrently.THREADS, thread -> {
            for (int i = 0; i < Concurrently.PER_THREAD; i++) {
                Span span = tracer.startSpan(root.context(), "work-" + thread);
                span.setAttribute("i", i);
                span.end();
            }
        });
        root.end();

        List<SpanData> spans = tracer.spans();
        assertThat(spans).hasSize(1 + Concurrently.THREADS * Concurrently.PER_THREAD);
        assertThat(spans).allMatch(SpanData::ended);
        Set<String> ids = new HashSet<>();
        spans.forEach(span -> ids.add(span.spanId()));
        assertThat(ids).hasSize(spans.size());
        assertThat(tracer.children(root.spanId())).hasSize(Concurrently.THREADS * Concurrently.PER_THREAD);
    }

    @Test
    void concurrentAttributesOnOneSpanAreAllKept() throws Exception {
        InMemoryTracer tracer = TraceRecorder.inMemory();
        Span span = tracer.startSpan(ctx, "shared");

        Concurrently.run(Concurrently.THREADS, thread -> {
            for (int i = 0; i < Concurrently.PER_THREAD; i++) {
                span.setAttribute(thread + ":" + i, i);
            }
        });

        assertThat(tracer.spans().get(0).attributes()).hasSize(Concurrently.THREADS * Concurrently.PER_THREAD);
    }
}
