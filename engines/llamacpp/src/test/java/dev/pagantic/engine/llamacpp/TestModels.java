package dev.pagantic.engine.llamacpp;

import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Assertions;
import org.junit.jupiter.api.Assumptions;

/**
 * Finds the small test models: the folder named by {@code PAGANTIC_TEST_MODEL_DIR}, by default {@code ../shared/models}
 * relative to the repository root. A missing model skips the test with a message saying where to put one, except in
 * CI ({@code CI=true}), where it fails: CI must run the engine's tests, not skip them.
 *
 * <p>One runtime serves the whole test JVM: java-llama.cpp frees no native memory on close, so tests share models.
 */
final class TestModels {

    static final String STORIES = "stories260K.gguf";
    static final String TINY_RANDOM = "llama-2-tiny-random.gguf";

    private static final LlamaRuntime RUNTIME = LlamaRuntime.create();

    private TestModels() {
    }

    /** The shared runtime of the test JVM. */
    static LlamaRuntime runtime() {
        return RUNTIME;
    }

    /** The path of a test model, or the test is skipped (failed in CI) when it is missing. */
    static Path model(String file) {
        Path path = directory().resolve(file);
        if (!Files.isRegularFile(path)) {
            String message = "test model " + path + " is missing: put the GGUF files of shared/models there, or point "
                    + "PAGANTIC_TEST_MODEL_DIR at their folder";
            if ("true".equalsIgnoreCase(System.getenv("CI"))) {
                Assertions.fail(message + " (CI must run the llama.cpp tests, not skip them)");
            }
            Assumptions.abort(message);
        }
        return path;
    }

    /** An engine on the shared runtime with the stories model and a small context. */
    static LlamaCppEngine stories() {
        return LlamaCppEngine.builder().runtime(RUNTIME).modelPath(model(STORIES)).contextSize(2048).threads(2).build();
    }

    static Path directory() {
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
