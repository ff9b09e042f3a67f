package dev.pagantic.context;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.within;

import dev.pagantic.core.CallContext;
import dev.pagantic.core.Candidate;
import dev.pagantic.core.ErrorCode;
import dev.pagantic.core.PaganticException;
import java.util.List;
import java.util.Set;
import org.junit.jupiter.api.Test;

class Bm25RetrieverTest {

    // Standard tokenizer, no stop words. Lengths in terms:
    //   d0 "the cat sat on the mat"                    6
    //   d1 "the dog chased the cat and the cat ran"    9
    //   d2 "dogs and cats are pets"                    5   (dogs, cats: no match for dog, cat)
    //   d3 "a dog barked"                              3
    // N = 4, avgdl = 23 / 4 = 5.75
    private static final List<Candidate> CORPUS = List.of(
            Candidate.of("The cat sat on the mat.", "d0"),
            Candidate.of("The dog chased the cat, and the cat ran!", "d1"),
            Candidate.of("Dogs and cats are pets.", "d2"),
            Candidate.of("A dog barked.", "d3"));

    private static final double EXACT = 1e-9;

    /** One term's BM25 contribution, written out with k1 = 1.2 and b = 0.75. */
    private static double term(double n, double df, double tf, double dl, double avgdl) {
        double idf = Math.log(1 + (n - df + 0.5) / (df + 0.5));
        return idf * tf * (1.2 + 1) / (tf + 1.2 * (1 - 0.75 + 0.75 * dl / avgdl));
    }

    @Test
    void rankingEqualsHandComputedScoresOnASmallCorpus() {
        Bm25Retriever retriever = Bm25Retriever.of(CORPUS);

        List<Candidate> top = retriever.retrieve(CallContext.background(), "cat dog", 10);

        // cat: df 2 (d0, d1); dog: df 2 (d1, d3).
        double d0 = term(4, 2, 1, 6, 5.75);
        double d1 = term(4, 2, 2, 9, 5.75) + term(4, 2, 1, 9, 5.75);
        double d3 = term(4, 2, 1, 3, 5.75);
        assertThat(top).extracting(Candidate::source).containsExactly("d1", "d3", "d0");
        assertThat(top.get(0).score()).isCloseTo(d1, within(EXACT));
        assertThat(top.get(1).score()).isCloseTo(d3, within(EXACT));
        assertThat(top.get(2).score()).isCloseTo(d0, within(EXACT));
        // and the values computed independently (Python, math.log), so that a slip shared by the helper cannot hide
        assertThat(top.get(0).score()).isCloseTo(1.3853239375890485, within(EXACT));
        assertThat(top.get(1).score()).isCloseTo(0.8617505488042564, within(EXACT));
        assertThat(top.get(2).score()).isCloseTo(0.6810339288608396, within(EXACT));
    }

    @Test
    void rarerTermsWeighMoreThroughIdf() {
        Bm25Retriever retriever = Bm25Retriever.of(CORPUS);

        List<Double> scores = retriever.scoreAll("cat mat");

        // mat: df 1 (d0), cat: df 2.
        assertThat(scores.get(0)).isCloseTo(term(4, 2, 1, 6, 5.75) + term(4, 1, 1, 6, 5.75), within(EXACT));
        assertThat(scores.get(1)).isCloseTo(term(4, 2, 2, 9, 5.75), within(EXACT));
        assertThat(scores.get(2)).isZero();
        assertThat(scores.get(3)).isZero();
        assertThat(Math.log(1 + (4 - 1 + 0.5) / (1 + 0.5))).isGreaterThan(Math.log(1 + (4 - 2 + 0.5) / (2 + 0.5)));
    }

    @Test
    void k1AndBAreConfigurable() {
        Bm25Retriever retriever = Bm25Retriever.builder().addAll(CORPUS).k1(2.0).b(0.5).build();

        double expected = Math.log(1 + (4 - 2 + 0.5) / (2 + 0.5)) * 2 * (2.0 + 1)
                / (2 + 2.0 * (1 - 0.5 + 0.5 * 9 / 5.75));

        assertThat(retriever.scoreAll("cat").get(1)).isCloseTo(expected, within(EXACT));
    }

    @Test
    void withoutLengthNormalisationEqualTermFrequenciesTieAndKeepInsertionOrder() {
        Bm25Retriever retriever = Bm25Retriever.builder().b(0.0)
                .add("long", "apple pie with a great deal of cinnamon and sugar")
                .add("short", "apple tart")
                .build();

        List<Candidate> top = retriever.retrieve("apple", 2);

        assertThat(top).extracting(Candidate::source).containsExactly("long", "short");
        assertThat(top.get(0).score()).isEqualTo(top.get(1).score());
    }

    @Test
    void shorterChunksWinWithLengthNormalisation() {
        Bm25Retriever retriever = Bm25Retriever.builder()
                .add("long", "apple pie with a great deal of cinnamon and sugar")
                .add("short", "apple tart")
                .build();

        assertThat(retriever.retrieve("apple", 2)).extracting(Candidate::source).containsExactly("short", "long");
    }

    @Test
    void repeatingAQueryTermDoesNotWeighItMore() {
        Bm25Retriever retriever = Bm25Retriever.of(CORPUS);

        assertThat(retriever.scoreAll("cat cat CAT dog")).isEqualTo(retriever.scoreAll("cat dog"));
    }

    @Test
    void stopWordsAreNeitherIndexedNorMatched() {
        Bm25Retriever retriever = Bm25Retriever.builder()
                .tokenizer(Tokenizer.withStopWords(Tokenizer.englishStopWords()))
                .addAll(CORPUS).build();

        assertThat(retriever.retrieve("the", 10)).isEmpty();
        // d0 without stop words: cat, sat, mat (3); d1: dog, chased, cat, cat, ran (5); d2: dogs, cats, pets (3);
        // d3: dog, barked (2). avgdl = 13 / 4.
        assertThat(retriever.scoreAll("the mat").get(0)).isCloseTo(term(4, 1, 1, 3, 13.0 / 4), within(EXACT));
    }

    @Test
    void onlyChunksContainingAQueryTermAreReturnedUpToTheLimit() {
        Bm25Retriever retriever = Bm25Retriever.of(CORPUS);

        assertThat(retriever.retrieve("cat dog", 2)).extracting(Candidate::source).containsExactly("d1", "d3");
        assertThat(retriever.retrieve("giraffe", 10)).isEmpty();
        assertThat(Bm25Retriever.of(List.of()).retrieve("cat", 3)).isEmpty();
    }

    @Test
    void returnedChunksKeepTheirSourceAndMetadata() {
        Candidate chunk = Candidate.of("cats purr", "notes.md", java.util.Map.of("page", 3));
        Candidate found = Bm25Retriever.of(List.of(chunk)).retrieve("cats", 1).get(0);

        assertThat(found.source()).isEqualTo("notes.md");
        assertThat(found.metadata()).containsEntry("page", 3);
        assertThat(found.score()).isPositive();
    }

    @Test
    void invalidParametersAreRefusedAtBuild() {
        assertConfigInvalid(() -> Bm25Retriever.builder().k1(-0.1).build());
        assertConfigInvalid(() -> Bm25Retriever.builder().k1(Double.NaN).build());
        assertConfigInvalid(() -> Bm25Retriever.builder().b(1.5).build());
        assertConfigInvalid(() -> Bm25Retriever.of(CORPUS).retrieve("cat", 0));
    }

    @Test
    void aCancelledOrExpiredContextStopsRetrieval() {
        Bm25Retriever retriever = Bm25Retriever.of(CORPUS);

        assertThatThrownBy(() -> retriever.retrieve(Contexts.cancelled(), "cat", 3))
                .isInstanceOfSatisfying(PaganticException.class,
                        e -> assertThat(e.code()).isEqualTo(ErrorCode.CANCELLED_SIGNAL));
        assertThatThrownBy(() -> retriever.retrieve(Contexts.expired(), "cat", 3))
                .isInstanceOfSatisfying(PaganticException.class,
                        e -> assertThat(e.code()).isEqualTo(ErrorCode.CANCELLED_TIMEOUT));
    }

    @Test
    void tokenizerLowerCasesAndSplitsOnEverythingButLettersAndDigits() {
        assertThat(Tokenizer.standard().tokenize("Don't STOP-me now2, Ünïcode_ok"))
                .containsExactly("don", "t", "stop", "me", "now2", "ünïcode", "ok");
        assertThat(Tokenizer.withStopWords(Set.of("The", "of")).tokenize("The Lord of the Rings"))
                .containsExactly("lord", "rings");
        assertThat(Tokenizer.standard().tokenize(" -- ")).isEmpty();
    }

    static void assertConfigInvalid(Runnable action) {
        assertThatThrownBy(action::run).isInstanceOfSatisfying(PaganticException.class,
                e -> assertThat(e.code()).isEqualTo(ErrorCode.CONFIG_INVALID));
    }
}
