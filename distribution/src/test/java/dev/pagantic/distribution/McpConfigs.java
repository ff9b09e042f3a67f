package dev.pagantic.distribution;

import java.io.File;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Optional;
import org.junit.jupiter.api.Assumptions;

/**
 * {@code mcpServers} files for the tests of {@code --mcp-config}: one that starts the MCP project's everything server
 * (npm {@code @modelcontextprotocol/server-everything}, which the MCP adapter's build installs in its
 * {@code src/test/node}), and hostile ones. A missing node or package skips the test, except on CI ({@code CI=true}),
 * where it fails.
 */
final class McpConfigs {

    /** The npm packages of the MCP adapter's tests, relative to this module. */
    private static final Path NODE_DIR = Path.of("..", "adapters", "mcp", "src", "test", "node").toAbsolutePath()
            .normalize();

    private McpConfigs() {
    }

    /** A config file in {@code dir} whose one server, {@code everything}, is the everything server over stdio. */
    static Path everything(Path dir) {
        Path script = NODE_DIR.resolve("node_modules/@modelcontextprotocol/server-everything/dist/index.js");
        require(Files.isRegularFile(script), "the everything MCP server is not installed in " + NODE_DIR
                + " (the MCP adapter's build runs npm ci there; is npm on the PATH?)");
        return write(dir, "mcp.json", "{\"mcpServers\": {\"everything\": {\"command\": " + quote(node()) + ", "
                + "\"args\": [" + quote(script.toString()) + "]}}}");
    }

    /** A config file in {@code dir} whose one server, {@code ghost}, is a command that does not exist. */
    static Path missingCommand(Path dir) {
        return write(dir, "ghost.json", "{\"mcpServers\": {\"ghost\": {\"command\": \"/no/such/mcp-server\"}}}");
    }

    /** A file in {@code dir} that is not JSON. */
    static Path badJson(Path dir) {
        return write(dir, "bad.json", "{\"mcpServers\": {\"everything\": ");
    }

    static Path write(Path dir, String name, String text) {
        try {
            return Files.writeString(dir.resolve(name), text, StandardCharsets.UTF_8);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    private static String node() {
        Optional<Path> node = Optional.empty();
        String path = System.getenv("PATH");
        for (String dir : path == null ? new String[0] : path.split(File.pathSeparator)) {
            Path candidate = Path.of(dir).resolve("node");
            if (node.isEmpty() && Files.isExecutable(candidate)) {
                node = Optional.of(candidate);
            }
        }
        require(node.isPresent(), "node is not on the PATH");
        return node.orElseThrow().toString();
    }

    private static String quote(String text) {
        return "\"" + text.replace("\\", "\\\\").replace("\"", "\\\"") + "\"";
    }

    private static void require(boolean present, String missing) {
        if (!present) {
            if ("true".equalsIgnoreCase(System.getenv("CI"))) {
                throw new AssertionError("cannot run on CI: " + missing);
            }
            Assumptions.abort("skipped: " + missing);
        }
    }
}
