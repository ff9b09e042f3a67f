package dev.pagantic.archfixture.violating.adapter.spring.health;

import dev.pagantic.archfixture.violating.engine.x.XEngine;
import dev.pagantic.archfixture.violating.inference.InferenceRequest;

/** Breaks "adapters only build and close wired components": a health check that runs an inference is no exception. */
public final class HealthCallingInfer {

    public String probe(XEngine engine) {
        return engine.infer(new InferenceRequest("ping"));
    }
}
