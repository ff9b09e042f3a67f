package dev.pagantic.archfixture.violating.adapter.cli;

import dev.pagantic.archfixture.violating.context.ContextBuilder;

/** Breaks "adapters only build and close wired components": ContextBuilder is a component, not a builder. */
public final class CliBuildingContext {

    public String context(String query) {
        return new ContextBuilder().build(query);
    }
}
