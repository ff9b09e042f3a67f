package dev.pagantic.archfixture.violating.adapter.mcp;

import dev.pagantic.archfixture.violating.orchestrate.facade.Facade;
import dev.pagantic.archfixture.violating.orchestrate.facade.SystemRequest;
import dev.pagantic.archfixture.violating.tool.Tool;

/**
 * Compliant: the MCP adapter implements the tool layer's Tool (an MCP server's tool) and calls tools (serving a
 * registry), and reaches pagantic's modes through the facade only.
 */
public final class McpCallingTools implements Tool {

    private final Tool served;

    public McpCallingTools(Tool served) {
        this.served = served;
    }

    @Override
    public String execute(String arguments) {
        return served.execute(arguments);
    }

    public String request(Facade facade, String prompt) {
        return facade.handle(new SystemRequest(prompt)).text();
    }
}
