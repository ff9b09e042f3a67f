package dev.pagantic.adapter.mcp.client;

import dev.pagantic.core.CallContext;
import dev.pagantic.core.ToolDefinition;
import dev.pagantic.tool.Availability;
import dev.pagantic.tool.Tool;
import dev.pagantic.tool.ToolSafety;
import java.util.Map;

/**
 * One tool of an MCP server as a pagantic {@link Tool}. The instance lives as long as its toolbox: a refreshed
 * listing updates its definition and safety in place, and a tool the server stopped offering reports itself
 * unavailable, so that a registry built before the change stays truthful.
 */
final class McpTool implements Tool {

    private final McpConnection connection;
    private final String remoteName;
    private volatile ToolDefinition definition;
    private volatile ToolSafety safety;
    private volatile Availability availability = Availability.AVAILABLE;

    McpTool(McpConnection connection, String remoteName, ToolDefinition definition, ToolSafety safety) {
        this.connection = connection;
        this.remoteName = remoteName;
        this.definition = definition;
        this.safety = safety;
    }

    /** The name the server knows the tool by (without the prefix). */
    String remoteName() {
        return remoteName;
    }

    McpConnection connection() {
        return connection;
    }

    /** The server offers the tool (again), as described. */
    void offered(ToolDefinition newDefinition, ToolSafety newSafety) {
        this.definition = newDefinition;
        this.safety = newSafety;
        this.availability = Availability.AVAILABLE;
    }

    /** The server no longer offers the tool, or offers it in a form pagantic refuses. */
    void withdrawn(String reason) {
        this.availability = Availability.unavailable(reason);
    }

    @Override
    public ToolDefinition definition() {
        return definition;
    }

    @Override
    public String execute(CallContext ctx, Map<String, Object> arguments) throws Exception {
        return connection.call(ctx, remoteName, arguments);
    }

    @Override
    public Availability availability() {
        return availability;
    }

    @Override
    public ToolSafety safety() {
        return safety;
    }

    @Override
    public String toString() {
        return "McpTool[" + definition.name() + " of " + connection.name() + "]";
    }
}
