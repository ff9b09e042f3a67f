package dev.pagantic.archfixture.violating.orchestrate.internal;

import dev.pagantic.archfixture.violating.inference.Engine;
import dev.pagantic.archfixture.violating.inference.InferenceRequest;

/** Follows "only the inference call calls an engine": it is the inference call. */
public final class InferenceCall {

    public String infer(Engine engine, String prompt) {
        return engine.infer(new InferenceRequest(prompt));
    }
}
