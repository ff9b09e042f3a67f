package dev.pagantic.tck;

import dev.pagantic.testkit.TestModels;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Assertions;
import org.junit.jupiter.api.Assumptions;

/**
 * The test models a model-backed test needs, found by the testkit's {@link TestModels}: a missing model skips the test
 * with a message saying where to put one, except in CI ({@code CI=true}), where it fails, because CI must run the
 * model-backed tests rather than skip them.
 */
public final class ModelAssumptions {

    private ModelAssumptions() {
    }

    /**
     * The path of a model that a test needs, for example {@link TestModels#STORIES}: when it is missing, the test is
     * skipped (JUnit's assumption) or, in CI, failed.
     */
    public static Path require(String file) {
        Path path = TestModels.path(file);
        if (!Files.isRegularFile(path)) {
            String message = "test model " + path + " is missing: put the GGUF files of shared/models there, or point "
                    + TestModels.DIRECTORY_VARIABLE + " at their folder";
            if ("true".equalsIgnoreCase(System.getenv("CI"))) {
                Assertions.fail(message + " (CI must run the model-backed tests, not skip them)");
            }
            Assumptions.abort(message);
        }
        return path;
    }
}
