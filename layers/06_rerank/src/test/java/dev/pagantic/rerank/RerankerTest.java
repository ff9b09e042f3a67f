package dev.pagantic.rerank;

import static dev.pagantic.rerank.RerankTesting.assertCode;
import static dev.pagantic.rerank.RerankTesting.sources;
import static org.assertj.core.api.Assertions.assertThat;

import dev.pagantic.core.CallContext;
import dev.pagantic.core.Cancellation;
import dev.pagantic.core.Candidate;
import dev.pagantic.core.ErrorCode;
import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;

class RerankerTest {

    private static final List<Candidate> SCORED = List.of(
            Candidate.of("a", "a", 0.5),
            Candidate.of("b", "b", 0.9),
            Candidate.of("c", "c", 0.5),
            Candidate.of("d", "d", 0.1),
            Candidate.of("e", "e", 0.9),
            Candidate.of("f", "f", 0.5));

    @Test
    void sortsByScoreDescendingAndTiesKeepTheirInputOrder() {
        Reranker reranker = Reranker.builder().build();

        assertThat(sources(reranker.rerank("q", SCORED))).containsExactly("b", "e", "a", "c", "f", "d");
    }

    @Test
    void topKCutsAfterTheStableSortSoTiesAtTheBoundaryGoToTheEarlierInput() {
        Reranker reranker = Reranker.builder().topK(4).build();

        assertThat(sources(reranker.rerank("q", SCORED))).containsExactly("b", "e", "a", "c");
    }

    @Test
    void minScoreDropsCandidatesBelowItAndKeepsThoseEqualToIt() {
        Reranker reranker = Reranker.builder().minScore(0.5).build();

        assertThat(sources(reranker.rerank("q", SCORED))).containsExactly("b", "e", "a", "c", "f");
    }

    @Test
    void minScoreFiltersBeforeTopK() {
        Reranker reranker = Reranker.builder().minScore(0.6).topK(5).build();

        assertThat(sources(reranker.rerank("q", SCORED))).containsExactly("b", "e");
    }

    @Test
    void negativeAndPositiveZeroCountAsATie() {
        List<Candidate> zeros = List.of(Candidate.of("x", "first", -0.0), Candidate.of("y", "second", 0.0));

        assertThat(sources(Reranker.builder().build().rerank("q", zeros))).containsExactly("first", "second");
    }

    @Test
    void theScorersScoresReplaceTheCandidatesScores() {
        Reranker reranker = Reranker.builder()
                .scorer(Scorer.perCandidate((query, candidate) -> candidate.content().length()))
                .build();

        List<Candidate> result = reranker.rerank("q", List.of(
                new Candidate("xx", "two", 9.0, Map.of("k", "v")), Candidate.of("xxx", "three", 1.0)));

        assertThat(sources(result)).containsExactly("three", "two");
        assertThat(result).extracting(Candidate::score).containsExactly(3.0, 2.0);
        assertThat(result.get(1).metadata()).containsEntry("k", "v");
    }

    @Test
    void anEmptyListReranksToAnEmptyList() {
        assertThat(Reranker.builder().topK(3).scorer(Bm25Scorer.standard()).build().rerank("q", List.of()))
                .isEmpty();
    }

    @Test
    void aScorerReturningTheWrongCountOrNaNIsRefused() {
        Reranker wrongCount = Reranker.builder().scorer((ctx, q, c) -> new double[] {1.0}).build();
        Reranker nan = Reranker.builder().scorer((ctx, q, c) -> new double[] {Double.NaN, 1.0}).build();
        List<Candidate> two = List.of(Candidate.of("a", "a"), Candidate.of("b", "b"));

        assertCode(ErrorCode.CONFIG_INVALID, () -> wrongCount.rerank("q", two));
        assertCode(ErrorCode.CONFIG_INVALID, () -> nan.rerank("q", two));
    }

    @Test
    void invalidSettingsAreRefusedAtBuild() {
        assertCode(ErrorCode.CONFIG_INVALID, () -> Reranker.builder().topK(0).build());
        assertCode(ErrorCode.CONFIG_INVALID, () -> Reranker.builder().minScore(Double.NaN).build());
        assertCode(ErrorCode.CONFIG_INVALID, () -> Mmr.of(1.5));
        assertThat(Reranker.builder().build().topK()).isEmpty();
    }

    @Test
    void aCancelledContextStopsBeforeScoring() {
        AtomicInteger calls = new AtomicInteger();
        Reranker reranker = Reranker.builder().scorer((ctx, q, c) -> {
            calls.incrementAndGet();
            return new double[c.size()];
        }).build();
        Cancellation cancellation = new Cancellation();
        cancellation.cancel();

        assertCode(ErrorCode.CANCELLED_SIGNAL,
                () -> reranker.rerank(RerankTesting.cancelled(cancellation), "q", SCORED));
        assertThat(calls).hasValue(0);
    }

    // ---- orchestrate's port, as orchestrate declares it, bound with a lambda and no conversion ----

    record RerankInput(String query, List<Candidate> candidates) {
    }

    @FunctionalInterface
    interface CandidateReranker {
        List<Candidate> rerank(CallContext ctx, RerankInput input);
    }

    @Test
    void bindsToTheCandidateRerankerShapeWithoutConvertingCandidates() {
        Reranker reranker = Reranker.builder().scorer(QueryTermOverlapScorer.standard()).topK(1).build();

        CandidateReranker port = (ctx, input) -> reranker.rerank(ctx, input.query(), input.candidates());

        List<Candidate> result = port.rerank(CallContext.background(), new RerankInput("go interfaces",
                List.of(Candidate.of("rust traits", "r"), Candidate.of("go interfaces are implicit", "g"))));

        assertThat(result).containsExactly(Candidate.of("go interfaces are implicit", "g", 1.0));
    }
}
