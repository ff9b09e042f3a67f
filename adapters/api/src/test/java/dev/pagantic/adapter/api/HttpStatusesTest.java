package dev.pagantic.adapter.api;

import static org.assertj.core.api.Assertions.assertThat;

import dev.pagantic.core.ErrorCode;
import org.junit.jupiter.api.Test;

class HttpStatusesTest {

    @Test
    void theCategoryDecidesTheStatus() {
        assertThat(HttpStatuses.of(ErrorCode.CONFIG_INVALID)).isEqualTo(400);
        assertThat(HttpStatuses.of(ErrorCode.CONFIG_SCHEMA_REQUIRED)).isEqualTo(400);
        assertThat(HttpStatuses.of(ErrorCode.TOOL_EXECUTION_FAILED)).isEqualTo(422);
        assertThat(HttpStatuses.of(ErrorCode.CONSTRAINT_SCHEMA_INVALID)).isEqualTo(422);
        assertThat(HttpStatuses.of(ErrorCode.VALIDATION_RULE_FAILED)).isEqualTo(422);
        assertThat(HttpStatuses.of(ErrorCode.INFERENCE_ENGINE_ERROR)).isEqualTo(502);
        assertThat(HttpStatuses.of(ErrorCode.INFERENCE_MALFORMED_RESPONSE)).isEqualTo(502);
        assertThat(HttpStatuses.of(ErrorCode.ORCHESTRATION_ITERATION_LIMIT)).isEqualTo(500);
        assertThat(HttpStatuses.of(ErrorCode.CANCELLED_SIGNAL)).isEqualTo(499);
    }

    @Test
    void someCodesMeanSomethingMorePreciseInHttp() {
        assertThat(HttpStatuses.of(ErrorCode.INFERENCE_CONTEXT_EXCEEDED)).isEqualTo(400);
        assertThat(HttpStatuses.of(ErrorCode.INFERENCE_SATURATED)).isEqualTo(503);
        assertThat(HttpStatuses.of(ErrorCode.ORCHESTRATION_CONCURRENT_USE)).isEqualTo(409);
        assertThat(HttpStatuses.of(ErrorCode.CANCELLED_TIMEOUT)).isEqualTo(408);
    }

    @Test
    void everyCodeHasAStatusAndEveryStatusAnOpenAiType() {
        for (ErrorCode code : ErrorCode.values()) {
            int status = HttpStatuses.of(code);
            assertThat(status).isBetween(400, 599);
            assertThat(HttpStatuses.openAiType(status)).isNotBlank();
        }
    }
}
