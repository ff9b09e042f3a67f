package dev.pagantic.orchestrate.plan;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.pagantic.core.ErrorCode;
import dev.pagantic.core.PaganticException;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

class StepTypeTest {

    @Test
    void builtInTypesCarryTheSpecificationsNames() {
        assertThat(StepType.builtIn()).extracting(StepType::name)
                .containsExactly("infer", "tool", "retrieve", "rerank", "validate");
        assertThat(StepType.INFER).hasToString("infer");
    }

    @Test
    void ofABuiltInNameReturnsTheBuiltInConstant() {
        assertThat(StepType.of("rerank")).isSameAs(StepType.RERANK);
        assertThat(StepType.of("rerank").isBuiltIn()).isTrue();
    }

    @Test
    void customStepTypesAreEqualByName() {
        StepType summarize = StepType.of("summarize");

        assertThat(summarize).isEqualTo(StepType.of("summarize")).isNotEqualTo(StepType.of("classify"));
        assertThat(summarize.isBuiltIn()).isFalse();
    }

    @ParameterizedTest
    @ValueSource(strings = {"", " ", "Infer", "my step", "1st", "_x", "sum!"})
    void invalidStepTypeNamesAreRefusedAsConfigurationErrors(String name) {
        assertThatThrownBy(() -> StepType.of(name))
                .isInstanceOf(PaganticException.class)
                .satisfies(e -> assertThat(((PaganticException) e).code()).isEqualTo(ErrorCode.CONFIG_INVALID));
    }

    @Test
    void aNullOrOverlongNameIsRefused() {
        assertThatThrownBy(() -> StepType.of(null)).isInstanceOf(PaganticException.class);
        assertThatThrownBy(() -> StepType.of("a".repeat(StepType.MAX_NAME_LENGTH + 1)))
                .isInstanceOf(PaganticException.class);
        assertThat(StepType.of("a".repeat(StepType.MAX_NAME_LENGTH)).name()).hasSize(StepType.MAX_NAME_LENGTH);
    }

    @Test
    void namesMayUseDigitsUnderscoresHyphensAndDots() {
        assertThat(StepType.of("classify-v2.fast_path").name()).isEqualTo("classify-v2.fast_path");
    }
}
