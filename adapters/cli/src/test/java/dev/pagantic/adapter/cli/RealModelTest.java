package dev.pagantic.adapter.cli;

import static org.assertj.core.api.Assertions.assertThat;
import dev.pagantic.tck.ModelAssumptions;
import dev.pagantic.testkit.TestModels;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The command on a real model: stories260K (children's-story English, no instruction following), found through
 * {@code PAGANTIC_TEST_MODEL_DIR} or {@code ../shared/models} relative to the repository root. A missing model skips
 * these tests, except in CI ({@code CI=true}), where it fails them. Each run loads the model once (tens of ms).
 */
class RealModelTest {

    private static final String STORIES = "stories260K.gguf";

    @Test
    void chatOnARealModelStreamsTextAndShowsTheModelLoad() {
        Path model = model(STORIES);

        Cli.Run run = Cli.run("--model", model.toString(), "--ctx-size", "2048", "chat", "Once upon a time",
                "--max-tokens", "8");

        assertThat(run.code()).as(run.err()).isZero();
        assertThat(run.out()).isNotBlank();
        assertThat(run.err()).contains("loading model " + STORIES + "...").containsPattern(
                "loaded " + STORIES.replace(".", "\\.") + " in \\d+ ms");
    }

    @Test
    void extractOnARealModelGivesJsonWithTheSchemasKey() {
        Path model = model(STORIES);

        String closed = ExtractCommandTest.NAME_SCHEMA.replaceFirst("\\}$", ",\"additionalProperties\":false}");

        Cli.Run run = Cli.run("--model", model.toString(), "--ctx-size", "2048", "extract", "--schema-inline",
                closed, "--max-tokens", "48", "--temperature", "0", "Name a cat.");

        // The decoder is constrained by the grammar derived from the schema, so even this model writes valid JSON; the
        // object is closed, or the model would go on adding properties until the token limit.
        assertThat(run.code()).as(run.err()).isZero();
        assertThat(run.out()).startsWith("{").contains("\"name\" : \"");
    }

    @Test
    void anExtractionCutOffAtTheTokenLimitIsAConstraintFailureWithNothingOnStdout() {
        Path model = model(STORIES);
        String open = "{\"type\":\"object\",\"properties\":{\"story\":{\"type\":\"string\"}},"
                + "\"required\":[\"story\"]}";

        Cli.Run run = Cli.run("--model", model.toString(), "--ctx-size", "2048", "extract", "--lenient",
                "--schema-inline", open, "--max-tokens", "6", "--temperature", "0", "Tell a story.");

        assertThat(run.code()).as(run.err()).isEqualTo(ExitCodes.CONSTRAINT);
        assertThat(run.out()).isEmpty();
        assertThat(run.err()).contains("CONSTRAINT_JSON_INVALID", "cut off at the token limit", "(6 output tokens in all",
                "--max-tokens");
    }

    @Test
    void aModelOfAnArchitectureTheBundledLlamaCppDoesNotKnowIsRefusedByName(@TempDir Path dir) throws Exception {
        Path qwen3 = TestModels.withArchitecture(model(STORIES), "qwen3", dir);

        Cli.Run run = Cli.run("--model", qwen3.toString(), "chat", "Hello");

        assertThat(run.code()).isEqualTo(ExitCodes.INFERENCE);
        assertThat(run.err()).contains("INFERENCE_MODEL_UNAVAILABLE", "'qwen3'", "b4916", "llama-server");
    }

    private static Path model(String file) {
        return ModelAssumptions.require(file);
    }
}
