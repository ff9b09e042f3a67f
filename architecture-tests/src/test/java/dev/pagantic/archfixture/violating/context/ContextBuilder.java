package dev.pagantic.archfixture.violating.context;

/** A band component whose name ends in Builder but that is no builder: it has no build() without parameters. */
public final class ContextBuilder {

    public String build(String query) {
        return "context for " + query;
    }
}
