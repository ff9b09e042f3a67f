package dev.pagantic.archfixture.violating.adapter.cli;

import dev.pagantic.archfixture.violating.engine.x.XEngine;
import dev.pagantic.archfixture.violating.orchestrate.AgentLoop;

/** Breaks "adapters depend only on the facade, core and wired components": it drives an orchestrate internal. */
public final class CliUsingOrchestrateInternals {

    public String answer(String prompt) {
        return new AgentLoop().run(XEngine.builder().build(), prompt);
    }
}
