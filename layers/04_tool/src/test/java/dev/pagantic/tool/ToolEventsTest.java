package dev.pagantic.tool;

import static dev.pagantic.tool.TestTools.call;
import static dev.pagantic.tool.TestTools.returning;
import static org.assertj.core.api.Assertions.assertThat;

import dev.pagantic.core.CallContext;
import dev.pagantic.core.IdGenerator;
import java.time.Duration;
import java.time.Instant;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

@Timeout(30)
class ToolEventsTest {

    private static final Instant T0 = Instant.parse("2026-01-01T00:00:00Z");

    private final MutableClock clock = new MutableClock(T0);
    private final RecordingObserver observer = new RecordingObserver();
    private final ToolExecutor executor = ToolExecutor.builder().observer(observer)
            .defaultTimeout(Duration.ofSeconds(10)).build();
    private final CallContext ctx = CallContext.builder().requestId("req-1").sessionId("chat-1").traceId("trace-1")
            .clock(clock).idGenerator(IdGenerator.sequential("span-")).build();

    @AfterEach
    void close() {
        executor.close();
    }

    @Test
    void startAndEndEventsCarryTheToolFieldsAndTheCorrelation() {
        Tool slow = Tool.builder(TestTools.noArgs("search")).handler((toolCtx, args) -> {
            clock.advance(Duration.ofMillis(1234));
            return "found";
        }).build();
        Tool weather = Tool.builder(dev.pagantic.core.ToolDefinition.of("weather", "",
                        dev.pagantic.core.Schema.object().required("city", dev.pagantic.core.Schema.string()).build()))
                .handler((toolCtx, args) -> "sunny").build();
        Map<String, Object> args = Map.of("city", "Oslo");

        executor.execute(ctx, ToolRegistry.of(slow, weather), call("call-1", "search", Map.of()));
        executor.execute(ctx, ToolRegistry.of(slow, weather), call("call-2", "weather", args));

        assertThat(observer.events).hasSize(4);
        ToolStartEvent start = observer.starts.get(0);
        ToolEndEvent end = observer.ends.get(0);
        assertThat(observer.events.get(0)).isSameAs(start);
        assertThat(observer.events.get(1)).isSameAs(end);
        assertThat(start.toolName()).isEqualTo("search");
        assertThat(start.toolCallId()).isEqualTo("call-1");
        assertThat(start.argsHash()).isEqualTo(ArgsHash.of(Map.of()));
        assertThat(start.requestId()).isEqualTo("req-1");
        assertThat(start.sessionId()).isEqualTo("chat-1");
        assertThat(start.traceId()).isEqualTo("trace-1");
        assertThat(start.parentSpanId()).isEqualTo(ctx.spanId());
        assertThat(start.spanId()).isNotEqualTo(ctx.spanId()).isNotEmpty();
        assertThat(start.causedBy()).isEqualTo("call-1");
        assertThat(start.timestamp()).isEqualTo(T0);
        assertThat(end.correlation()).isEqualTo(start.correlation());
        assertThat(end.toolName()).isEqualTo("search");
        assertThat(end.toolCallId()).isEqualTo("call-1");
        assertThat(end.durationMs()).isEqualTo(1234);
        assertThat(end.success()).isTrue();
        assertThat(end.errorCode()).isEmpty();
        assertThat(end.timestamp()).isEqualTo(T0.plusMillis(1234));
        assertThat(observer.starts.get(1).argsHash()).isEqualTo(ArgsHash.of(args));
        assertThat(observer.starts.get(1).spanId()).isNotEqualTo(start.spanId());
        assertThat(observer.ends.get(1).causedBy()).isEqualTo("call-2");
    }

    @Test
    void theExecutionCarriesTheSameSpanAndDurationAsTheEvents() {
        Tool slow = Tool.builder(TestTools.noArgs("slow")).handler((toolCtx, args) -> {
            clock.advance(Duration.ofMillis(250));
            return "";
        }).build();

        ToolExecution execution = executor.execute(ctx, ToolRegistry.of(slow), call("call-9", "slow", Map.of()));

        assertThat(execution.duration()).isEqualTo(Duration.ofMillis(250));
        assertThat(execution.correlation()).isEqualTo(observer.ends.get(0).correlation());
    }

    @Test
    void failedCallsEndWithTheirErrorCode() {
        ToolRegistry registry = ToolRegistry.of(Tool.builder(TestTools.noArgs("boom")).handler((toolCtx, args) -> {
            throw new IllegalStateException("no");
        }).build());

        executor.executeAll(ctx, registry, List.of(call("c1", "boom", Map.of()), call("c2", "nope", Map.of())));

        assertThat(observer.starts).extracting(ToolStartEvent::toolCallId).containsExactly("c1", "c2");
        assertThat(observer.ends).extracting(ToolEndEvent::success).containsExactly(false, false);
        assertThat(observer.ends).extracting(ToolEndEvent::errorCode)
                .containsExactly("TOOL_EXECUTION_FAILED", "TOOL_NOT_FOUND");
        assertThat(observer.ends.get(1).toolName()).isEqualTo("nope");
    }

    @Test
    void theArgsHashDoesNotDependOnTheOrderOfTheModelsKeys() {
        Map<String, Object> ab = new LinkedHashMap<>();
        ab.put("a", 1);
        ab.put("b", List.of("x"));
        Map<String, Object> ba = new LinkedHashMap<>();
        ba.put("b", List.of("x"));
        ba.put("a", 1);
        ToolRegistry registry = ToolRegistry.of(returning("t", ""));
        ToolExecutor lenient = ToolExecutor.builder().observer(observer).validateArguments(false).build();

        try (lenient) {
            lenient.execute(ctx, registry, call("c1", "t", ab));
            lenient.execute(ctx, registry, call("c2", "t", ba));
        }

        assertThat(observer.starts.get(0).argsHash()).isEqualTo(observer.starts.get(1).argsHash());
    }

    @Test
    void aFailingObserverDoesNotBreakExecution() {
        ToolObserver broken = ToolObserver.of(start -> {
            throw new IllegalStateException("observer down");
        }, end -> {
            throw new IllegalStateException("observer down");
        });
        ToolExecutor withBrokenObserver = ToolExecutor.builder().observer(broken).build();

        try (withBrokenObserver) {
            ToolExecution execution = withBrokenObserver.execute(ToolRegistry.of(returning("t", "ok")), call("t"));

            assertThat(execution.result().content()).isEqualTo("ok");
        }
    }

    @Test
    void anObserverIsWiredFromMethodReferences() {
        List<Object> sink = new java.util.concurrent.CopyOnWriteArrayList<>();
        ToolExecutor wired = ToolExecutor.builder().observer(ToolObserver.of(sink::add, sink::add)).build();

        try (wired) {
            wired.execute(ToolRegistry.of(returning("t", "ok")), call("t"));
        }

        assertThat(sink).hasSize(2);
        assertThat(sink.get(0)).isInstanceOf(ToolStartEvent.class);
        assertThat(sink.get(1)).isInstanceOf(ToolEndEvent.class);
    }
}
