package dev.pagantic.adapter.tui;

import java.nio.file.Path;

/**
 * Finds the small test models: the folder named by {@code PAGANTIC_TEST_MODEL_DIR}, by default {@code ../shared/models}
 * relative to the repository root. A missing model skips the test with a message, except in CI ({@code CI=true}),
 * where it fails.
 */
final class TestModels {

    static final String STORIES = dev.pagantic.testkit.TestModels.STORIES;

    private TestModels() {
    }

    /** The path of a test model, or the test is skipped (failed in CI) when it is missing. */
    static Path model(String file) {
        return dev.pagantic.tck.ModelAssumptions.require(file);
    }
}
