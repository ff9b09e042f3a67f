package dev.pagantic.observe;

import static org.assertj.core.api.Assertions.assertThat;

import dev.pagantic.core.CallContext;
import dev.pagantic.core.TokenUsage;
import java.lang.reflect.Field;
import java.lang.reflect.Modifier;
import java.time.Duration;
import java.util.Arrays;
import org.junit.jupiter.api.Test;

class NoOpTest {

    private static boolean holdsNoState(Class<?> type) {
        return Arrays.stream(type.getDeclaredFields()).map(Field::getModifiers).allMatch(Modifier::isStatic);
    }

    @Test
    void noOpEventLogRecordsNothing() {
        EventLog log = EventLog.noOp();

        log.record(Event.builder(TestContexts.context(), "orchestrate", "infer").build());

        assertThat(log.events()).isEmpty();
        assertThat(holdsNoState(NoOpEventLog.class)).isTrue();
    }

    @Test
    void onlyTheNoOpLogTellsEmittersNotToBuildEvents() {
        assertThat(EventLog.noOp().isEnabled()).isFalse();
        assertThat(EventLog.inMemory().isEnabled()).isTrue();
        assertThat(EventLog.tee(EventLog.noOp(), EventLog.noOp()).isEnabled()).isFalse();
        assertThat(EventLog.tee(EventLog.noOp(), EventLog.inMemory()).isEnabled()).isTrue();
    }

    @Test
    void noOpTracerRecordsNothingButStillDerivesTheChildSpanContext() {
        CallContext ctx = TestContexts.context();

        Span span = TraceRecorder.noOp().startSpan(ctx, "infer", "call_1");
        span.setAttribute("k", "v");
        span.recordError(new IllegalStateException("x"));
        span.end();

        assertThat(span.context().correlation().parentSpanId()).isEqualTo(ctx.spanId());
        assertThat(span.context().correlation().causedBy()).isEqualTo("call_1");
        assertThat(holdsNoState(NoOpTracer.class)).isTrue();
    }

    @Test
    void noOpMetricsRecordNothing() {
        MetricsCollector metrics = MetricsCollector.noOp();

        metrics.recordLatency("orchestrate", Duration.ofMillis(5));
        metrics.recordTokens(TokenUsage.of(1, 1));
        metrics.incrementCounter("calls");

        assertThat(holdsNoState(NoOpMetrics.class)).isTrue();
    }

    @Test
    void noOpCostTrackerCostsNothing() {
        CostTracker costs = CostTracker.noOp();

        costs.recordUsage("gpt-4o", TokenUsage.of(1_000_000, 1_000_000));

        assertThat(costs.totalCost()).isZero();
        assertThat(holdsNoState(NoOpCostTracker.class)).isTrue();
    }

    @Test
    void slf4jEventLogKeepsNoEvents() {
        EventLog log = Slf4jEventLog.builder().logger(new CapturingLogger()).build();

        log.record(Event.builder(TestContexts.context(), "orchestrate", "infer").build());

        assertThat(log.events()).isEmpty();
    }
}
