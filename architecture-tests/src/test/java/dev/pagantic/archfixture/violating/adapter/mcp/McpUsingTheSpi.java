package dev.pagantic.archfixture.violating.adapter.mcp;

import dev.pagantic.archfixture.violating.orchestrate.spi.StepInterceptor;

/** Breaks "the MCP adapter uses only core, the facade, the tool layer and what it wires": it uses the SPI. */
public final class McpUsingTheSpi {

    public Class<?> hook() {
        return StepInterceptor.class;
    }
}
