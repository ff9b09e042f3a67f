package dev.pagantic.orchestrate.facade;

import static dev.pagantic.orchestrate.facade.FacadeAssertions.assertConfigInvalid;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.pagantic.inference.InferenceSettings;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.OptionalDouble;
import org.junit.jupiter.api.Test;

class ExecutionHintsTest {

    @Test
    void defaultsLeaveEveryKnobToTheEngine() {
        ExecutionHints hints = ExecutionHints.builder().build();

        assertThat(hints).isEqualTo(ExecutionHints.DEFAULTS);
        assertThat(hints.settings().maxTokens()).isZero();
        assertThat(hints.settings().hasMaxTokens()).isFalse();
        assertThat(hints.timeout()).isEqualTo(Duration.ZERO);
        assertThat(hints.hasTimeout()).isFalse();
        assertThat(hints.settings().temperature()).isEmpty();
        assertThat(hints.settings().topP()).isEmpty();
        assertThat(hints.settings().options()).isEmpty();
    }

    @Test
    void aTemperatureOfZeroMeansGreedyNotDefault() {
        ExecutionHints hints = ExecutionHints.builder().temperature(0.0).build();

        assertThat(hints.settings().temperature()).isEqualTo(OptionalDouble.of(0.0));
        assertThat(hints.toBuilder().defaultTemperature().build().settings().temperature()).isEmpty();
    }

    @Test
    void aTopPOfZeroMeansTheEngineDefaultAsInTheSpecification() {
        assertThat(ExecutionHints.builder().topP(0.0).build().settings().topP()).isEmpty();
        assertThat(ExecutionHints.builder().topP(0.9).build().settings().topP()).isEqualTo(OptionalDouble.of(0.9));
        assertThat(ExecutionHints.builder().topP(0.9).defaultTopP().build().settings().topP()).isEmpty();
    }

    @Test
    void givenValuesAreKept() {
        ExecutionHints hints = ExecutionHints.builder().maxTokens(512).timeout(Duration.ofSeconds(30))
                .temperature(0.7).topP(1.0).seed(42).stop(List.of("END")).option("mirostat", 2).build();

        assertThat(hints.settings().maxTokens()).isEqualTo(512);
        assertThat(hints.settings().hasMaxTokens()).isTrue();
        assertThat(hints.timeout()).isEqualTo(Duration.ofSeconds(30));
        assertThat(hints.hasTimeout()).isTrue();
        assertThat(hints.settings().temperature()).isEqualTo(OptionalDouble.of(0.7));
        assertThat(hints.settings().topP()).isEqualTo(OptionalDouble.of(1.0));
        assertThat(hints.settings().seed()).hasValue(42L);
        assertThat(hints.settings().stop()).containsExactly("END");
        assertThat(hints.settings().options()).containsEntry("mirostat", 2);
        assertThat(hints.toBuilder().build()).isEqualTo(hints);
    }

    @Test
    void outOfRangeValuesAreConfigurationErrors() {
        assertConfigInvalid(() -> ExecutionHints.builder().maxTokens(-1).build());
        assertConfigInvalid(() -> ExecutionHints.builder().timeout(Duration.ofMillis(-1)).build());
        assertConfigInvalid(() -> ExecutionHints.builder().timeout(null));
        assertConfigInvalid(() -> ExecutionHints.builder().temperature(-0.1).build());
        assertConfigInvalid(() -> ExecutionHints.builder().temperature(Double.NaN).build());
        assertConfigInvalid(() -> ExecutionHints.builder().temperature(Double.POSITIVE_INFINITY).build());
        assertConfigInvalid(() -> ExecutionHints.builder().topP(1.5).build());
        assertConfigInvalid(() -> ExecutionHints.builder().topP(-0.5).build());
    }

    @Test
    void theSettingsAreTheOneInferenceSettingsValueAndCanBeGivenWhole() {
        InferenceSettings settings = InferenceSettings.builder().maxTokens(64).seed(7).build();

        assertThat(ExecutionHints.builder().settings(settings).build().settings()).isEqualTo(settings);
    }

    @Test
    void optionsMustBeJsonValues() {
        assertConfigInvalid(() -> ExecutionHints.builder().option("when", Duration.ZERO).build());
        assertConfigInvalid(() -> ExecutionHints.builder().option(null, 1));
    }

    @Test
    void optionsAreAnImmutableDeepCopy() {
        List<Object> stops = new ArrayList<>(List.of("\n\n"));
        Map<String, Object> options = new HashMap<>();
        options.put("stop", stops);
        ExecutionHints hints = ExecutionHints.builder().options(options).build();

        stops.add("END");
        options.put("extra", true);

        assertThat(hints.settings().options()).containsOnlyKeys("stop");
        assertThat(hints.settings().options().get("stop")).isEqualTo(List.of("\n\n"));
        assertThatThrownBy(() -> hints.settings().options().put("x",
                1)).isInstanceOf(UnsupportedOperationException.class);
    }
}
