package dev.pagantic.archfixture.violating.adapter.spring;

import dev.pagantic.archfixture.violating.engine.x.XEngine;
import dev.pagantic.archfixture.violating.inference.InferenceRequest;

/** Breaks "adapters only build and close wired components": the starter wires engines, it never runs them. */
public final class SpringCallingEngineInfer {

    public String answer(String prompt) {
        return XEngine.builder().build().infer(new InferenceRequest(prompt));
    }
}
