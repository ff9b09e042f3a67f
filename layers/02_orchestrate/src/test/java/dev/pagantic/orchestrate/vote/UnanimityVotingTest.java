package dev.pagantic.orchestrate.vote;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.pagantic.core.ErrorCode;
import dev.pagantic.core.FailureCategory;
import dev.pagantic.core.PaganticException;
import java.util.List;
import org.junit.jupiter.api.Test;

class UnanimityVotingTest {

    private final VotingStrategy voting = new UnanimityVoting();

    @Test
    void whenAllMatchTheWinnerHasConfidenceOne() {
        Vote vote = voting.vote(List.of("positive", "positive", "positive"));

        assertThat(vote.winner()).isEqualTo("positive");
        assertThat(vote.confidence()).isEqualTo(1.0);
        assertThat(vote.supporters()).isEqualTo(3);
        assertThat(vote.winnerIndex()).isZero();
    }

    @Test
    void whenAnyDiffersItFailsWithTheSpecificationsMessage() {
        assertThatThrownBy(() -> voting.vote(List.of("positive", "positive", "negative")))
                .isInstanceOfSatisfying(PaganticException.class, e -> {
                    assertThat(e.code()).isEqualTo(ErrorCode.ORCHESTRATION_NO_CONSENSUS);
                    assertThat(e.category()).isEqualTo(FailureCategory.ORCHESTRATION);
                    assertThat(e.retryable()).isFalse();
                    assertThat(e.description()).isEqualTo("unanimity voting: candidate 2 differs from candidate 0");
                    assertThat(e.details()).containsEntry("candidate", 2).containsEntry("reference", 0)
                            .containsEntry("total", 3);
                });
    }

    @Test
    void namesTheFirstCandidateThatDiffers() {
        assertThatThrownBy(() -> voting.vote(List.of("a", "b", "c")))
                .isInstanceOfSatisfying(PaganticException.class, e -> assertThat(e.description())
                        .isEqualTo("unanimity voting: candidate 1 differs from candidate 0"));
    }

    @Test
    void comparesCandidatesAsExactStrings() {
        assertThatThrownBy(() -> voting.vote(List.of("{\"a\":1,\"b\":2}", "{\"b\":2,\"a\":1}")))
                .isInstanceOf(PaganticException.class)
                .hasMessageContaining("candidate 1 differs from candidate 0");
    }

    @Test
    void aSingleCandidateIsUnanimous() {
        assertThat(voting.vote(List.of("x"))).isEqualTo(new Vote("x", 0, 1.0, 1, 1));
    }

    @Test
    void refusesAnEmptyCandidateListWithNoConsensus() {
        assertThatThrownBy(() -> voting.vote(List.of()))
                .isInstanceOfSatisfying(PaganticException.class, e -> {
                    assertThat(e.code()).isEqualTo(ErrorCode.ORCHESTRATION_NO_CONSENSUS);
                    assertThat(e.description()).isEqualTo("unanimity voting: no candidates to vote on");
                });
    }
}
