package dev.pagantic.engine.llamacpp;

import java.nio.file.Path;

/**
 * Finds the small test models: the folder named by {@code PAGANTIC_TEST_MODEL_DIR}, by default {@code ../shared/models}
 * relative to the repository root. A missing model skips the test with a message saying where to put one, except in
 * CI ({@code CI=true}), where it fails: CI must run the engine's tests, not skip them.
 *
 * <p>One runtime serves the whole test JVM: java-llama.cpp frees no native memory on close, so tests share models.
 */
final class TestModels {

    static final String STORIES = dev.pagantic.testkit.TestModels.STORIES;
    static final String TINY_RANDOM = dev.pagantic.testkit.TestModels.TINY_RANDOM;

    private static final LlamaRuntime RUNTIME = LlamaRuntime.create();

    private TestModels() {
    }

    /** The shared runtime of the test JVM. */
    static LlamaRuntime runtime() {
        return RUNTIME;
    }

    /** The path of a test model, or the test is skipped (failed in CI) when it is missing. */
    static Path model(String file) {
        return dev.pagantic.tck.ModelAssumptions.require(file);
    }

    /** An engine on the shared runtime with the stories model and a small context. */
    static LlamaCppEngine stories() {
        return LlamaCppEngine.builder().runtime(RUNTIME).modelPath(model(STORIES)).contextSize(2048).threads(2).build();
    }

}
