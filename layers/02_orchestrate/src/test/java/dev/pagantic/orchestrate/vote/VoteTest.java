package dev.pagantic.orchestrate.vote;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.pagantic.core.ErrorCode;
import dev.pagantic.core.PaganticException;
import org.junit.jupiter.api.Test;

class VoteTest {

    @Test
    void ofComputesTheConfidenceAsSupportersOverTotal() {
        Vote vote = Vote.of("positive", 0, 2, 3);

        assertThat(vote.confidence()).isEqualTo(2.0 / 3);
        assertThat(vote.unanimous()).isFalse();
    }

    @Test
    void aCustomConfidenceInRangeIsKept() {
        assertThat(new Vote("x", 1, 0.0, 1, 4).confidence()).isZero();
        assertThat(new Vote("x", 1, 0.83, 1, 4).confidence()).isEqualTo(0.83);
    }

    @Test
    void refusesOutOfRangeFieldsAsInvalidConfiguration() {
        assertInvalid(() -> Vote.of("x", 0, 1, 0));
        assertInvalid(() -> Vote.of("x", 3, 1, 3));
        assertInvalid(() -> Vote.of("x", -1, 1, 3));
        assertInvalid(() -> Vote.of("x", 0, 0, 3));
        assertInvalid(() -> Vote.of("x", 0, 4, 3));
        assertInvalid(() -> new Vote("x", 0, 1.5, 1, 3));
        assertInvalid(() -> new Vote("x", 0, -0.1, 1, 3));
        assertInvalid(() -> new Vote("x", 0, Double.NaN, 1, 3));
    }

    @Test
    void refusesANullWinner() {
        assertThatThrownBy(() -> Vote.of(null, 0, 1, 1)).isInstanceOf(NullPointerException.class);
    }

    private static void assertInvalid(Runnable construction) {
        assertThatThrownBy(construction::run)
                .isInstanceOfSatisfying(PaganticException.class,
                        e -> assertThat(e.code()).isEqualTo(ErrorCode.CONFIG_INVALID));
    }
}
