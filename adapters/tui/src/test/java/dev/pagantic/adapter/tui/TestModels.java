package dev.pagantic.adapter.tui;

import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Assertions;
import org.junit.jupiter.api.Assumptions;

/**
 * Finds the small test models: the folder named by {@code PAGANTIC_TEST_MODEL_DIR}, by default {@code ../shared/models}
 * relative to the repository root. A missing model skips the test with a message, except in CI ({@code CI=true}),
 * where it fails.
 */
final class TestModels {

    static final String STORIES = "stories260K.gguf";

    private TestModels() {
    }

    /** The path of a test model, or the test is skipped (failed in CI) when it is missing. */
    static Path model(String file) {
        Path path = directory().resolve(file);
        if (!Files.isRegularFile(path)) {
            String message = "test model " + path + " is missing: put the GGUF files of shared/models there, or point "
                    + "PAGANTIC_TEST_MODEL_DIR at their folder";
            if ("true".equalsIgnoreCase(System.getenv("CI"))) {
                Assertions.fail(message + " (CI must run the model-backed tests, not skip them)");
            }
            Assumptions.abort(message);
        }
        return path;
    }

    private static Path directory() {
        String configured = System.getenv("PAGANTIC_TEST_MODEL_DIR");
        if (configured != null && !configured.isBlank()) {
            return Path.of(configured);
        }
        return repositoryRoot().resolve("../shared/models").normalize();
    }

    private static Path repositoryRoot() {
        for (Path dir = Path.of("").toAbsolutePath(); dir != null; dir = dir.getParent()) {
            if (Files.isRegularFile(dir.resolve(".ci/run"))) {
                return dir;
            }
        }
        return Path.of("").toAbsolutePath();
    }
}
