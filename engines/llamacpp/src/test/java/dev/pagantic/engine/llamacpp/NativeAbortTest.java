package dev.pagantic.engine.llamacpp;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Comparator;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/**
 * Inputs that abort the whole JVM (SIGABRT, nothing to catch) when they reach java-llama.cpp unchecked: each is sent
 * through the engine's public API in a child JVM ({@link NativeAbortProbe}), which must end normally with the input
 * either refused with an error or made harmless. A regression shows as a failed test here, not as a dead build.
 *
 * <p>A chat template's {@code raise_exception} aborts the JVM too (llama.cpp b4916 catches no template error): the
 * {@code native-template} cases show it on the binding itself with a template that raises on the conversation's
 * shape, and the {@code template} cases that the engine brings such a conversation into a shape the template accepts
 * and answers it (two user messages joined, a late system message folded into the next user message), or refuses,
 * before native code, one it cannot bring there ({@link ChatShape}).
 *
 * <p>The {@code native-n-probs} and {@code native-logit-bias} cases measure the binding on OpenAI's {@code logprobs}
 * ({@code n_probs} in llama.cpp: any value aborts, so the engine and the server refuse it) and on non-finite
 * {@code logit_bias} values (refused in Java; finite biases and ids outside the vocabulary are harmless,
 * {@link SeedAndStopTest}). One case per cause runs here (each is a child JVM); the other shapes and values measured
 * when the guards were written (a second system message, an assistant message first, {@code n_probs} of 1,000,000,
 * a bias of -Infinity) aborted the same way.
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
            "embeddings-on-llama, SURVIVED 64",
            "template:two-user-messages-in-a-row, SURVIVED PROMPT [INST] Hi\\n\\nAre you there? [/INST] FINISHED",
            "template:a-second-system-message, '[INST] Hi [/INST]Hello</s>[INST] Be verbose.\\n\\nTell a story [/INST] "
                    + "FINISHED'",
            "template:an-assistant-message-first, REFUSED CONFIG_INVALID"})
    void anInputThatWouldAbortTheJvmIsRefusedOrMadeHarmless(String scenario, String expected) throws Exception {
        Probe probe = probe(scenario);

        assertThat(probe.exitValue()).as("exit status of the probe (134 is SIGABRT); output:%n%s", probe.output())
                .isZero();
        assertThat(probe.output()).contains(expected);
    }

    @ParameterizedTest(name = "{0}")
    @CsvSource({
            "native-template:two-user-messages-in-a-row, Conversation roles must alternate",
            "native-n-probs:1, GGML_ASSERT",
            "native-logit-bias:NaN, parse error"})
    void aValueTheBindingItselfCannotTakeAbortsTheJvm(String scenario, String nativeError) throws Exception {
        Probe probe = probe(scenario);

        assertThat(probe.exitValue()).as("exit status of the probe; output:%n%s", probe.output()).isEqualTo(134);
        assertThat(probe.output()).contains(nativeError).doesNotContain("RENDERED").doesNotContain("GENERATED");
    }

    private record Probe(int exitValue, String output) {
    }

    private static Probe probe(String scenario) throws Exception {
        Path models = TestModels.model(TestModels.STORIES).toAbsolutePath().getParent();
        Path workingDirectory = Files.createTempDirectory("pagantic-abort-probe"); // where a core dump would land
        ProcessBuilder child = new ProcessBuilder(Path.of(System.getProperty("java.home"), "bin", "java").toString(),
                "-cp", System.getProperty("java.class.path"), NativeAbortProbe.class.getName(), scenario)
                .redirectErrorStream(true).directory(workingDirectory.toFile());
        child.environment().put("PAGANTIC_TEST_MODEL_DIR", models.toString());
        try {
            Process process = child.start();
            String output = read(process);
            assertThat(process.waitFor(2, TimeUnit.MINUTES)).as("the probe ended").isTrue();
            return new Probe(process.exitValue(), output);
        } finally {
            try (Stream<Path> files = Files.walk(workingDirectory)) {
                files.sorted(Comparator.reverseOrder()).forEach(path -> path.toFile().delete());
            }
        }
    }

    private static String read(Process process) throws IOException {
        return new String(process.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
    }
}
