package dev.pagantic.archfixture.violating.adapter.micrometer;

import dev.pagantic.archfixture.violating.engine.x.XEngine;
import dev.pagantic.archfixture.violating.inference.InferenceRequest;

/** Breaks the observability adapters' rules: they read inference values, but never run an engine themselves. */
public final class MicrometerCallingEngineInfer {

    public String answer(String prompt) {
        return XEngine.builder().build().infer(new InferenceRequest(prompt));
    }
}
