package dev.pagantic.rerank;

import static dev.pagantic.rerank.RerankTesting.assertCode;
import static dev.pagantic.rerank.RerankTesting.sources;
import static org.assertj.core.api.Assertions.assertThat;

import dev.pagantic.core.CallContext;
import dev.pagantic.core.Cancellation;
import dev.pagantic.core.Candidate;
import dev.pagantic.core.ErrorCode;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

class ModelScorerTest {

    /** A stand-in for a cross-encoder: fixed grades per passage. */
    private static final Map<String, Double> GRADES = Map.of(
            "Paris is the capital of France.", 0.97,
            "France is in Europe.", 0.41,
            "Lyon is a French city.", 0.55,
            "Bananas are yellow.", 0.02);

    private static List<Candidate> candidates() {
        return GRADES.keySet().stream().sorted().map(text -> Candidate.of(text, text.substring(0, 5))).toList();
    }

    @Test
    void ordersCandidatesByTheModelsScores() {
        List<String> seen = new ArrayList<>();
        RelevanceModel crossEncoder = (ctx, query, passage) -> {
            seen.add(query + " | " + passage);
            return GRADES.get(passage);
        };
        Reranker reranker = Reranker.builder().scorer(ModelScorer.of(crossEncoder)).minScore(0.1).topK(3).build();

        List<Candidate> result = reranker.rerank(CallContext.background(), "capital of France", candidates());

        assertThat(result).extracting(Candidate::content).containsExactly(
                "Paris is the capital of France.", "Lyon is a French city.", "France is in Europe.");
        assertThat(result).extracting(Candidate::score).containsExactly(0.97, 0.55, 0.41);
        assertThat(seen).hasSize(4).allMatch(call -> call.startsWith("capital of France | "));
    }

    @Test
    void aPlainFunctionPlugsIn() {
        ModelScorer scorer = ModelScorer.ofFunction((query, passage) -> passage.contains(query) ? 1.0 : 0.0);
        Reranker reranker = Reranker.builder().scorer(scorer).topK(1).build();

        assertThat(sources(reranker.rerank("yellow", candidates()))).containsExactly("Banan");
    }

    @Test
    void aScoreThatIsNotANumberIsAMalformedResponse() {
        Reranker reranker = Reranker.builder().scorer(ModelScorer.ofFunction((q, p) -> Double.NaN)).build();
        Reranker infinite = Reranker.builder()
                .scorer(ModelScorer.ofFunction((q, p) -> Double.POSITIVE_INFINITY)).build();

        assertCode(ErrorCode.INFERENCE_MALFORMED_RESPONSE, () -> reranker.rerank("q", candidates()));
        assertCode(ErrorCode.INFERENCE_MALFORMED_RESPONSE, () -> infinite.rerank("q", candidates()));
    }

    @Test
    void cancellationBetweenModelCallsStopsTheRest() {
        Cancellation cancellation = new Cancellation();
        List<String> judged = new ArrayList<>();
        RelevanceModel model = (ctx, query, passage) -> {
            judged.add(passage);
            cancellation.cancel("user gave up");
            return 0.5;
        };
        Reranker reranker = Reranker.builder().scorer(ModelScorer.of(model)).build();

        assertCode(ErrorCode.CANCELLED_SIGNAL,
                () -> reranker.rerank(RerankTesting.cancelled(cancellation), "q", candidates()));
        assertThat(judged).hasSize(1);
    }
}
