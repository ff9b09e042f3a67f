package dev.pagantic.archfixture.violating.inference.grammar;

/** Compliant: grammar code in its one home, inference.grammar. */
public final class GbnfParser {

    public boolean parses(String grammar) {
        return grammar.contains("::=");
    }
}
