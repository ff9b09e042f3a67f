package dev.pagantic.adapter.cli;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class EngineSelectionTest {

    @Test
    void withoutAnEngineOptionTheErrorSaysWhichOptionToGive() {
        Cli.Run run = Cli.runPublic("chat", "hello");

        assertThat(run.code()).isEqualTo(ExitCodes.CONFIGURATION);
        assertThat(run.err()).startsWith("error: CONFIG_NO_ENGINE (ConfigurationFailure): no engine selected: ")
                .contains("--model FILE.gguf", "--endpoint URL --model-name NAME", "--scripted REPLY");
    }

    @Test
    void anEndpointWithNothingListeningIsAnInferenceFailureAndAMissingModelNameAConfigurationError()
            throws java.io.IOException {
        int port;
        try (java.net.ServerSocket socket = new java.net.ServerSocket(0)) {
            port = socket.getLocalPort(); // closed again: nothing listens there
        }
        Cli.Run refused = Cli.run("chat", "--endpoint", "http://127.0.0.1:" + port, "--model-name", "llama", "hello");

        assertThat(refused.code()).isEqualTo(ExitCodes.INFERENCE);
        assertThat(refused.err()).startsWith("error: INFERENCE_ENGINE_ERROR (InferenceFailure): ");

        Cli.Run incomplete = Cli.run("chat", "--endpoint", "http://127.0.0.1:" + port, "hello");
        assertThat(incomplete.code()).isEqualTo(ExitCodes.CONFIGURATION);
        assertThat(incomplete.err()).contains("--model-name");
    }

    @Test
    void twoEnginesAtOnceAreAConfigurationError() {
        Cli.Run run = Cli.run("--scripted", "x", "chat", "--model", "m.gguf", "hello");

        assertThat(run.code()).isEqualTo(ExitCodes.CONFIGURATION);
        assertThat(run.err()).contains("choose one engine, not --model and --scripted");
    }

    @Test
    void aMissingModelFileIsAnInferenceFailureAfterTheLoadWasAttempted(@TempDir Path dir) {
        Path missing = dir.resolve("missing.gguf");

        Cli.Run run = Cli.run("--model", missing.toString(), "chat", "hello");

        assertThat(run.code()).isEqualTo(ExitCodes.INFERENCE);
        assertThat(run.err()).contains("loading model missing.gguf...", "loading missing.gguf failed after")
                .contains("error: INFERENCE_MODEL_UNAVAILABLE (InferenceFailure): cannot load model " + missing);
    }

    @Test
    void aFileThatIsNotAModelIsAnInferenceFailure(@TempDir Path dir) throws IOException {
        Path text = Files.writeString(dir.resolve("notes.gguf"), "not a model");

        Cli.Run run = Cli.run("chat", "--model", text.toString(), "hello");

        assertThat(run.code()).isEqualTo(ExitCodes.INFERENCE);
        assertThat(run.err()).contains("INFERENCE_MODEL_UNAVAILABLE").contains("not a GGUF file");
    }

    @Test
    void theSubcommandsEngineOptionsWinOverThoseBeforeIt() {
        Cli.Run run = Cli.run("--scripted", "from before", "chat", "--scripted", "from after", "hello");

        assertThat(run.code()).isZero();
        assertThat(run.out()).contains("from after").doesNotContain("from before");
    }
}
