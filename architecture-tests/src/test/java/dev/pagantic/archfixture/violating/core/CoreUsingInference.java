package dev.pagantic.archfixture.violating.core;

import dev.pagantic.archfixture.violating.inference.InferenceRequest;

/** Breaks "core depends only on the JDK": it imports the inference layer. */
public final class CoreUsingInference {

    public String promptOf(InferenceRequest request) {
        return request.prompt();
    }
}
