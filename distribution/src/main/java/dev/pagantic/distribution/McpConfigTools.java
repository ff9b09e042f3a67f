package dev.pagantic.distribution;

import dev.pagantic.adapter.mcp.client.McpToolbox;
import dev.pagantic.core.ToolDefinition;
import dev.pagantic.tool.Tool;
import java.nio.file.Path;
import java.util.function.BiConsumer;

/**
 * {@code --mcp-config} of {@code pagantic chat}, {@code tui} and {@code serve}: the MCP adapter's client, which those
 * adapters cannot depend on, handed to them by this module. {@code pagantic mcp --mcp-config} uses the same
 * {@link McpToolbox}.
 */
final class McpConfigTools {

    private McpConfigTools() {
    }

    /**
     * Starts (or connects to) every server of an {@code mcpServers} file and hands each of their tools, with its
     * definition, to {@code add}.
     *
     * @param file the configuration file
     * @param add  receives every tool the servers offer, in configuration order
     * @return what disconnects from the servers (and stops those it started): the toolbox's {@code close}
     * @throws dev.pagantic.core.PaganticException {@code CONFIG_INVALID} for a missing or malformed file (naming it,
     *                                             the entry and the field), {@code TOOL_UNAVAILABLE} for a server
     *                                             that cannot be started or reached (naming it)
     */
    static Runnable open(Path file, BiConsumer<ToolDefinition, Tool> add) {
        McpToolbox toolbox = McpToolbox.builder().configFile(file).build();
        toolbox.registry().tools().forEach(tool -> add.accept(tool.definition(), tool));
        return toolbox::close;
    }
}
