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
    void everyCodeHasAStatusAndAnOpenAiTypeAndCode() {
        for (ErrorCode code : ErrorCode.values()) {
            int status = HttpStatuses.of(code);
            assertThat(status).isBetween(400, 599);
            assertThat(OpenAiError.typeOf(status)).isIn("invalid_request_error", "requests", "server_error");
            assertThat(OpenAiError.codeOf(code)).matches("[a-z_]+");
        }
    }

    @Test
    void clientErrorsAreInvalidRequestsAndRateLimitsAreRequestsAsOpenAiTypesThem() {
        assertThat(OpenAiError.typeOf(400)).isEqualTo("invalid_request_error");
        assertThat(OpenAiError.typeOf(404)).isEqualTo("invalid_request_error");
        assertThat(OpenAiError.typeOf(429)).isEqualTo("requests");
        assertThat(OpenAiError.typeOf(500)).isEqualTo("server_error");
        assertThat(OpenAiError.codeOf(ErrorCode.INFERENCE_CONTEXT_EXCEEDED)).isEqualTo("context_length_exceeded");
        assertThat(OpenAiError.paramOf(ErrorCode.INFERENCE_CONTEXT_EXCEEDED)).isEqualTo("messages");
    }

    @Test
    void aServerFailureHasOpenAisDocumentWithoutAPaganticCode() {
        String document = OpenAiError.document(500, "server_error", null, "the server failed", null);

        assertThat(document).isEqualTo("{\"error\":{\"message\":\"the server failed\",\"type\":\"server_error\","
                + "\"param\":null,\"code\":\"server_error\"}}");
    }
}
