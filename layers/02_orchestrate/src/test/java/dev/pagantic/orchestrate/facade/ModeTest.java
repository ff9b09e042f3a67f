package dev.pagantic.orchestrate.facade;

import static dev.pagantic.orchestrate.facade.FacadeAssertions.assertConfigInvalid;
import static org.assertj.core.api.Assertions.assertThat;

import java.util.Arrays;
import org.junit.jupiter.api.Test;

class ModeTest {

    @Test
    void modesHaveTheSpecificationsWireNames() {
        assertThat(Arrays.stream(Mode.values()).map(Mode::wireName))
                .containsExactly("chat", "structured", "plan", "redundant");
    }

    @Test
    void wireNamesParseBackIgnoringCaseAndBlanks() {
        for (Mode mode : Mode.values()) {
            assertThat(Mode.fromWireName(mode.wireName())).isEqualTo(mode);
        }
        assertThat(Mode.fromWireName(" Structured ")).isEqualTo(Mode.STRUCTURED);
        assertThat(Mode.REDUNDANT).hasToString("redundant");
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
