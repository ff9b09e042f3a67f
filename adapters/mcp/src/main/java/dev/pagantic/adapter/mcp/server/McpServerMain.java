package dev.pagantic.adapter.mcp.server;

import picocli.CommandLine;

/**
 * Runs {@link McpServerCommand} as a program:
 *
 * <pre>
 * java -cp ... dev.pagantic.adapter.mcp.server.McpServerMain --model ../shared/models/stories260K.gguf
 * java -cp ... dev.pagantic.adapter.mcp.server.McpServerMain --transport http --port 8931 --mcp-config mcp.json
 * </pre>
 *
 * It ends with {@code System.exit}, because a loaded llama.cpp model keeps native threads that would otherwise hold
 * the JVM open after the host closed the connection.
 */
public final class McpServerMain {

    private McpServerMain() {
    }

    /** Serves until the host closes stdin (stdio) or the process is stopped (HTTP); exits 2 for bad options. */
    public static void main(String[] args) {
        System.exit(new CommandLine(new McpServerCommand()).execute(args));
    }
}
