package dev.pagantic.archfixture.violating.tool;

import dev.pagantic.archfixture.violating.types.TypesUsingInference;

/** Follows the band rule: a band layer may use types. */
public final class ToolUsingTypes {

    public TypesUsingInference generator() {
        return new TypesUsingInference();
    }
}
