package dev.pagantic.archfixture.violating.orchestrate;

import dev.pagantic.archfixture.violating.inference.Engine;
import dev.pagantic.archfixture.violating.inference.InferenceRequest;

/** An orchestrate internal: adapters may not touch it, and nothing below orchestrate may import it. */
public final class AgentLoop {

    public String run(Engine engine, String prompt) {
        return engine.infer(new InferenceRequest(prompt));
    }
}
