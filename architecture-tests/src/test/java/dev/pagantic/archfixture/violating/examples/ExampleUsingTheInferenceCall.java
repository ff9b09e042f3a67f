package dev.pagantic.archfixture.violating.examples;

import dev.pagantic.archfixture.violating.inference.Engine;
import dev.pagantic.archfixture.violating.orchestrate.internal.InferenceCall;

/** Breaks "orchestrate's internals stay inside orchestrate": an example calls the internal inference path. */
public final class ExampleUsingTheInferenceCall {

    public String run(Engine engine) {
        return new InferenceCall().infer(engine, "hello");
    }
}
