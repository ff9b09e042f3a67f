package dev.pagantic.integration;

import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Assertions;
import org.junit.jupiter.api.Assumptions;

/** The small test model, found like every model-backed test finds it; skipped when missing, failed in CI. */
final class Models {

    static final String STORIES = "stories260K.gguf";

    private Models() {
    }

    static Path stories() {
        String configured = System.getenv("PAGANTIC_TEST_MODEL_DIR");
        Path dir = configured != null && !configured.isBlank() ? Path.of(configured) : root().resolve("../shared/models")
                .normalize();
        Path model = dir.resolve(STORIES);
        if (!Files.isRegularFile(model)) {
            String message = "test model " + model + " is missing (set PAGANTIC_TEST_MODEL_DIR)";
            if ("true".equalsIgnoreCase(System.getenv("CI"))) {
                Assertions.fail(message);
            }
            Assumptions.abort(message);
        }
        return model;
    }

    private static Path root() {
        for (Path dir = Path.of("").toAbsolutePath(); dir != null; dir = dir.getParent()) {
            if (Files.isRegularFile(dir.resolve(".ci/run"))) {
                return dir;
            }
        }
        return Path.of("").toAbsolutePath();
    }
}
