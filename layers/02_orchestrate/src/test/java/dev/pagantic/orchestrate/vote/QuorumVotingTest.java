package dev.pagantic.orchestrate.vote;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.pagantic.core.ErrorCode;
import dev.pagantic.core.PaganticException;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

class QuorumVotingTest {

    @Test
    void aWinnerAtOrAboveTheQuorumIsReturnedUnchanged() {
        VotingStrategy voting = new MajorityVoting().withQuorum(2.0 / 3);
        List<String> candidates = List.of("positive", "positive", "negative");

        assertThat(voting.vote(candidates)).isEqualTo(new MajorityVoting().vote(candidates));
    }

    @Test
    void aHalfQuorumAcceptsTwoOfFour() {
        Vote vote = new MajorityVoting().withQuorum(0.5).vote(List.of("a", "b", "a", "c"));

        assertThat(vote.winner()).isEqualTo("a");
        assertThat(vote.confidence()).isEqualTo(0.5);
    }

    @Test
    void aWinnerBelowTheQuorumIsNoConsensusWithTheTallyInTheDetails() {
        VotingStrategy voting = new MajorityVoting().withQuorum(0.5);

        assertThatThrownBy(() -> voting.vote(List.of("a", "b", "a", "b", "c")))
                .isInstanceOfSatisfying(PaganticException.class, e -> {
                    assertThat(e.code()).isEqualTo(ErrorCode.ORCHESTRATION_NO_CONSENSUS);
                    assertThat(e.description()).isEqualTo("quorum not reached: the leading candidate 0 has 2 of 5"
                            + " votes (0.400), below the quorum of 0.500");
                    assertThat(e.details()).containsEntry("winner", "a").containsEntry("winnerIndex", 0)
                            .containsEntry("supporters", 2).containsEntry("total", 5)
                            .containsEntry("confidence", 0.4).containsEntry("quorum", 0.5);
                });
    }

    @Test
    void aQuorumOfOneOnCanonicalJsonIsUnanimityUpToJsonEquivalence() {
        VotingStrategy voting = new CanonicalJsonVoting().withQuorum(1.0);

        assertThat(voting.vote(List.of("{\"a\":1,\"b\":2}", "{ \"b\": 2, \"a\": 1.0 }")).winner())
                .isEqualTo("{\"a\":1,\"b\":2}");
        assertThatThrownBy(() -> voting.vote(List.of("{\"a\":1}", "{\"a\":1}", "{\"a\":2}")))
                .isInstanceOfSatisfying(PaganticException.class,
                        e -> assertThat(e.code()).isEqualTo(ErrorCode.ORCHESTRATION_NO_CONSENSUS));
    }

    @Test
    void theUnderlyingStrategysErrorsPassThrough() {
        assertThatThrownBy(() -> new UnanimityVoting().withQuorum(0.5).vote(List.of("a", "b")))
                .isInstanceOf(PaganticException.class)
                .hasMessageContaining("unanimity voting: candidate 1 differs from candidate 0");
        assertThatThrownBy(() -> new MajorityVoting().withQuorum(0.5).vote(List.of()))
                .isInstanceOf(PaganticException.class)
                .hasMessageContaining("majority voting: no candidates");
    }

    @Test
    void appliesToACustomStrategy() {
        VotingStrategy first = candidates -> new Vote(candidates.get(0), 0, 0.3, 1, candidates.size());

        assertThatThrownBy(() -> first.withQuorum(0.5).vote(List.of("x", "y")))
                .isInstanceOf(PaganticException.class)
                .hasMessageContaining("quorum not reached");
        assertThat(first.withQuorum(0.3).vote(List.of("x", "y")).winner()).isEqualTo("x");
    }

    @ParameterizedTest
    @ValueSource(doubles = {0.0, -0.1, 1.01, Double.NaN, Double.POSITIVE_INFINITY})
    void refusesAQuorumOutsideZeroExclusiveToOne(double quorum) {
        assertThatThrownBy(() -> new MajorityVoting().withQuorum(quorum))
                .isInstanceOfSatisfying(PaganticException.class,
                        e -> assertThat(e.code()).isEqualTo(ErrorCode.CONFIG_INVALID));
    }

    @Test
    void isAValueThatNamesItsStrategyAndQuorum() {
        assertThat(new MajorityVoting().withQuorum(0.5)).isEqualTo(new QuorumVoting(new MajorityVoting(), 0.5));
    }
}
