/**
 * The MCP client: the tools of Model Context Protocol servers as pagantic {@link dev.pagantic.tool.Tool}s, so that
 * every call to them runs under the tool layer's guarantees (the request's whitelist, argument validation against the
 * tool's schema, the timeout, the events, side-effect classes for parallelism and retries).
 *
 * <h2>Concepts</h2>
 * <ul>
 *   <li>{@link dev.pagantic.adapter.mcp.client.McpServerConfig}: how to reach one server, a command (stdio) or a
 *       streamable HTTP URL, with an optional tool-name prefix.</li>
 *   <li>{@link dev.pagantic.adapter.mcp.client.McpConfigFile}: the {@code mcpServers} file that MCP hosts share, read
 *       into configurations; any host (command line, terminal, HTTP server) calls it.</li>
 *   <li>{@link dev.pagantic.adapter.mcp.client.McpToolbox}: connects to the servers and offers their tools as a
 *       {@link dev.pagantic.tool.ToolRegistry}, refreshed on {@code notifications/tools/list_changed}.</li>
 * </ul>
 *
 * <h2>Decisions</h2>
 * <ul>
 *   <li>Built on the official MCP Java SDK (2.x: Java 17, Jackson 3) for the protocol, the HTTP transport and the
 *       session. The stdio transport is this package's own ({@code ProcessTransport}): the SDK's notices neither a
 *       server's exit (a call in flight would wait for its timeout) nor survives a stray line on stdout, and both are
 *       what a guarded call needs.</li>
 *   <li>Input schemas go through {@link dev.pagantic.core.Schema#fromJsonSchema}, so the grammar and the argument
 *       validator see exactly what the server declared; what the schema model cannot carry is refused by name, never
 *       dropped.</li>
 *   <li>Tool instances outlive refreshes: a registry handed to an orchestrator before a change stays truthful (changed
 *       definitions in place, removed tools unavailable).</li>
 *   <li>Failures are tool codes: {@code isError} and server errors {@code TOOL_EXECUTION_FAILED}, refused arguments
 *       {@code TOOL_INVALID_ARGUMENTS}, a hung server {@code TOOL_TIMEOUT} (through the executor), an unreachable one
 *       {@code TOOL_UNAVAILABLE}; a dead or wedged session is replaced at the next call.</li>
 * </ul>
 */
@NullMarked
package dev.pagantic.adapter.mcp.client;

import org.jspecify.annotations.NullMarked;
