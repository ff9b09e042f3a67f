package dev.pagantic.adapter.api;

import java.io.File;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Locale;
import java.util.Optional;
import org.junit.jupiter.api.Assumptions;

/**
 * Finds what the Node.js-driven tests need: node, an npm package installed by the build's {@code npm ci} in
 * {@code src/test/node}, and Debian's Chromium. A missing piece skips the test with a message, except on CI
 * ({@code CI=true}), where it fails: CI must run these tests.
 */
final class NodeTools {

    static final Path CLIENT_DIR = Path.of("src", "test", "node");

    private NodeTools() {
    }

    /** The node executable, with the npm package installed. */
    static Path node(String requiredPackage) {
        Optional<Path> node = onPath("node");
        require(node.isPresent(), "node is not on the PATH");
        require(Files.isDirectory(CLIENT_DIR.resolve("node_modules").resolve(requiredPackage)),
                "the " + requiredPackage + " npm package is not installed in " + CLIENT_DIR.toAbsolutePath()
                        + " (the build runs npm ci there; is npm on the PATH?)");
        return node.orElseThrow();
    }

    /** Debian's Chromium (the build installs it where it can; see src/test/node/ensure-chromium.sh). */
    static Path chromium() {
        Optional<Path> chromium = onPath("chromium").or(() -> onPath("chromium-browser"));
        require(chromium.isPresent(), "Chromium is not installed (Debian package chromium)");
        return chromium.orElseThrow();
    }

    private static void require(boolean present, String missing) {
        if (!present) {
            if ("true".equalsIgnoreCase(System.getenv("CI"))) {
                throw new AssertionError("cannot run on CI: " + missing);
            }
            Assumptions.abort("skipped: " + missing);
        }
    }

    static Optional<Path> onPath(String program) {
        String path = System.getenv("PATH");
        if (path == null) {
            return Optional.empty();
        }
        boolean windows = System.getProperty("os.name", "").toLowerCase(Locale.ROOT).startsWith("windows");
        for (String dir : path.split(File.pathSeparator)) {
            for (String name : windows ? new String[] {program + ".exe", program + ".cmd"} : new String[] {program}) {
                Path candidate = Path.of(dir).resolve(name);
                if (Files.isRegularFile(candidate) && Files.isExecutable(candidate)) {
                    return Optional.of(candidate);
                }
            }
        }
        return Optional.empty();
    }
}
