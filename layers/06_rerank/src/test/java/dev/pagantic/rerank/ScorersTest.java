package dev.pagantic.rerank;

import static dev.pagantic.rerank.RerankTesting.assertCode;
import static dev.pagantic.rerank.RerankTesting.sources;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

import dev.pagantic.core.CallContext;
import dev.pagantic.core.Candidate;
import dev.pagantic.core.ErrorCode;
import java.util.List;
import java.util.Set;
import org.junit.jupiter.api.Test;

class ScorersTest {

    private static final CallContext CTX = CallContext.background();

    // Lengths in terms (default tokenisation): 6, 9, 5, 3. N = 4, avgdl = 23 / 4 = 5.75.
    private static final List<Candidate> CORPUS = List.of(
            Candidate.of("The cat sat on the mat.", "d0"),
            Candidate.of("The dog chased the cat, and the cat ran!", "d1"),
            Candidate.of("Dogs and cats are pets.", "d2"),
            Candidate.of("A dog barked.", "d3"));

    /** One term's BM25 contribution with k1 = 1.2 and b = 0.75. */
    private static double term(double n, double df, double tf, double dl, double avgdl) {
        double idf = Math.log(1 + (n - df + 0.5) / (df + 0.5));
        return idf * tf * (1.2 + 1) / (tf + 1.2 * (1 - 0.75 + 0.75 * dl / avgdl));
    }

    @Test
    void bm25ScoresEqualHandComputedValuesOverTheCandidateSet() {
        double[] scores = Bm25Scorer.standard().score(CTX, "cat dog", CORPUS);

        assertThat(scores[0]).isCloseTo(term(4, 2, 1, 6, 5.75), within(1e-9));
        assertThat(scores[1]).isCloseTo(term(4, 2, 2, 9, 5.75) + term(4, 2, 1, 9, 5.75), within(1e-9));
        assertThat(scores[2]).isZero();
        assertThat(scores[3]).isCloseTo(term(4, 2, 1, 3, 5.75), within(1e-9));
        // values computed independently (Python, math.log); the context layer's retriever gives the same
        assertThat(scores[1]).isCloseTo(1.3853239375890485, within(1e-9));
        assertThat(scores[3]).isCloseTo(0.8617505488042564, within(1e-9));
        assertThat(scores[0]).isCloseTo(0.6810339288608396, within(1e-9));
    }

    @Test
    void bm25ParametersAndStopWordsAreConfigurable() {
        Bm25Scorer flat = Bm25Scorer.builder().k1(2.0).b(0.0).stopWords(Set.of("the")).build();

        double[] scores = flat.score(CTX, "the cat", CORPUS);

        // b = 0: no length normalisation; "the" ignored. cat: df 2, tf 1 in d0 and 2 in d1.
        double idf = Math.log(1 + (4 - 2 + 0.5) / (2 + 0.5));
        assertThat(scores[0]).isCloseTo(idf * 1 * 3.0 / (1 + 2.0), within(1e-9));
        assertThat(scores[1]).isCloseTo(idf * 2 * 3.0 / (2 + 2.0), within(1e-9));
        assertCode(ErrorCode.CONFIG_INVALID, () -> Bm25Scorer.builder().b(-0.1).build());
        assertCode(ErrorCode.CONFIG_INVALID, () -> Bm25Scorer.builder().k1(Double.POSITIVE_INFINITY).build());
    }

    @Test
    void bm25RerankingPutsTheBestKeywordMatchFirst() {
        Reranker reranker = Reranker.builder().scorer(Bm25Scorer.standard()).minScore(0.0001).build();

        assertThat(sources(reranker.rerank("cat dog", CORPUS))).containsExactly("d1", "d3", "d0");
    }

    @Test
    void queryTermOverlapIsTheShareOfDistinctQueryTermsPresent() {
        double[] scores = QueryTermOverlapScorer.standard().score(CTX, "cat dog cat fish",
                List.of(Candidate.of("a cat and a dog", "x"), Candidate.of("fish", "y"), Candidate.of("", "z")));

        assertThat(scores).containsExactly(2.0 / 3, 1.0 / 3, 0.0);
        assertThat(QueryTermOverlapScorer.withStopWords(Set.of("the")).score(CTX, "the", CORPUS))
                .containsOnly(0.0);
    }

    @Test
    void aTokenizerFunctionPlugsIn() {
        QueryTermOverlapScorer byWhitespace = QueryTermOverlapScorer.withTokenizer(s -> List.of(s.split(" ")));

        assertThat(byWhitespace.score(CTX, "Cat", List.of(Candidate.of("Cat", "a"), Candidate.of("cat", "b"))))
                .containsExactly(1.0, 0.0);
    }

    @Test
    void scaledToMaxKeepsRatiosWithinOne() {
        double[] scores = Scorer.scaledToMax(Scorer.existing()).score(CTX, "q",
                List.of(Candidate.of("a", "a", 4.0), Candidate.of("b", "b", -2.0), Candidate.of("c", "c", 1.0)));

        assertThat(scores).containsExactly(1.0, -0.5, 0.25);
    }
}
