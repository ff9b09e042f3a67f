package dev.pagantic.orchestrate.facade;

import static dev.pagantic.orchestrate.facade.FacadeAssertions.assertConfigInvalid;
import static org.assertj.core.api.Assertions.assertThat;

import dev.pagantic.core.Correlation;
import dev.pagantic.core.ErrorCode;
import dev.pagantic.core.ToolCall;
import dev.pagantic.core.ToolResult;
import dev.pagantic.tool.ToolExecution;
import java.time.Duration;
import java.util.Map;
import java.util.Optional;
import org.junit.jupiter.api.Test;

class ToolCallRecordTest {

    private static final Correlation CORRELATION = new Correlation("req", "", "trace", "span", "", "call-1");
    private static final ToolCall CALL = ToolCall.of("call-1", "get_weather", Map.of("city", "Paris"));

    @Test
    void aSuccessfulExecutionIsRecordedWithItsNameArgumentsResultAndDuration() {
        ToolExecution execution = new ToolExecution(CALL, ToolResult.success("call-1", "get_weather", "18°C"),
                Optional.empty(), false, Duration.ofMillis(120), CORRELATION);

        ToolCallRecord record = ToolCallRecord.from(execution);

        assertThat(record.id()).isEqualTo("call-1");
        assertThat(record.name()).isEqualTo("get_weather");
        assertThat(record.arguments()).containsExactly(Map.entry("city", "Paris"));
        assertThat(record.result()).isEqualTo("18°C");
        assertThat(record.isError()).isFalse();
        assertThat(record.errorCode()).isEmpty();
        assertThat(record.duration()).isEqualTo(Duration.ofMillis(120));
        assertThat(record.toolCall()).isEqualTo(CALL);
    }

    @Test
    void aFailedExecutionIsRecordedAsAnErrorWithItsCode() {
        ToolExecution execution = new ToolExecution(CALL,
                ToolResult.error("call-1", "get_weather", "tool 'get_weather' is not allowed"),
                Optional.of(ErrorCode.TOOL_NOT_FOUND), false, Duration.ZERO, CORRELATION);

        ToolCallRecord record = ToolCallRecord.from(execution);

        assertThat(record.isError()).isTrue();
        assertThat(record.errorCode()).contains(ErrorCode.TOOL_NOT_FOUND);
        assertThat(record.result()).isEqualTo("tool 'get_weather' is not allowed");
    }

    @Test
    void inconsistentOrMalformedRecordsAreConfigurationErrors() {
        assertConfigInvalid(() -> new ToolCallRecord("id", "t", Map.of(), "ok", false,
                Optional.of(ErrorCode.TOOL_TIMEOUT), Duration.ZERO));
        assertConfigInvalid(() -> new ToolCallRecord("", "t", Map.of(), "ok", false, Optional.empty(),
                Duration.ZERO));
        assertConfigInvalid(() -> new ToolCallRecord("id", "t", Map.of(), "ok", false, Optional.empty(),
                Duration.ofMillis(-1)));
        assertConfigInvalid(() -> new ToolCallRecord("id", "t", Map.of("when", Duration.ZERO), "ok", false,
                Optional.empty(), Duration.ZERO));
        assertConfigInvalid(() -> ToolCallRecord.from(null));
    }
}
