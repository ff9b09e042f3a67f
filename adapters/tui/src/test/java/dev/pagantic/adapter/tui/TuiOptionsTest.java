package dev.pagantic.adapter.tui;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.pagantic.adapter.tui.TuiOptions.ScriptStep;
import dev.pagantic.core.ErrorCode;
import dev.pagantic.core.PaganticException;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Map;
import org.junit.jupiter.api.Test;

class TuiOptionsTest {

    @Test
    void scriptedRepliesAndToolCallsKeepTheirOrder() {
        TuiOptions options = TuiOptions.parse("--scripted", "Hello", "Again", "--scripted-tool",
                "get_weather:{\"city\":\"Paris\",\"days\":2}", "--scripted", "Sunny.", "--slow-ms", "40",
                "--system", "Be brief.", "--max-tokens", "64");

        assertThat(options.scripted()).isTrue();
        assertThat(options.script()).containsExactly(
                new ScriptStep.Reply("Hello"),
                new ScriptStep.Reply("Again"),
                new ScriptStep.ToolCallStep("get_weather", Map.of("city", "Paris", "days", 2)),
                new ScriptStep.Reply("Sunny."));
        assertThat(options.slowPerToken()).isEqualTo(Duration.ofMillis(40));
        assertThat(options.systemPrompt()).contains("Be brief.");
        assertThat(options.maxTokens()).isEqualTo(64);
        assertThat(options.demoTools()).as("scripted mode always has the demo tool").isTrue();
    }

    @Test
    void aModelTakesItsContextSizeAndThreads() {
        TuiOptions options = TuiOptions.parse("--model", "m.gguf", "--ctx-size", "4096", "--threads", "2");

        assertThat(options.model()).contains(Path.of("m.gguf"));
        assertThat(options.contextSize()).isEqualTo(4096);
        assertThat(options.threads()).isEqualTo(2);
        assertThat(options.demoTools()).isFalse();
        assertThat(TuiOptions.parse("--model", "m.gguf", "--demo-tools").demoTools()).isTrue();
    }

    @Test
    void anEndpointTheGpuLayersAndATimeoutAreTaken() {
        TuiOptions server = TuiOptions.parse("--endpoint", "http://127.0.0.1:8080/v1", "--model-name", "stories",
                "--timeout", "2.5");
        TuiOptions gpu = TuiOptions.parse("--model", "m.gguf", "--gpu-layers", "99");

        assertThat(server.endpoint()).contains("http://127.0.0.1:8080/v1");
        assertThat(server.modelName()).contains("stories");
        assertThat(server.scripted()).isFalse();
        assertThat(server.timeout()).isEqualTo(Duration.ofMillis(2500));
        assertThat(gpu.gpuLayers()).isEqualTo(99);
    }

    @Test
    void theDefaultReplyLengthLeavesRoomInASmallContextWindow() {
        TuiOptions options = TuiOptions.parse("--model", "m.gguf");

        assertThat(options.maxTokens()).isEqualTo(TuiOptions.DEFAULT_MAX_TOKENS).isLessThan(2048 / 4);
        assertThat(options.timeout()).isZero();
    }

    @Test
    void helpNeedsNothingElse() {
        assertThat(TuiOptions.parse("--help").help()).isTrue();
    }

    @Test
    void badCommandLinesAreRefusedWithTheReason() {
        assertRefused("give a model (--model FILE.gguf), a server (--endpoint URL --model-name NAME) or a script");
        assertRefused("--model, --endpoint and --scripted exclude each other", "--model", "m.gguf", "--scripted",
                "hi");
        assertRefused("--model, --endpoint and --scripted exclude each other", "--model", "m.gguf", "--endpoint",
                "http://127.0.0.1:1/v1", "--model-name", "m");
        assertRefused("--endpoint and --model-name go together", "--endpoint", "http://127.0.0.1:1/v1");
        assertRefused("--timeout needs a positive number of seconds, not '0'", "--scripted", "hi", "--timeout", "0");
        assertRefused("--gpu-layers needs a positive whole number, not '-1'", "--model", "m.gguf", "--gpu-layers",
                "-1");
        assertRefused("--slow-ms applies to scripted mode only", "--model", "m.gguf", "--slow-ms", "5");
        assertRefused("unknown argument '--colour'", "--scripted", "hi", "--colour");
        assertRefused("--scripted needs at least one reply text", "--scripted", "--slow-ms", "5");
        assertRefused("--threads needs a positive whole number, not 'many'", "--model", "m.gguf", "--threads",
                "many");
        assertRefused("--ctx-size needs a value", "--model", "m.gguf", "--ctx-size");
        assertRefused("--scripted-tool needs NAME:JSON", "--scripted-tool", "get_weather");
        assertRefused("the arguments of --scripted-tool is not a JSON object", "--scripted-tool", "get_weather:[1]");
    }

    private static void assertRefused(String reason, String... args) {
        assertThatThrownBy(() -> TuiOptions.parse(args))
                .isInstanceOfSatisfying(PaganticException.class,
                        e -> assertThat(e.code()).isEqualTo(ErrorCode.CONFIG_INVALID))
                .hasMessageContaining(reason);
    }
}
