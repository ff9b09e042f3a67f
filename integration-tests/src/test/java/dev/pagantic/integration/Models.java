package dev.pagantic.integration;

import dev.pagantic.tck.ModelAssumptions;
import dev.pagantic.testkit.TestModels;
import java.nio.file.Path;

/** The small test model, found like every model-backed test finds it; skipped when missing, failed in CI. */
final class Models {

    static final String STORIES = TestModels.STORIES;

    private Models() {
    }

    static Path stories() {
        return ModelAssumptions.require(STORIES);
    }
}
