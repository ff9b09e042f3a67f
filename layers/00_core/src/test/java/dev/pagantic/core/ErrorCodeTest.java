package dev.pagantic.core;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.stream.Collectors;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

class ErrorCodeTest {

    /** The error codes of the specification's failure taxonomy table (seed 001, section 3), with their categories. */
    private static final Map<String, FailureCategory> SPECIFICATION_TABLE = specificationTable();

    private static Map<String, FailureCategory> specificationTable() {
        Map<String, FailureCategory> table = new LinkedHashMap<>();
        table.put("INFERENCE_ENGINE_ERROR", FailureCategory.INFERENCE);
        table.put("INFERENCE_MODEL_UNAVAILABLE", FailureCategory.INFERENCE);
        table.put("INFERENCE_CONTEXT_EXCEEDED", FailureCategory.INFERENCE);
        table.put("INFERENCE_MALFORMED_RESPONSE", FailureCategory.INFERENCE);
        table.put("TOOL_NOT_FOUND", FailureCategory.TOOL);
        table.put("TOOL_EXECUTION_FAILED", FailureCategory.TOOL);
        table.put("TOOL_TIMEOUT", FailureCategory.TOOL);
        table.put("TOOL_UNAVAILABLE", FailureCategory.TOOL);
        table.put("CONSTRAINT_GRAMMAR_REJECTED", FailureCategory.CONSTRAINT);
        table.put("CONSTRAINT_SCHEMA_INVALID", FailureCategory.CONSTRAINT);
        table.put("CONSTRAINT_JSON_INVALID", FailureCategory.CONSTRAINT);
        table.put("CONSTRAINT_ENUM_UNRECOGNIZED", FailureCategory.CONSTRAINT);
        table.put("VALIDATION_RULE_FAILED", FailureCategory.VALIDATION);
        table.put("VALIDATION_SEMANTIC_FAILED", FailureCategory.VALIDATION);
        table.put("ORCHESTRATION_STEP_MISMATCH", FailureCategory.ORCHESTRATION);
        table.put("ORCHESTRATION_ITERATION_LIMIT", FailureCategory.ORCHESTRATION);
        table.put("ORCHESTRATION_NO_CONSENSUS", FailureCategory.ORCHESTRATION);
        table.put("CONFIG_NO_ENGINE", FailureCategory.CONFIGURATION);
        table.put("CONFIG_SCHEMA_REQUIRED", FailureCategory.CONFIGURATION);
        table.put("CONFIG_GRAMMAR_NOT_FOUND", FailureCategory.CONFIGURATION);
        table.put("CANCELLED_TIMEOUT", FailureCategory.CANCELLATION);
        table.put("CANCELLED_SIGNAL", FailureCategory.CANCELLATION);
        return table;
    }

    @Test
    void everyCodeOfTheSpecificationsTableIsPresentWithItsCategory() {
        Map<String, FailureCategory> defined = Arrays.stream(ErrorCode.values())
                .collect(Collectors.toMap(ErrorCode::name, ErrorCode::category));

        assertThat(defined).containsAllEntriesOf(SPECIFICATION_TABLE);
        assertThat(SPECIFICATION_TABLE).hasSize(22);
    }

    @Test
    void specificationsCodesComeFirstInTableOrder() {
        assertThat(Arrays.stream(ErrorCode.values()).limit(SPECIFICATION_TABLE.size()).map(ErrorCode::name))
                .containsExactlyElementsOf(SPECIFICATION_TABLE.keySet());
    }

    @ParameterizedTest
    @EnumSource(ErrorCode.class)
    void everyCodeStartsWithItsCategorysPrefix(ErrorCode code) {
        assertThat(code.name()).startsWith(code.category().codePrefix());
    }

    @ParameterizedTest
    @EnumSource(ErrorCode.class)
    void noCodeStartsWithAnotherCategorysPrefix(ErrorCode code) {
        assertThat(Arrays.stream(FailureCategory.values()).filter(c -> code.name().startsWith(c.codePrefix())))
                .containsExactly(code.category());
    }

    @Test
    void theSevenCategoriesCarryTheSpecificationsNames() {
        assertThat(Arrays.stream(FailureCategory.values()).map(FailureCategory::displayName)).containsExactly(
                "InferenceFailure", "ToolFailure", "ConstraintFailure", "ValidationFailure",
                "OrchestrationFailure", "ConfigurationFailure", "Cancellation");
    }

    @ParameterizedTest
    @EnumSource(FailureCategory.class)
    void everyCategoryHasCodes(FailureCategory category) {
        assertThat(Arrays.stream(ErrorCode.values()).filter(code -> code.category() == category)).isNotEmpty();
    }

    @ParameterizedTest
    @EnumSource(value = ErrorCode.class, mode = EnumSource.Mode.MATCH_ANY,
            names = {"CONSTRAINT_.*", "VALIDATION_.*"})
    void constraintAndValidationFailuresAreRetryable(ErrorCode code) {
        assertThat(code.retryable()).isTrue();
    }

    @ParameterizedTest
    @EnumSource(value = ErrorCode.class, mode = EnumSource.Mode.MATCH_ANY,
            names = {"ORCHESTRATION_.*", "CONFIG_.*", "CANCELLED_.*"})
    void orchestrationConfigurationAndCancellationFailuresAreNotRetryable(ErrorCode code) {
        assertThat(code.retryable()).isFalse();
    }

    @Test
    void inferenceFailuresAreRetryableOnlyWhereASecondAttemptCanSucceed() {
        assertThat(ErrorCode.INFERENCE_ENGINE_ERROR.retryable()).isTrue();
        assertThat(ErrorCode.INFERENCE_MALFORMED_RESPONSE.retryable()).isTrue();
        assertThat(ErrorCode.INFERENCE_SATURATED.retryable()).isTrue();
        assertThat(ErrorCode.INFERENCE_MODEL_UNAVAILABLE.retryable()).isFalse();
        assertThat(ErrorCode.INFERENCE_CONTEXT_EXCEEDED.retryable()).isFalse();
        assertThat(ErrorCode.INFERENCE_ENGINE_CLOSED.retryable()).isFalse();
    }

    @Test
    void toolFailuresAreRetryableOnlyWhenTheToolDidNotRun() {
        assertThat(ErrorCode.TOOL_UNAVAILABLE.retryable()).isTrue();
        assertThat(ErrorCode.TOOL_INVALID_ARGUMENTS.retryable()).isTrue();
        assertThat(ErrorCode.TOOL_NOT_FOUND.retryable()).isFalse();
        assertThat(ErrorCode.TOOL_EXECUTION_FAILED.retryable()).isFalse();
        assertThat(ErrorCode.TOOL_TIMEOUT.retryable()).isFalse();
    }
}
