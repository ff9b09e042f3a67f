package dev.pagantic.archfixture.violating.inference;

import dev.pagantic.archfixture.violating.context.Retriever;

/** Breaks "inference depends only on core": it imports a band layer. */
public final class InferenceUsingContext {

    public int sources(Retriever retriever) {
        return retriever.retrieve("query").size();
    }
}
