package dev.pagantic.orchestrate.facade;

import static dev.pagantic.orchestrate.facade.FacadeAssertions.assertConfigInvalid;
import static org.assertj.core.api.Assertions.assertThat;

import java.util.Arrays;
import org.junit.jupiter.api.Test;

class ConfidenceSourceAndFinishReasonTest {

    @Test
    void confidenceSourcesHaveTheSpecificationsWireNames() {
        assertThat(Arrays.stream(ConfidenceSource.values()).map(ConfidenceSource::wireName))
                .containsExactly("voting", "validation", "retrieval");
        assertThat(ConfidenceSource.fromWireName("Voting")).isEqualTo(ConfidenceSource.VOTING);
        assertThat(ConfidenceSource.RETRIEVAL).hasToString("retrieval");
    }

    @Test
    void anUnknownConfidenceSourceIsAConfigurationError() {
        assertConfigInvalid(() -> ConfidenceSource.fromWireName("vibes"));
    }

    @Test
    void finishReasonsUseTheOpenAiVocabulary() {
        assertThat(Arrays.stream(FinishReason.values()).map(FinishReason::wireName))
                .containsExactly("stop", "length", "tool_calls", "error");
    }

    @Test
    void everyEngineFinishReasonMapsToTheFacadesOwn() {
        assertThat(FinishReason.from(dev.pagantic.inference.FinishReason.STOP)).isEqualTo(FinishReason.STOP);
        assertThat(FinishReason.from(dev.pagantic.inference.FinishReason.LENGTH)).isEqualTo(FinishReason.LENGTH);
        assertThat(FinishReason.from(dev.pagantic.inference.FinishReason.TOOL_CALLS))
                .isEqualTo(FinishReason.TOOL_CALLS);
    }
}
