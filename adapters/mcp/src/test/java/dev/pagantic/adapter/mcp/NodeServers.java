package dev.pagantic.adapter.mcp;

import java.io.File;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Optional;
import org.junit.jupiter.api.Assumptions;

/**
 * Finds what the npm-driven tests need: node, and the npm packages that the build's {@code npm ci} installs in
 * {@code src/test/node} (the everything and filesystem MCP servers, the MCP Inspector). A missing piece skips the
 * test with a message, except on CI ({@code CI=true}), where it fails: CI must run these tests.
 */
public final class NodeServers {

    /** Where the build installs the npm packages. */
    public static final Path NODE_DIR = Path.of("src", "test", "node").toAbsolutePath();

    private NodeServers() {
    }

    /** The node executable. */
    public static String node() {
        Optional<Path> node = onPath("node");
        require(node.isPresent(), "node is not on the PATH");
        return node.orElseThrow().toString();
    }

    /** The command line that runs an installed npm package's program: node and its entry script. */
    public static List<String> program(String npmPackage, String entry) {
        String node = node();
        Path script = NODE_DIR.resolve("node_modules").resolve(npmPackage).resolve(entry);
        require(Files.isRegularFile(script), "the " + npmPackage + " npm package is not installed in " + NODE_DIR
                + " (the build runs npm ci there; is npm on the PATH?)");
        return List.of(node, script.toString());
    }

    /** The everything server of the MCP project. */
    public static List<String> everything() {
        return program("@modelcontextprotocol/server-everything", "dist/index.js");
    }

    /** The filesystem server of the MCP project. */
    public static List<String> filesystem() {
        return program("@modelcontextprotocol/server-filesystem", "dist/index.js");
    }

    /** A test server of this module, written in plain Node.js (no packages). */
    public static List<String> script(String name) {
        return List.of(node(), NODE_DIR.resolve(name).toString());
    }

    private static void require(boolean present, String missing) {
        if (!present) {
            if ("true".equalsIgnoreCase(System.getenv("CI"))) {
                throw new AssertionError("cannot run on CI: " + missing);
            }
            Assumptions.abort("skipped: " + missing);
        }
    }

    private static Optional<Path> onPath(String program) {
        String path = System.getenv("PATH");
        if (path == null) {
            return Optional.empty();
        }
        for (String dir : path.split(File.pathSeparator)) {
            Path candidate = Path.of(dir).resolve(program);
            if (Files.isRegularFile(candidate) && Files.isExecutable(candidate)) {
                return Optional.of(candidate);
            }
        }
        return Optional.empty();
    }
}
