/**
 * The MCP server: pagantic's tools and modes offered to MCP hosts (Claude Desktop, IDEs, agents) over stdio or
 * streamable HTTP.
 *
 * <h2>Concepts</h2>
 * <ul>
 *   <li>{@link dev.pagantic.adapter.mcp.server.PaganticMcpServer}: serves a {@link dev.pagantic.tool.ToolRegistry},
 *       each call through a {@link dev.pagantic.tool.ToolExecutor}, and with an orchestrator the
 *       {@code pagantic_request} tool, which runs a {@code SystemRequest} in its JSON wire form.</li>
 *   <li>{@link dev.pagantic.adapter.mcp.server.McpServerCommand}: the {@code pagantic mcp} command (picocli), which a
 *       launcher adds as a subcommand; {@link dev.pagantic.adapter.mcp.server.McpServerMain} runs it alone.</li>
 * </ul>
 *
 * <h2>Decisions</h2>
 * <ul>
 *   <li>A failed call is a tool result with {@code isError} and the pagantic code first in its text, not a JSON-RPC
 *       error: the host's model sees it and can correct itself, as pagantic's own loops do.</li>
 *   <li>Annotations are derived from each tool's {@link dev.pagantic.tool.ToolSafety}, with the mapping the client
 *       reads back, so a tool keeps its class across a pagantic-to-pagantic hop.</li>
 *   <li>HTTP runs on Jetty (the servlet transport of the SDK), the version Javalin uses in the api adapter, bound to
 *       the loopback address by default and without authentication of its own.</li>
 *   <li>Given the tools of an {@link dev.pagantic.adapter.mcp.client.McpToolbox}, the server is a guarding proxy, and
 *       forwards the upstream servers' list changes to its clients.</li>
 * </ul>
 */
@NullMarked
package dev.pagantic.adapter.mcp.server;

import org.jspecify.annotations.NullMarked;
