package dev.pagantic.testkit;

import java.nio.file.Files;
import java.nio.file.Path;

/**
 * Finds the small GGUF models that model-backed tests, examples and benchmarks run on: the folder named by the
 * environment variable {@value #DIRECTORY_VARIABLE}, by default {@code ../shared/models} relative to the repository
 * root (the nearest folder above the working directory that holds {@code .ci/run}).
 *
 * <p>Tests that need a model use {@code ModelAssumptions.require} of the contract kit ({@code pagantic-engine-tck}),
 * which skips a test whose model is missing, or fails it in CI; this class has no test-framework dependency, so that
 * the examples and the benchmarks can use it in production code.
 */
public final class TestModels {

    /** The environment variable that names the models' folder. */
    public static final String DIRECTORY_VARIABLE = "PAGANTIC_TEST_MODEL_DIR";
    /** A 260K-parameter llama model trained on children's stories: readable English, no instruction following. */
    public static final String STORIES = "stories260K.gguf";
    /** A llama model with random weights and the full 32,000-token Llama 2 vocabulary. */
    public static final String TINY_RANDOM = "llama-2-tiny-random.gguf";

    private TestModels() {
    }

    /** The models' folder: {@value #DIRECTORY_VARIABLE}, else {@code ../shared/models} beside the repository. */
    public static Path directory() {
        String configured = System.getenv(DIRECTORY_VARIABLE);
        if (configured != null && !configured.isBlank()) {
            return Path.of(configured);
        }
        return repositoryRoot().resolve("../shared/models").normalize();
    }

    /** The path a model file would have; it may not exist. */
    public static Path path(String file) {
        return directory().resolve(file);
    }

    private static Path repositoryRoot() {
        Path start = Path.of("").toAbsolutePath();
        for (Path dir = start; dir != null; dir = dir.getParent()) {
            if (Files.isRegularFile(dir.resolve(".ci/run"))) {
                return dir;
            }
        }
        return start;
    }
}
