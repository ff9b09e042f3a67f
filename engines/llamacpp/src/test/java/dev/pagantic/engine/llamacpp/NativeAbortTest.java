package dev.pagantic.engine.llamacpp;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/**
 * Inputs that abort the whole JVM (SIGABRT, nothing to catch) when they reach java-llama.cpp unchecked: each is sent
 * through the engine's public API in a child JVM ({@link NativeAbortProbe}), which must end normally with the input
 * either refused with an error or made harmless. A regression shows as a failed test here, not as a dead build.
 *
 * <p>Two abort causes have no input at all in this API: a chat template chosen by name (the engine uses the model's
 * own template) and mean pooling (embeddings always use last-token pooling; the {@code embeddings-on-llama} case
 * proves that path on a llama-architecture model).
 */
class NativeAbortTest {

    @ParameterizedTest(name = "{0}: {1}")
    @CsvSource({
            "json-breaking-content, SURVIVED",
            "tools-in-template, SURVIVED TOOL_CALLS",
            "schema-to-grammar, SURVIVED {",
            "unknown-schema-type, REFUSED CONFIG_INVALID",
            "n-probs, REFUSED CONFIG_INVALID",
            "nul-in-message, REFUSED CONFIG_INVALID",
            "embeddings-on-llama, SURVIVED 64"})
    void anInputThatWouldAbortTheJvmIsRefusedOrMadeHarmless(String scenario, String expected) throws Exception {
        Path models = TestModels.model(TestModels.STORIES).getParent();
        ProcessBuilder child = new ProcessBuilder(Path.of(System.getProperty("java.home"), "bin", "java").toString(),
                "-cp", System.getProperty("java.class.path"), NativeAbortProbe.class.getName(), scenario)
                .redirectErrorStream(true);
        child.environment().put("PAGANTIC_TEST_MODEL_DIR", models.toString());
        Process process = child.start();
        String output = read(process);
        boolean ended = process.waitFor(2, TimeUnit.MINUTES);

        assertThat(ended).as("the probe ended").isTrue();
        assertThat(process.exitValue()).as("exit status of the probe (134 is SIGABRT); output:%n%s", output)
                .isZero();
        assertThat(output).contains(expected);
    }

    private static String read(Process process) throws IOException {
        return new String(process.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
    }
}
