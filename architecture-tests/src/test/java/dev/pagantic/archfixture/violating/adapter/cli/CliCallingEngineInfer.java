package dev.pagantic.archfixture.violating.adapter.cli;

import dev.pagantic.archfixture.violating.engine.x.XEngine;
import dev.pagantic.archfixture.violating.inference.InferenceRequest;

/** Breaks "adapters only build and close wired components": it runs inference itself. */
public final class CliCallingEngineInfer {

    public String answer(String prompt) {
        return XEngine.builder().build().infer(new InferenceRequest(prompt));
    }
}
