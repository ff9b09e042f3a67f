package dev.pagantic.orchestrate.facade;

import static dev.pagantic.orchestrate.facade.FacadeAssertions.assertConfigInvalid;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.pagantic.core.ErrorCode;
import dev.pagantic.core.FinishReason;
import dev.pagantic.core.TokenUsage;
import dev.pagantic.core.ToolCall;
import java.math.BigDecimal;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.OptionalDouble;
import org.junit.jupiter.api.Test;
import tools.jackson.databind.json.JsonMapper;

class SystemResponseTest {

    private static final SystemRequest REQUEST = SystemRequest.builder().requestId("req-1").sessionId("s-1")
            .user("hi").build();
    private static final ToolCall WEATHER_CALL = ToolCall.of("call-1", "get_weather", Map.of("city", "Oslo"));

    @Test
    void aMinimalResponseIsASuccessThatStopped() {
        SystemResponse response = SystemResponse.builder().correlation(REQUEST).content("hello").build();

        assertThat(response.isSuccess()).isTrue();
        assertThat(response.requestId()).isEqualTo("req-1");
        assertThat(response.sessionId()).isEqualTo("s-1");
        assertThat(response.content()).isEqualTo("hello");
        assertThat(response.finishReason()).isEqualTo(FinishReason.STOP);
        assertThat(response.structuredOutput()).isEmpty();
        assertThat(response.toolCallsMade()).isEmpty();
        assertThat(response.toolCallsRequested()).isEmpty();
        assertThat(response.hasToolCallsRequested()).isFalse();
        assertThat(response.confidence()).isEmpty();
        assertThat(response.confidenceSource()).isEmpty();
        assertThat(response.validationResult()).isEmpty();
        assertThat(response.tokenUsage()).isEqualTo(TokenUsage.ZERO);
        assertThat(response.error()).isEmpty();
    }

    @Test
    void aFailureCarriesTheErrorAndFinishesWithError() {
        SystemError error = SystemError.of(ErrorCode.CANCELLED_TIMEOUT, "deadline passed");

        SystemResponse response = SystemResponse.failure(REQUEST, error);

        assertThat(response.isSuccess()).isFalse();
        assertThat(response.error()).contains(error);
        assertThat(response.finishReason()).isEqualTo(FinishReason.ERROR);
        assertThat(response.requestId()).isEqualTo("req-1");
    }

    @Test
    void aFailureMayKeepPartialContent() {
        SystemResponse response = SystemResponse.builder().content("partial")
                .error(SystemError.of(ErrorCode.ORCHESTRATION_ITERATION_LIMIT, "too many tool rounds")).build();

        assertThat(response.content()).isEqualTo("partial");
        assertThat(response.isSuccess()).isFalse();
    }

    @Test
    void callerToolCallsAreHandedBackWithFinishReasonToolCalls() {
        SystemResponse response = SystemResponse.builder().correlation(REQUEST).toolCallRequested(WEATHER_CALL)
                .build();

        assertThat(response.isSuccess()).isTrue();
        assertThat(response.finishReason()).isEqualTo(FinishReason.TOOL_CALLS);
        assertThat(response.hasToolCallsRequested()).isTrue();
        assertThat(response.toolCallsRequested()).containsExactly(WEATHER_CALL);
    }

    @Test
    void requestedToolCallsAndTheirFinishReasonGoTogether() {
        assertConfigInvalid(() -> SystemResponse.builder().toolCallRequested(WEATHER_CALL)
                .finishReason(FinishReason.STOP).build());
        assertConfigInvalid(() -> SystemResponse.builder().finishReason(FinishReason.TOOL_CALLS).build());
        assertConfigInvalid(() -> SystemResponse.builder().toolCallRequested(WEATHER_CALL)
                .error(SystemError.of(ErrorCode.TOOL_NOT_FOUND, "no")).build());
    }

    @Test
    void anErrorAndItsFinishReasonGoTogether() {
        assertConfigInvalid(() -> SystemResponse.builder().finishReason(FinishReason.ERROR).build());
        assertConfigInvalid(() -> SystemResponse.builder().error(SystemError.of(ErrorCode.TOOL_NOT_FOUND, "no"))
                .finishReason(FinishReason.STOP).build());
    }

    @Test
    void aTruncatedAnswerFinishesWithLength() {
        SystemResponse response = SystemResponse.builder().content("and then")
                .finishReason(FinishReason.LENGTH).build();

        assertThat(response.finishReason()).isEqualTo(FinishReason.LENGTH);
        assertThat(response.isSuccess()).isTrue();
    }

    @Test
    void confidenceComesWithItsSourceAndStaysInTheUnitInterval() {
        SystemResponse response = SystemResponse.builder().content("positive")
                .confidence(2.0 / 3.0, ConfidenceSource.VOTING).build();

        assertThat(response.confidence()).isEqualTo(OptionalDouble.of(2.0 / 3.0));
        assertThat(response.confidenceSource()).contains(ConfidenceSource.VOTING);
        assertConfigInvalid(() -> SystemResponse.builder().confidence(1.5, ConfidenceSource.VOTING).build());
        assertConfigInvalid(() -> SystemResponse.builder().confidence(-0.1, ConfidenceSource.VALIDATION).build());
        assertConfigInvalid(() -> SystemResponse.builder().confidence(Double.NaN, ConfidenceSource.RETRIEVAL)
                .build());
        assertConfigInvalid(() -> new SystemResponse("", "", "", Optional.empty(), List.of(), List.of(),
                OptionalDouble.of(0.5), Optional.empty(), Optional.empty(), TokenUsage.ZERO, Optional.empty(),
                FinishReason.STOP));
        assertConfigInvalid(() -> new SystemResponse("", "", "", Optional.empty(), List.of(), List.of(),
                OptionalDouble.empty(), Optional.of(ConfidenceSource.VOTING), Optional.empty(), TokenUsage.ZERO,
                Optional.empty(), FinishReason.STOP));
    }

    @Test
    void structuredOutputIsStoredAsAnImmutableCanonicalTree() {
        List<Object> items = new ArrayList<>(List.of(1, 2));
        Map<String, Object> output = new HashMap<>(Map.of("items", items, "score", 0.5d));

        SystemResponse response = SystemResponse.builder().content("{...}").structuredOutput(output).build();
        items.add(3);

        assertThat(response.structuredOutput()).contains(Map.of("items", List.of(1L, 2L), "score",
                new BigDecimal("0.5")));
        @SuppressWarnings("unchecked")
        Map<String, Object> stored = (Map<String, Object>) response.structuredOutput().orElseThrow();
        assertThatThrownBy(() -> stored.put("x", 1)).isInstanceOf(UnsupportedOperationException.class);
    }

    @Test
    void structuredOutputFromAJsonNodeNeedsNoJacksonTypesToRead() {
        Object tree = JsonTrees.fromJsonNode(JsonMapper.shared().readTree("{\"sentiment\":\"positive\"}"))
                .orElseThrow();

        SystemResponse response = SystemResponse.builder().structuredOutput(tree).build();

        assertThat(response.structuredOutput()).contains(Map.of("sentiment", "positive"));
        assertThat(response.toBuilder().noStructuredOutput().build().structuredOutput()).isEmpty();
    }

    @Test
    void theCanonicalConstructorAlsoCopiesStructuredOutput() {
        Map<String, Object> output = new HashMap<>(Map.of("n", 1));

        SystemResponse response = new SystemResponse("", "", "", Optional.of(output), List.of(), List.of(),
                OptionalDouble.empty(), Optional.empty(), Optional.empty(), TokenUsage.ZERO, Optional.empty(),
                FinishReason.STOP);
        output.put("m", 2);

        assertThat(response.structuredOutput()).contains(Map.of("n", 1L));
    }

    @Test
    void nonJsonStructuredOutputIsAConfigurationError() {
        assertConfigInvalid(() -> SystemResponse.builder().structuredOutput(Duration.ZERO));
        assertConfigInvalid(() -> SystemResponse.builder().structuredOutput(null));
    }

    @Test
    void toolCallsMadeUsageAndValidationAreCarried() {
        ToolCallRecord record = new ToolCallRecord("call-1", "get_weather", Map.of("city", "Oslo"), "3°C", false,
                Optional.empty(), Duration.ofMillis(5));
        ValidationResult validation = new ValidationResult(2, 0, 0, false, List.of("json_check",
                "schema_validation"), List.of());
        TokenUsage usage = TokenUsage.of(100, 20).plus(TokenUsage.of(120, 10));

        SystemResponse response = SystemResponse.builder().content("It is 3°C.").toolCallMade(record)
                .validationResult(validation).tokenUsage(usage).build();

        assertThat(response.toolCallsMade()).containsExactly(record);
        assertThat(response.validationResult()).contains(validation);
        assertThat(response.tokenUsage().totalTokens()).isEqualTo(250);
        assertThatThrownBy(() -> response.toolCallsMade().clear()).isInstanceOf(UnsupportedOperationException.class);
        assertThat(response.toBuilder().build()).isEqualTo(response);
    }

    @Test
    void nullPartsAreConfigurationErrors() {
        assertConfigInvalid(() -> SystemResponse.builder().content(null));
        assertConfigInvalid(() -> SystemResponse.builder().tokenUsage(null));
        assertConfigInvalid(() -> SystemResponse.builder().toolCallMade(null));
        assertConfigInvalid(() -> SystemResponse.builder().correlation(null));
        assertConfigInvalid(() -> new SystemResponse("", "", "", Optional.empty(), List.of(), List.of(),
                OptionalDouble.empty(), Optional.empty(), Optional.empty(), TokenUsage.ZERO, Optional.empty(), null));
    }
}
