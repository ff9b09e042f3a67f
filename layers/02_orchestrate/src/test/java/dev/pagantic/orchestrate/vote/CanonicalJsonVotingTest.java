package dev.pagantic.orchestrate.vote;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.pagantic.core.ErrorCode;
import dev.pagantic.core.PaganticException;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

class CanonicalJsonVotingTest {

    private final VotingStrategy voting = new CanonicalJsonVoting();

    @Test
    void keyOrderAndWhitespaceDoNotSplitTheVote() {
        Vote vote = voting.vote(List.of(
                "{\"sentiment\":\"negative\"}",
                "{\"sentiment\":\"positive\",\"score\":0.9}",
                "{ \"score\" : 0.9,\n  \"sentiment\" : \"positive\" }"));

        assertThat(vote.winner()).isEqualTo("{\"sentiment\":\"positive\",\"score\":0.9}");
        assertThat(vote.winnerIndex()).isEqualTo(1);
        assertThat(vote.supporters()).isEqualTo(2);
        assertThat(vote.confidence()).isEqualTo(2.0 / 3);
    }

    @Test
    void keyOrderIsIgnoredInNestedObjectsToo() {
        Vote vote = voting.vote(List.of(
                "{\"a\":{\"x\":1,\"y\":[{\"p\":true,\"q\":null}]},\"b\":\"s\"}",
                "{\"b\":\"s\",\"a\":{\"y\":[{\"q\":null,\"p\":true}],\"x\":1}}"));

        assertThat(vote.unanimous()).isTrue();
    }

    @Test
    void returnsTheFirstSeenOriginalTextOfTheWinningClassNotAReserialisation() {
        Vote vote = voting.vote(List.of("{ \"b\" : 2 , \"a\" : 1.50 }", "{\"a\":1.5,\"b\":2}"));

        assertThat(vote.winner()).isEqualTo("{ \"b\" : 2 , \"a\" : 1.50 }");
        assertThat(vote.winnerIndex()).isZero();
    }

    @ParameterizedTest
    @CsvSource(delimiter = '|', value = {
            "1 | 1.0",
            "1 | 1.00",
            "1 | 1e0",
            "100 | 1E2",
            "0.5 | 5e-1",
            "0 | -0",
            "0 | 0.000",
            "12345678901234567890123 | 12345678901234567890123.0"})
    void numbersAreComparedByValue(String left, String right) {
        assertThat(voting.vote(List.of("{\"n\":" + left + "}", "{\"n\":" + right + "}")).unanimous()).isTrue();
    }

    @ParameterizedTest
    @CsvSource(delimiter = '|', value = {
            "0.1 | 0.10000000000000001",
            "1 | 2",
            "9007199254740993 | 9007199254740992",
            "1 | \"1\"",
            "true | \"true\"",
            "null | \"null\"",
            "0 | false"})
    void valuesThatDifferStayApart(String left, String right) {
        assertThat(voting.vote(List.of("{\"v\":" + left + "}", "{\"v\":" + right + "}")).supporters()).isOne();
    }

    @Test
    void arrayOrderMatters() {
        assertThat(voting.vote(List.of("[1,2]", "[2,1]")).supporters()).isOne();
    }

    @Test
    void aNullPropertyDiffersFromAnAbsentOne() {
        assertThat(voting.vote(List.of("{\"a\":1,\"b\":null}", "{\"a\":1}")).supporters()).isOne();
    }

    @Test
    void stringsAreComparedAfterUnescapingButOtherwiseExactly() {
        assertThat(voting.vote(List.of("\"A\"", "\"\\u0041\"")).unanimous()).isTrue();
        assertThat(voting.vote(List.of("\"positive\"", "\"Positive\"")).supporters()).isOne();
    }

    @Test
    void scalarsAreCandidatesToo() {
        Vote vote = voting.vote(List.of("\"positive\"", " \"positive\"\n", "\"negative\""));

        assertThat(vote.winner()).isEqualTo("\"positive\"");
        assertThat(vote.supporters()).isEqualTo(2);
    }

    @Test
    void anInvalidCandidateFormsItsOwnClassByItsRawText() {
        Vote vote = voting.vote(List.of("{\"a\":1}", "not json", "not json", "{ \"a\": 1 }", "not json"));

        assertThat(vote.winner()).isEqualTo("not json");
        assertThat(vote.winnerIndex()).isEqualTo(1);
        assertThat(vote.supporters()).isEqualTo(3);
        assertThat(vote.total()).isEqualTo(5);
    }

    @Test
    void invalidCandidatesAreComparedCharacterForCharacter() {
        Vote vote = voting.vote(List.of("{\"a\":1", "{\"a\": 1", "{\"a\":1}"));

        assertThat(vote.winner()).isEqualTo("{\"a\":1");
        assertThat(vote.supporters()).isOne();
    }

    @Test
    void invalidCandidatesKeepTheirVoteInTheTotal() {
        Vote vote = voting.vote(List.of("{\"a\":1}", "{\"a\":1.0}", "garbage", "{"));

        assertThat(vote.winner()).isEqualTo("{\"a\":1}");
        assertThat(vote.confidence()).isEqualTo(0.5);
        assertThat(vote.total()).isEqualTo(4);
    }

    @Test
    void anInvalidCandidateNeverJoinsAValidClassWithTheSameText() {
        // `hello` is not JSON; `"hello"` is the JSON string hello. They are different classes.
        assertThat(voting.vote(List.of("hello", "\"hello\"")).supporters()).isOne();
    }

    @Test
    void trailingContentAfterTheValueMakesACandidateInvalid() {
        Vote vote = voting.vote(List.of("{\"a\":1} trailing", "{\"a\":1}", "{\"a\":1} trailing"));

        assertThat(vote.winner()).isEqualTo("{\"a\":1} trailing");
        assertThat(vote.supporters()).isEqualTo(2);
    }

    @Test
    void anObjectWithADuplicateKeyIsInvalidBecauseItIsAmbiguous() {
        Vote vote = voting.vote(List.of("{\"a\":1,\"a\":2}", "{\"a\":2}", "{\"a\":2,\"a\":2}"));

        assertThat(vote.winner()).isEqualTo("{\"a\":1,\"a\":2}");
        assertThat(vote.supporters()).isOne();
    }

    @Test
    void emptyAndBlankCandidatesAreInvalidAndComparedByRawText() {
        Vote vote = voting.vote(List.of("", " ", "", "{}"));

        assertThat(vote.winner()).isEmpty();
        assertThat(vote.supporters()).isEqualTo(2);
    }

    @Test
    void breaksATieByFirstSeenOrder() {
        Vote vote = voting.vote(List.of("{\"x\":\"a\"}", "{\"x\":\"b\"}", "{ \"x\": \"a\" }", "{ \"x\": \"b\" }",
                "{\"x\":\"c\"}"));

        assertThat(vote.winner()).isEqualTo("{\"x\":\"a\"}");
        assertThat(vote.confidence()).isEqualTo(0.4);
    }

    @Test
    void withNoValidJsonItVotesExactlyAsMajorityVoting() {
        List<String> candidates = List.of("a", "b", "a", "b", "c");

        assertThat(voting.vote(candidates)).isEqualTo(new MajorityVoting().vote(candidates));
    }

    @Test
    void refusesAnEmptyCandidateListWithNoConsensus() {
        assertThatThrownBy(() -> voting.vote(List.of()))
                .isInstanceOfSatisfying(PaganticException.class, e -> {
                    assertThat(e.code()).isEqualTo(ErrorCode.ORCHESTRATION_NO_CONSENSUS);
                    assertThat(e.description()).isEqualTo("canonical JSON voting: no candidates to vote on");
                });
    }
}
