package dev.pagantic.archfixture.violating.adapter.api;

import dev.pagantic.archfixture.violating.adapter.cli.CliWiringOnly;
import dev.pagantic.archfixture.violating.tool.Tool;

/** Breaks "adapters do not depend on each other": the HTTP adapter reuses the command line adapter. */
public final class ApiUsingCli {

    public String answer(String prompt, Tool tool) {
        return new CliWiringOnly().answer(prompt, tool);
    }
}
