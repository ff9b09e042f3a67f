package dev.pagantic.archfixture.violating.orchestrate.ports;

import dev.pagantic.archfixture.violating.orchestrate.AgentLoop;

/** Breaks "ports depend only on core, inference and the band": a port that drives a loop. */
@FunctionalInterface
public interface PortUsingTheAgentLoop {

    String provide(AgentLoop loop);
}
