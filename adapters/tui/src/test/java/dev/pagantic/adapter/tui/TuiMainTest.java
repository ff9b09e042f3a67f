package dev.pagantic.adapter.tui;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class TuiMainTest {

    private final ByteArrayOutputStream out = new ByteArrayOutputStream();
    private final ByteArrayOutputStream err = new ByteArrayOutputStream();

    @Test
    void helpPrintsTheUsage() {
        assertThat(run("--help")).isZero();
        assertThat(text(out)).contains("--model FILE", "--scripted TEXT...", "--scripted-tool NAME:JSON",
                "--slow-ms N", "--system TEXT");
    }

    @Test
    void aBadCommandLineIsExplainedWithTheUsage() {
        assertThat(run("--scripted", "hi", "--colour")).isEqualTo(TuiMain.USAGE_ERROR);
        assertThat(text(err)).contains("pagantic tui: CONFIG_INVALID", "unknown argument '--colour'", "usage:");
    }

    @Test
    void aScriptedCommandLineChatsWithTheDemoToolAndSlowedWords() {
        ChatHarness chat = ChatHarness.typing("weather?", "/tools").runMain(TuiOptions.parse(
                "--scripted-tool", "get_weather:{\"city\":\"Oslo\"}", "--scripted", "Sunny in Oslo.",
                "--slow-ms", "1", "--system", "Be brief."));

        assertThat(chat.status()).isZero();
        assertThat(chat.output()).containsSubsequence("⚙ calling get_weather {city=Oslo}",
                "↳ get_weather → Sunny and 21 °C in Oslo", "Sunny in Oslo.", "get_weather(city)", "bye");
    }

    @Test
    void aModelThatCannotBeLoadedEndsWithAFailure() {
        ChatHarness chat = ChatHarness.typing("hello").runMain(TuiOptions.parse("--model", "no/such/model.gguf"));

        assertThat(chat.status()).isEqualTo(TuiMain.FAILURE);
        assertThat(chat.output()).contains("loading no/such/model.gguf", "pagantic tui: INFERENCE_MODEL_UNAVAILABLE");
    }

    @Test
    void anMcpConfigNeedsTheMcpClientThatOnlyTheDistributionBrings() {
        ChatHarness chat = ChatHarness.typing("hello").runMain(TuiOptions.parse("--scripted", "hi", "--mcp-config",
                "mcp.json"));

        assertThat(chat.status()).isEqualTo(TuiMain.FAILURE);
        assertThat(chat.output()).contains("pagantic tui: CONFIG_INVALID", "--mcp-config needs the MCP client");
    }

    @Test
    void aModelOfAnArchitectureTheBundledLlamaCppDoesNotKnowIsRefusedByName(@TempDir Path dir) throws Exception {
        Path qwen3 = dev.pagantic.testkit.TestModels.withArchitecture(TestModels.model(TestModels.STORIES), "qwen3",
                dir);

        ChatHarness chat = ChatHarness.typing("hello").runMain(TuiOptions.parse("--model", qwen3.toString()));

        assertThat(chat.status()).isEqualTo(TuiMain.FAILURE);
        assertThat(chat.output()).contains("pagantic tui: INFERENCE_MODEL_UNAVAILABLE", "'qwen3'", "b4916",
                "llama-server");
    }

    @Test
    void aRealModelAnswersThroughTheChat() {
        String model = TestModels.model(TestModels.STORIES).toString();

        ChatHarness chat = ChatHarness.typing("Once upon a time").runMain(TuiOptions.parse(
                "--model", model, "--ctx-size", "2048", "--threads", "2", "--max-tokens", "8"));

        assertThat(chat.status()).isZero();
        assertThat(chat.output()).contains("loaded " + TestModels.STORIES).doesNotContain("✗");
        assertThat(chat.output()).containsPattern("\\[\\d+ prompt \\+ [1-8] output = \\d+ tokens, \\d+\\.\\d tokens/s");
    }

    private int run(String... args) {
        return TuiMain.run(args, new PrintStream(out, true, StandardCharsets.UTF_8),
                new PrintStream(err, true, StandardCharsets.UTF_8));
    }

    private static String text(ByteArrayOutputStream stream) {
        return stream.toString(StandardCharsets.UTF_8);
    }
}
