package dev.pagantic.archfixture.compliant.inference.grammar;

import dev.pagantic.archfixture.compliant.core.Limits;

/** Schema-to-GBNF generation in its one home. */
public final class SchemaToGbnf {

    public String generate(String schema) {
        return "root ::= " + schema + " # " + Limits.DEFAULT_MODEL;
    }
}
