package dev.pagantic.archfixture.violating.engine.x;

import dev.pagantic.archfixture.violating.orchestrate.AgentLoop;

/** Breaks "engines depend only on core and inference": an engine imports orchestrate. */
public final class EngineUsingOrchestrate {

    public String loop(AgentLoop loop) {
        return loop.run(XEngine.builder().build(), "hello");
    }
}
