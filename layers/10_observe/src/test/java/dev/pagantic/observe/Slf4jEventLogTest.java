package dev.pagantic.observe;

import static org.assertj.core.api.Assertions.assertThat;

import dev.pagantic.core.CallContext;
import dev.pagantic.core.ErrorCode;
import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.OptionalDouble;
import org.junit.jupiter.api.Test;
import org.slf4j.event.KeyValuePair;
import org.slf4j.event.Level;
import org.slf4j.event.LoggingEvent;

class Slf4jEventLogTest {

    private final CallContext ctx = TestContexts.context().childSpan("call_1");

    private static Map<String, Object> keyValues(LoggingEvent event) {
        Map<String, Object> pairs = new LinkedHashMap<>();
        for (KeyValuePair pair : event.getKeyValuePairs()) {
            pairs.put(pair.key, pair.value);
        }
        return pairs;
    }

    @Test
    void aLogLineCarriesTheCorrelationIdsAsKeyValuePairs() {
        CapturingLogger logger = new CapturingLogger();
        EventLog log = Slf4jEventLog.builder().logger(logger).build();

        log.record(Event.builder(ctx, "tool", "execute").duration(Duration.ofMillis(12)).data("tool_name", "search")
                .build());

        assertThat(logger.events()).hasSize(1);
        LoggingEvent line = logger.events().get(0);
        assertThat(line.getLevel()).isEqualTo(Level.INFO);
        assertThat(keyValues(line))
                .containsEntry("request_id", "req-1")
                .containsEntry("session_id", "sess-1")
                .containsEntry("trace_id", "trace-1")
                .containsEntry("span_id", ctx.spanId())
                .containsEntry("parent_span_id", ctx.correlation().parentSpanId())
                .containsEntry("caused_by", "call_1")
                .containsEntry("layer", "tool")
                .containsEntry("action", "execute")
                .containsEntry("duration_ms", 12L)
                .containsEntry("tool_name", "search");
    }

    @Test
    void theMessageRepeatsTheCorrelationIdsForPlainLayoutsWhenAsked() {
        CapturingLogger logger = new CapturingLogger();
        EventLog log = Slf4jEventLog.builder().logger(logger).fieldsInMessage(true).build();

        log.record(Event.builder(ctx, "tool", "execute").build());

        assertThat(logger.events().get(0).getMessage()).startsWith("tool execute ")
                .contains("request_id=req-1").contains("session_id=sess-1").contains("trace_id=trace-1")
                .contains("span_id=" + ctx.spanId()).contains("caused_by=call_1");
    }

    @Test
    void byDefaultEachFieldIsWrittenOnceAsAKeyValuePairAndNotRepeatedInTheMessage() {
        CapturingLogger logger = new CapturingLogger();
        EventLog log = Slf4jEventLog.builder().logger(logger).build();

        log.record(Event.builder(ctx, "tool", "execute").build());

        assertThat(logger.events().get(0).getMessage()).isEqualTo("tool execute");
        assertThat(keyValues(logger.events().get(0))).containsEntry("request_id", "req-1");
    }

    @Test
    void failedEventsAreLoggedAtTheErrorLevelWithTheirCode() {
        CapturingLogger logger = new CapturingLogger();
        EventLog log = Slf4jEventLog.builder().logger(logger).errorLevel(Level.ERROR).build();

        log.record(Event.builder(ctx, "tool", "execute").error(EventError.of(ErrorCode.TOOL_TIMEOUT, "slow"))
                .build());

        LoggingEvent line = logger.events().get(0);
        assertThat(line.getLevel()).isEqualTo(Level.ERROR);
        assertThat(keyValues(line)).containsEntry("error_code", "TOOL_TIMEOUT").containsEntry("error_message", "slow");
    }

    @Test
    void eventsBelowTheLoggersLevelWriteNothing() {
        CapturingLogger logger = new CapturingLogger(Level.WARN);
        EventLog log = Slf4jEventLog.builder().logger(logger).level(Level.DEBUG).build();

        log.record(Event.builder(ctx, "tool", "execute").build());

        assertThat(logger.events()).isEmpty();
    }

    @Test
    void emptyOptionalIdsAreLeftOutAndShadowingDataKeysArePrefixed() {
        CallContext single = CallContext.builder().requestId("req-9").build();

        Map<String, Object> fields = Slf4jEventLog.fieldsOf(
                Event.builder(single, "orchestrate", "infer").data("layer", "mine").build());

        assertThat(fields).doesNotContainKeys("session_id", "parent_span_id", "caused_by")
                .containsEntry("request_id", "req-9").containsEntry("layer", "orchestrate")
                .containsEntry("data.layer", "mine");
    }

    @Test
    void theDefaultLogWritesThroughTheSlf4jBackendWithoutFailing() {
        Slf4jEventLog.create().record(new InferenceStartEvent(EventContext.of(ctx), "tiny", 2, 0, false, false,
                OptionalDouble.of(0.2)));
    }

    @Test
    void theLogIsEnabledOnlyWhileItsLoggerWritesAtOneOfItsLevels() {
        EventLog quiet = Slf4jEventLog.builder().logger(new CapturingLogger(Level.ERROR)).build(); // INFO and WARN off
        EventLog failuresOnly = Slf4jEventLog.builder().logger(new CapturingLogger(Level.WARN)).build();

        assertThat(quiet.isEnabled()).isFalse();
        assertThat(failuresOnly.isEnabled()).isTrue();
        assertThat(Slf4jEventLog.builder().logger(new CapturingLogger()).build().isEnabled()).isTrue();
    }
}
