package dev.pagantic.orchestrate.facade;

import static dev.pagantic.orchestrate.facade.FacadeAssertions.assertConfigInvalid;
import static org.assertj.core.api.Assertions.assertThat;

import dev.pagantic.core.FinishReason;
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
    void aWireNameReadsBackAsItsFinishReasonAndAnUnknownOneIsAConfigurationError() {
        for (FinishReason reason : FinishReason.values()) {
            assertThat(FinishReason.fromWireName(reason.wireName())).isEqualTo(reason);
        }
        assertConfigInvalid(() -> FinishReason.fromWireName("tool"));
    }
}
