package dev.pagantic.orchestrate.facade;

import static dev.pagantic.orchestrate.facade.FacadeAssertions.assertConfigInvalid;
import static org.assertj.core.api.Assertions.assertThat;

import java.util.Arrays;
import org.junit.jupiter.api.Test;

class ModeTest {

    @Test
    void modesHaveTheSpecificationsWireNames() {
        assertThat(Arrays.stream(Mode.values()).map(Mode::wireName))
                .containsExactly("chat", "structured", "plan", "redundant", "adversarial", "vote", "refine");
    }

    @Test
    void wireNamesParseBackIgnoringCaseAndBlanks() {
        for (Mode mode : Mode.values()) {
            assertThat(Mode.fromWireName(mode.wireName())).isEqualTo(mode);
        }
        assertThat(Mode.fromWireName(" Structured ")).isEqualTo(Mode.STRUCTURED);
        assertThat(Mode.REDUNDANT).hasToString("redundant");
        assertThat(Mode.fromWireName("VOTE")).isEqualTo(Mode.VOTE);
    }

    @Test
    void theMultiModelModesNeedNoSchema() {
        assertThat(Mode.ADVERSARIAL.requiresSchema()).isFalse();
        assertThat(Mode.VOTE.requiresSchema()).isFalse();
        assertThat(Mode.REFINE.requiresSchema()).isFalse();
    }

    @Test
    void anUnknownModeIsAConfigurationError() {
        assertConfigInvalid(() -> Mode.fromWireName("ensemble"));
        assertConfigInvalid(() -> Mode.fromWireName(""));
        assertConfigInvalid(() -> Mode.fromWireName(null));
    }

    @Test
    void onlyStructuredAndRedundantModesRequireASchema() {
        assertThat(Mode.STRUCTURED.requiresSchema()).isTrue();
        assertThat(Mode.REDUNDANT.requiresSchema()).isTrue();
        assertThat(Mode.CHAT.requiresSchema()).isFalse();
        assertThat(Mode.PLAN.requiresSchema()).isFalse();
    }
}
