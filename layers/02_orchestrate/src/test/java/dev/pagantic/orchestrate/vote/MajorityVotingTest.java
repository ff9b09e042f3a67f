package dev.pagantic.orchestrate.vote;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.pagantic.core.ErrorCode;
import dev.pagantic.core.PaganticException;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import org.junit.jupiter.api.Test;

class MajorityVotingTest {

    private final VotingStrategy voting = new MajorityVoting();

    @Test
    void picksTheMostFrequentCandidateWithConfidenceTwoThirds() {
        Vote vote = voting.vote(List.of("positive", "positive", "negative"));

        assertThat(vote.winner()).isEqualTo("positive");
        assertThat(vote.confidence()).isEqualTo(2.0 / 3);
        assertThat(vote.supporters()).isEqualTo(2);
        assertThat(vote.total()).isEqualTo(3);
        assertThat(vote.winnerIndex()).isZero();
    }

    @Test
    void breaksATieByFirstSeenOrder() {
        Vote vote = voting.vote(List.of("a", "b", "a", "b", "c"));

        assertThat(vote.winner()).isEqualTo("a");
        assertThat(vote.confidence()).isEqualTo(0.4);
        assertThat(vote.supporters()).isEqualTo(2);
    }

    @Test
    void breaksATieByWhichClassWasSeenFirstNotWhichReachedTheCountFirst() {
        // "b" reaches two votes at index 2, before "a" does at index 3; "a" was seen first and wins.
        Vote vote = voting.vote(List.of("a", "b", "b", "a"));

        assertThat(vote.winner()).isEqualTo("a");
        assertThat(vote.winnerIndex()).isZero();
    }

    @Test
    void aLaterCandidateWithMoreVotesBeatsAnEarlierOne() {
        Vote vote = voting.vote(List.of("x", "y", "y"));

        assertThat(vote.winner()).isEqualTo("y");
        assertThat(vote.winnerIndex()).isEqualTo(1);
        assertThat(vote.confidence()).isEqualTo(2.0 / 3);
    }

    @Test
    void agreementOfAllCandidatesGivesConfidenceOne() {
        Vote vote = voting.vote(List.of("{\"sentiment\":\"positive\"}", "{\"sentiment\":\"positive\"}",
                "{\"sentiment\":\"positive\"}"));

        assertThat(vote.confidence()).isEqualTo(1.0);
        assertThat(vote.unanimous()).isTrue();
    }

    @Test
    void aSingleCandidateWinsWithConfidenceOne() {
        Vote vote = voting.vote(List.of("only"));

        assertThat(vote).isEqualTo(new Vote("only", 0, 1.0, 1, 1));
    }

    @Test
    void allDifferentCandidatesGiveTheFirstWithConfidenceOneOverN() {
        Vote vote = voting.vote(List.of("a", "b", "c", "d"));

        assertThat(vote.winner()).isEqualTo("a");
        assertThat(vote.confidence()).isEqualTo(0.25);
    }

    @Test
    void comparesCandidatesAsExactStrings() {
        Vote vote = voting.vote(List.of("{\"a\":1,\"b\":2}", "{\"b\":2,\"a\":1}", "Positive", "positive ",
                "{\"b\":2,\"a\":1}"));

        assertThat(vote.winner()).isEqualTo("{\"b\":2,\"a\":1}");
        assertThat(vote.supporters()).isEqualTo(2);
    }

    @Test
    void anEmptyStringIsACandidateLikeAnyOther() {
        Vote vote = voting.vote(List.of("", "x", ""));

        assertThat(vote.winner()).isEmpty();
        assertThat(vote.supporters()).isEqualTo(2);
    }

    @Test
    void refusesAnEmptyCandidateListWithNoConsensus() {
        assertThatThrownBy(() -> voting.vote(List.of()))
                .isInstanceOfSatisfying(PaganticException.class, e -> {
                    assertThat(e.code()).isEqualTo(ErrorCode.ORCHESTRATION_NO_CONSENSUS);
                    assertThat(e.description()).isEqualTo("majority voting: no candidates to vote on");
                    assertThat(e.details()).containsEntry("total", 0);
                });
    }

    @Test
    void refusesANullCandidate() {
        assertThatThrownBy(() -> voting.vote(Arrays.asList("a", null)))
                .isInstanceOf(NullPointerException.class)
                .hasMessageContaining("candidate 1");
    }

    @Test
    void doesNotModifyTheCandidateList() {
        List<String> candidates = new ArrayList<>(List.of("b", "a", "b"));

        voting.vote(candidates);

        assertThat(candidates).containsExactly("b", "a", "b");
    }

    @Test
    void instancesAreValuesThatCompareEqual() {
        assertThat(new MajorityVoting()).isEqualTo(new MajorityVoting());
    }
}
