package dev.pagantic.examples;

import static org.assertj.core.api.Assertions.assertThat;
import dev.pagantic.tck.ModelAssumptions;
import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The README's main demo, without a model (the scripted engine) and on the real stories model. */
class MainDemoTest {

    private static List<String> run(Path modelDir, int[] status) {
        ByteArrayOutputStream buffer = new ByteArrayOutputStream();
        try (PrintStream out = new PrintStream(buffer, true, StandardCharsets.UTF_8)) {
            status[0] = MainDemo.run(out, modelDir);
        }
        return buffer.toString(StandardCharsets.UTF_8).lines().toList();
    }

    @Test
    void withoutAModelItSaysWhereToPutOneAndRunsLabelledOnTheScriptedEngine(@TempDir Path empty) {
        int[] status = new int[1];
        List<String> lines = run(empty, status);

        assertThat(status[0]).isZero();
        assertThat(lines.get(0)).startsWith("No model at " + empty.resolve(MainDemo.MODEL_FILE));
        assertThat(lines).contains("Engine: scripted (no model)",
                "tool call:   get_weather {city=Paris} -> Sunny and 24 degrees in Paris",
                "content:     It is sunny in Paris, 24 degrees.",
                "structured:  {name=Tom, animal=cat, age=3}",
                "confidence:  0.67 (voting)",
                "All three requests succeeded.");
        assertThat(lines).anyMatch(line -> line.startsWith("validation:  valid (repaired)"));
        assertThat(lines).anyMatch(line -> line.matches("\\s+\\d+ ms  inference_end .*, tool_calls, .*"));
    }

    @Test
    void onTheRealModelTheThreeRequestsSucceedWithATimeline() {
        Path models = modelDirectory();
        int[] status = new int[1];
        List<String> lines = run(models, status);

        assertThat(lines).as("%s", lines).contains("All three requests succeeded.");
        assertThat(status[0]).isZero();
        assertThat(lines).anyMatch(line -> line.startsWith("Engine: llama.cpp, stories260K"));
        assertThat(lines).anyMatch(line -> line.startsWith("tool call:   get_weather"));
        assertThat(lines).anyMatch(line -> line.startsWith("validation:  valid"));
        assertThat(lines).anyMatch(line -> line.startsWith("confidence:  "));
        assertThat(lines).anyMatch(line -> line.matches("\\s+\\d+ ms  inference_end .*"));
    }

    private static Path modelDirectory() {
        return ModelAssumptions.require(MainDemo.MODEL_FILE).getParent();
    }
}
