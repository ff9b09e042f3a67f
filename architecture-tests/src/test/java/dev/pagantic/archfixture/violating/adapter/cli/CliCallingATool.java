package dev.pagantic.archfixture.violating.adapter.cli;

import dev.pagantic.archfixture.violating.tool.Tool;

/** Breaks "adapters only build and close wired components": running a tool belongs behind the facade. */
public final class CliCallingATool {

    public String run(Tool tool) {
        return tool.execute("{}");
    }
}
