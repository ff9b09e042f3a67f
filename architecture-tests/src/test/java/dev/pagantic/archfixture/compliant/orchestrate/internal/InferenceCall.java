package dev.pagantic.archfixture.compliant.orchestrate.internal;

import dev.pagantic.archfixture.compliant.inference.Engine;
import dev.pagantic.archfixture.compliant.inference.Request;

/** Follows "only the inference call calls an engine": the one path every loop of the fixture uses. */
public final class InferenceCall {

    private final Engine engine;

    public InferenceCall(Engine engine) {
        this.engine = engine;
    }

    public String infer(Request request) {
        return engine.infer(request);
    }
}
