package dev.pagantic.rerank;

import dev.pagantic.core.CallContext;

/**
 * A model that judges how relevant a passage is to a query: a cross-encoder, or an LLM asked for a grade. Engines
 * provide a method of this shape, which plugs into {@link ModelScorer} by method reference without this layer knowing
 * the engine. It speaks plain strings so that the engine needs no type of this layer.
 */
@FunctionalInterface
public interface RelevanceModel {

    /**
     * The passage's relevance to the query, higher is better; a finite number (a logit, a probability, a grade).
     * Implementations that call a model honour the context's cancellation and deadline.
     */
    double score(CallContext ctx, String query, String passage);
}
