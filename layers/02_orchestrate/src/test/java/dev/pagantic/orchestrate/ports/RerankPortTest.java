package dev.pagantic.orchestrate.ports;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.pagantic.core.CallContext;
import dev.pagantic.core.Candidate;
import dev.pagantic.core.PaganticException;
import dev.pagantic.rerank.QueryTermOverlapScorer;
import dev.pagantic.rerank.Reranker;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

class RerankPortTest {

    @Test
    void theCandidateARerankerTakesHasContentScoreSourceAndMetadata() {
        Candidate candidate = new Candidate("text", "doc", 0.4, Map.of("page", 1));

        assertThat(candidate.content()).isEqualTo("text");
        assertThat(candidate.score()).isEqualTo(0.4);
        assertThat(candidate.source()).isEqualTo("doc");
        assertThat(candidate.metadata()).containsEntry("page", 1);
        assertThat(candidate.withScore(0.9)).isEqualTo(new Candidate("text", "doc", 0.9, Map.of("page", 1)));
    }

    @Test
    void aRerankCandidateRefusesANanScore() {
        assertThatThrownBy(() -> Candidate.of("t", "s", Double.NaN)).isInstanceOf(PaganticException.class);
    }

    @Test
    void aRerankInputHoldsAnImmutableCopyOfItsCandidates() {
        List<Candidate> candidates = new ArrayList<>(List.of(Candidate.of("a", "s", 1)));
        RerankInput input = new RerankInput("q", candidates);
        candidates.clear();

        assertThat(input.candidates()).hasSize(1);
        assertThatThrownBy(() -> input.candidates().clear()).isInstanceOf(UnsupportedOperationException.class);
    }

    @Test
    void anyLambdaOfTheRightShapeIsACandidateReranker() {
        CandidateReranker byScore = (ctx, input) -> input.candidates().stream()
                .sorted(Comparator.comparingDouble(Candidate::score).reversed()).toList();
        RerankInput input = new RerankInput("q",
                List.of(Candidate.of("low", "a", 0.1), Candidate.of("high", "b", 0.9)));

        assertThat(byScore.rerank(CallContext.background(), input)).extracting(Candidate::content)
                .containsExactly("high", "low");
    }

    @Test
    void theRerankLayersRerankerPlugsInAndKeepsSourcesAndMetadata() {
        Reranker reranker = Reranker.builder().scorer(QueryTermOverlapScorer.standard()).topK(2).build();
        CandidateReranker port = CandidateReranker.of(reranker);
        RerankInput input = new RerankInput("go interfaces", List.of(
                new Candidate("cooking pasta", "recipes", 0, Map.of("id", 1)),
                new Candidate("go interfaces are implicit", "spec", 0, Map.of("id", 2)),
                new Candidate("interfaces in java", "java", 0, Map.of("id", 3))));

        List<Candidate> reranked = port.rerank(CallContext.background(), input);

        assertThat(reranked).extracting(Candidate::source).containsExactly("spec", "java");
        assertThat(reranked).extracting(Candidate::score).containsExactly(1.0, 0.5);
        assertThat(reranked.get(0).metadata()).containsEntry("id", 2);
    }
}
