/**
 * What the MCP client and server share and users do not call: the JSON mapper handed to the SDK explicitly (rather
 * than its global service lookup), the one mapping between MCP tool annotations and
 * {@link dev.pagantic.tool.ToolSafety}, and the version announced to peers. Not API: it may change without notice.
 */
@NullMarked
package dev.pagantic.adapter.mcp.internal;

import org.jspecify.annotations.NullMarked;
