package dev.pagantic.archfixture.violating.constraint;

/** Breaks "grammar code lives only in inference.grammar": a second Schema-to-grammar generator in constraint. */
public final class JsonGrammarGenerator {

    public String generate(String schema) {
        return "root ::= " + schema;
    }
}
