package dev.pagantic.archfixture.violating.memory;

import dev.pagantic.archfixture.violating.orchestrate.AgentLoop;

/** Breaks the band rule and "nothing below orchestrate depends on it": memory imports orchestrate. */
public final class MemoryUsingOrchestrate {

    public boolean remembers(AgentLoop loop) {
        return loop != null;
    }
}
