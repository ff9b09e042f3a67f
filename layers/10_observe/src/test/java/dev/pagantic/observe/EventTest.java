package dev.pagantic.observe;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.pagantic.core.CallContext;
import dev.pagantic.core.Correlation;
import dev.pagantic.core.ErrorCode;
import dev.pagantic.core.PaganticException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.Test;

class EventTest {

    @Test
    void builderTakesTheTimestampAndCorrelationIdsFromTheCallContext() {
        CallContext ctx = TestContexts.context();

        Event event = Event.builder(ctx, "orchestrate", "infer").data("messages", 3).build();

        assertThat(event.timestamp()).isEqualTo(TestContexts.T0);
        assertThat(event.correlation()).isEqualTo(ctx.correlation());
        assertThat(event.requestId()).isEqualTo("req-1");
        assertThat(event.data()).containsExactly(Map.entry("messages", 3));
        assertThat(event.duration()).isEqualTo(Duration.ZERO);
        assertThat(event.failed()).isFalse();
    }

    @Test
    void eventWithoutRequestIdIsRefused() {
        Correlation noRequest = new Correlation("", "", "t", "s", "", "");

        assertThatThrownBy(() -> Event.builder(noRequest, TestContexts.T0, "orchestrate", "infer").build())
                .isInstanceOfSatisfying(PaganticException.class, e -> {
                    assertThat(e.code()).isEqualTo(ErrorCode.CONFIG_INVALID);
                    assertThat(e.getMessage()).contains("request_id");
                });
    }

    @Test
    void builderReportsEveryProblemAtBuild() {
        Event.Builder builder = Event.builder(TestContexts.context(), " ", "").duration(Duration.ofMillis(-1));

        assertThatThrownBy(builder::build)
                .isInstanceOfSatisfying(PaganticException.class, e -> {
                    assertThat(e.code()).isEqualTo(ErrorCode.CONFIG_INVALID);
                    assertThat(e.getMessage()).contains("layer").contains("action").contains("duration");
                });
    }

    @Test
    void errorIsRecordedAsCodeAndMessageNotAsAThrowable() {
        CallContext ctx = TestContexts.context();

        Event pagantic = Event.builder(ctx, "tool", "execute")
                .error(PaganticException.of(ErrorCode.TOOL_TIMEOUT, "search took too long")).build();
        Event other = Event.builder(ctx, "tool", "execute").error(new IllegalStateException("boom")).build();

        assertThat(pagantic.error()).contains(new EventError("TOOL_TIMEOUT", "search took too long"));
        assertThat(other.error()).contains(new EventError("java.lang.IllegalStateException", "boom"));
        assertThat(pagantic.failed()).isTrue();
    }

    @Test
    void dataIsDeepCopiedSoTheCallersCollectionsCannotChangeTheEvent() {
        List<Object> nested = new ArrayList<>(List.of("a"));
        Map<String, Object> inner = new LinkedHashMap<>(Map.of("k", nested));
        Map<String, Object> data = new LinkedHashMap<>();
        data.put("inner", inner);
        data.put("array", new int[] {1, 2});

        Event event = Event.builder(TestContexts.context(), "context", "retrieve").data(data).build();
        nested.add("b");
        inner.put("k2", "v");
        data.put("later", true);

        assertThat(event.data()).containsOnlyKeys("inner", "array");
        assertThat(event.data().get("inner")).isEqualTo(Map.of("k", List.of("a")));
        assertThat(event.data().get("array")).isEqualTo(List.of(1, 2));
        @SuppressWarnings("unchecked")
        Map<String, Object> copiedInner = (Map<String, Object>) event.data().get("inner");
        assertThatThrownBy(() -> copiedInner.put("x", 1)).isInstanceOf(UnsupportedOperationException.class);
        assertThatThrownBy(() -> event.data().put("x", 1)).isInstanceOf(UnsupportedOperationException.class);
    }

    @Test
    void mutableValuesInDataAreSnapshottedAsText() {
        AtomicLong counter = new AtomicLong(41);

        Event event = Event.builder(TestContexts.context(), "orchestrate", "step").data("count", counter).build();
        counter.incrementAndGet();

        assertThat(event.data().get("count")).isEqualTo("41");
    }

    @Test
    void nullDataValuesAreKept() {
        Event event = Event.builder(TestContexts.context(), "orchestrate", "step").data("nothing", null).build();

        assertThat(event.data()).containsEntry("nothing", null);
        assertThat(event.dataValue("nothing")).isEmpty();
    }
}
