package dev.pagantic.archfixture.compliant.inference.grammar;

/** Grammar parsing in its one home. */
public final class GbnfParser {

    public boolean parses(String grammar) {
        return grammar.contains("::=");
    }
}
