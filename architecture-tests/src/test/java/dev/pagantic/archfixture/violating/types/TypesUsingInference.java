package dev.pagantic.archfixture.violating.types;

import dev.pagantic.archfixture.violating.inference.FinishReason;

/** Breaks "types depends only on core": it imports inference. */
public final class TypesUsingInference {

    public String describe(FinishReason reason) {
        return reason.name();
    }
}
