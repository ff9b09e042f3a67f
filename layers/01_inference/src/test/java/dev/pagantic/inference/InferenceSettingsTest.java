package dev.pagantic.inference;

import static dev.pagantic.inference.Failures.assertConfigInvalid;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Nested;
import org.junit.jupiter.api.Test;

class InferenceSettingsTest {

    private static final InferenceSettings CONFIGURED = InferenceSettings.builder().maxTokens(2048).temperature(0.7)
            .option("mirostat", 2).option("top_k", 40).build();

    @Nested
    class Layering {

        @Test
        void aValueSetInTheMoreSpecificSettingsReplacesTheOneBelowIt() {
            InferenceSettings request = InferenceSettings.builder().maxTokens(5).temperature(0.0).build();

            InferenceSettings effective = CONFIGURED.overrideWith(request);

            assertThat(effective.maxTokens()).isEqualTo(5);
            assertThat(effective.temperature()).hasValue(0.0);
        }

        @Test
        void anUnsetValueKeepsTheOneBelowIt() {
            InferenceSettings request = InferenceSettings.builder().seed(42).build();

            InferenceSettings effective = CONFIGURED.overrideWith(request);

            assertThat(effective.maxTokens()).isEqualTo(2048);
            assertThat(effective.temperature()).hasValue(0.7);
            assertThat(effective.seed()).hasValue(42L);
        }

        @Test
        void optionsAreMergedAndTheMoreSpecificValueOfAKeyWins() {
            InferenceSettings request = InferenceSettings.builder().option("top_k", 10).option("enable_thinking", false)
                    .build();

            InferenceSettings effective = CONFIGURED.overrideWith(request);

            assertThat(effective.options()).containsExactly(Map.entry("mirostat", 2), Map.entry("top_k", 10),
                    Map.entry("enable_thinking", false));
        }

        @Test
        void aStopListReplacesTheOneBelowItAndAnEmptyOneKeepsIt() {
            InferenceSettings below = InferenceSettings.builder().addStop("###").build();
            InferenceSettings above = InferenceSettings.builder().addStop("END").addStop("\n\n").build();

            assertThat(below.overrideWith(above).stop()).containsExactly("END", "\n\n");
            assertThat(below.overrideWith(InferenceSettings.DEFAULTS).stop()).containsExactly("###");
        }

        @Test
        void layeringFourLevelsAppliesTheMostSpecificOfEachValue() {
            InferenceSettings orchestrator = InferenceSettings.builder().maxTokens(2048).build();
            InferenceSettings request = InferenceSettings.builder().maxTokens(64).seed(7).build();
            InferenceSettings step = InferenceSettings.builder().temperature(0.2).option("enable_thinking", false)
                    .build();

            InferenceSettings effective = InferenceSettings.DEFAULTS.overrideWith(orchestrator).overrideWith(request)
                    .overrideWith(step);

            assertThat(effective).isEqualTo(InferenceSettings.builder().maxTokens(64).seed(7).temperature(0.2)
                    .option("enable_thinking", false).build());
        }
    }

    @Nested
    class Validation {

        @Test
        void nothingSetMeansTheEngineDefaultForEveryValue() {
            InferenceSettings defaults = InferenceSettings.builder().build();

            assertThat(defaults).isEqualTo(InferenceSettings.DEFAULTS);
            assertThat(defaults.hasMaxTokens()).isFalse();
            assertThat(defaults.temperature()).isEmpty();
            assertThat(defaults.topP()).isEmpty();
            assertThat(defaults.seed()).isEmpty();
            assertThat(defaults.stop()).isEmpty();
            assertThat(defaults.options()).isEmpty();
        }

        @Test
        void outOfRangeValuesAreRefusedWithConfigInvalid() {
            assertConfigInvalid(() -> InferenceSettings.builder().maxTokens(-1).build());
            assertConfigInvalid(() -> InferenceSettings.builder().temperature(-0.1).build());
            assertConfigInvalid(() -> InferenceSettings.builder().temperature(Double.NaN).build());
            assertConfigInvalid(() -> InferenceSettings.builder().topP(1.5).build());
            assertConfigInvalid(() -> InferenceSettings.builder().addStop("").build());
            assertConfigInvalid(() -> InferenceSettings.builder().option("callback", new Object()).build());
            assertConfigInvalid(() -> InferenceSettings.builder().stop(null));
        }

        @Test
        void greedyTemperatureIsAValueNotTheDefault() {
            assertThat(InferenceSettings.builder().temperature(0.0).build()).isNotEqualTo(InferenceSettings.DEFAULTS);
        }

        @Test
        void theStopListIsReplacedWholeAndUnmodifiable() {
            InferenceSettings settings = InferenceSettings.builder().addStop("a").stop(List.of("b", "c")).build();

            assertThat(settings.stop()).containsExactly("b", "c");
            assertThatThrownBy(() -> settings.stop().add("d")).isInstanceOf(UnsupportedOperationException.class);
        }
    }
}
