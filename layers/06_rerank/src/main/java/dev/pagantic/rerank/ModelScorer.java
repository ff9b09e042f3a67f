package dev.pagantic.rerank;

import dev.pagantic.core.CallContext;
import dev.pagantic.core.Candidate;
import dev.pagantic.core.ErrorCode;
import dev.pagantic.core.PaganticException;
import java.util.List;
import java.util.Objects;
import java.util.function.ToDoubleBiFunction;

/**
 * Scores each candidate with a {@link RelevanceModel} (a cross-encoder or an LLM judge supplied by an engine), one
 * call per candidate in order, checking the call context's cancellation and deadline before each call. A model that
 * answers NaN or an infinity is refused with {@code INFERENCE_MALFORMED_RESPONSE} (retryable); the model's own
 * failures propagate unchanged.
 *
 * <pre>{@code
 * Reranker reranker = Reranker.builder().scorer(ModelScorer.of(crossEncoder::score)).topK(5).build();
 * }</pre>
 */
public final class ModelScorer implements Scorer {

    private final RelevanceModel model;

    private ModelScorer(RelevanceModel model) {
        this.model = model;
    }

    /** A scorer over the given model. */
    public static ModelScorer of(RelevanceModel model) {
        return new ModelScorer(Objects.requireNonNull(model, "model"));
    }

    /** A scorer over a plain {@code (query, passage) -> score} function that ignores the call context. */
    public static ModelScorer ofFunction(ToDoubleBiFunction<String, String> function) {
        Objects.requireNonNull(function, "function");
        return new ModelScorer((ctx, query, passage) -> function.applyAsDouble(query, passage));
    }

    @Override
    public double[] score(CallContext ctx, String query, List<Candidate> candidates) {
        double[] scores = new double[candidates.size()];
        for (int i = 0; i < scores.length; i++) {
            ctx.throwIfDone();
            Candidate candidate = candidates.get(i);
            double score = model.score(ctx, query, candidate.content());
            if (!Double.isFinite(score)) {
                throw PaganticException.builder(ErrorCode.INFERENCE_MALFORMED_RESPONSE,
                                "the relevance model returned " + score + " for candidate " + i)
                        .detail("candidate", i).detail("source", candidate.source()).build();
            }
            scores[i] = score;
        }
        return scores;
    }
}
