package dev.pagantic.archfixture.compliant.adapter.mcp;

import dev.pagantic.archfixture.compliant.orchestrate.facade.Facade;
import dev.pagantic.archfixture.compliant.orchestrate.facade.SystemRequest;
import dev.pagantic.archfixture.compliant.tool.Tool;

/** The MCP adapter's shape: a remote tool implements Tool, served tools are called, modes go through the facade. */
public final class McpServer implements Tool {

    private final Tool served;
    private final Facade facade;

    public McpServer(Tool served, Facade facade) {
        this.served = served;
        this.facade = facade;
    }

    @Override
    public String execute(String arguments) {
        return arguments.startsWith("request:") ? facade.handle(new SystemRequest(arguments)).text()
                : served.execute(arguments);
    }
}
