package dev.pagantic.orchestrate;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.pagantic.core.CallContext;
import dev.pagantic.core.PaganticException;
import dev.pagantic.rerank.Candidate;
import dev.pagantic.rerank.QueryTermOverlapScorer;
import dev.pagantic.rerank.Reranker;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

class RerankPortTest {

    @Test
    void aRerankCandidateMirrorsTheRerankLayersCandidate() {
        Candidate candidate = new Candidate("text", 0.4, "doc", Map.of("page", 1));

        RerankCandidate mirror = RerankCandidate.from(candidate);

        assertThat(mirror).isEqualTo(new RerankCandidate("text", 0.4, "doc", Map.of("page", 1)));
        assertThat(mirror.toCandidate()).isEqualTo(candidate);
        assertThat(mirror.withScore(0.9).score()).isEqualTo(0.9);
    }

    @Test
    void aRerankCandidateRefusesANanScore() {
        assertThatThrownBy(() -> RerankCandidate.of("t", Double.NaN, "s")).isInstanceOf(PaganticException.class);
    }

    @Test
    void aRerankInputHoldsAnImmutableCopyOfItsCandidates() {
        List<RerankCandidate> candidates = new ArrayList<>(List.of(RerankCandidate.of("a", 1, "s")));
        RerankInput input = new RerankInput("q", candidates);
        candidates.clear();

        assertThat(input.candidates()).hasSize(1);
        assertThatThrownBy(() -> input.candidates().clear()).isInstanceOf(UnsupportedOperationException.class);
    }

    @Test
    void anyLambdaOfTheRightShapeIsACandidateReranker() {
        CandidateReranker byScore = (ctx, input) -> input.candidates().stream()
                .sorted(Comparator.comparingDouble(RerankCandidate::score).reversed()).toList();
        RerankInput input = new RerankInput("q",
                List.of(RerankCandidate.of("low", 0.1, "a"), RerankCandidate.of("high", 0.9, "b")));

        assertThat(byScore.rerank(CallContext.background(), input)).extracting(RerankCandidate::content)
                .containsExactly("high", "low");
    }

    @Test
    void theRerankLayersRerankerPlugsInAndKeepsSourcesAndMetadata() {
        Reranker reranker = Reranker.builder().scorer(QueryTermOverlapScorer.standard()).topK(2).build();
        CandidateReranker port = CandidateReranker.of(reranker);
        RerankInput input = new RerankInput("go interfaces", List.of(
                new RerankCandidate("cooking pasta", 0, "recipes", Map.of("id", 1)),
                new RerankCandidate("go interfaces are implicit", 0, "spec", Map.of("id", 2)),
                new RerankCandidate("interfaces in java", 0, "java", Map.of("id", 3))));

        List<RerankCandidate> reranked = port.rerank(CallContext.background(), input);

        assertThat(reranked).extracting(RerankCandidate::source).containsExactly("spec", "java");
        assertThat(reranked).extracting(RerankCandidate::score).containsExactly(1.0, 0.5);
        assertThat(reranked.get(0).metadata()).containsEntry("id", 2);
    }
}
