package dev.pagantic.archfixture.violating.testkit;

import dev.pagantic.archfixture.violating.context.Retriever;

/** Breaks "engines depend only on core and inference": the testkit counts as an engine and imports a band layer. */
public final class TestkitUsingContext {

    public Retriever emptyRetriever() {
        return query -> java.util.List.of();
    }
}
