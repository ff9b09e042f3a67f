package dev.pagantic.archfixture.violating.engine.x;

/** Breaks "only inference names classes Gbnf": an engine writing its own grammars. */
public final class GbnfWriter {

    public String write(String rule) {
        return "root ::= " + rule;
    }
}
