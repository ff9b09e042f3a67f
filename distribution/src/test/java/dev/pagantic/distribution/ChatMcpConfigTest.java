package dev.pagantic.distribution;

import static org.assertj.core.api.Assertions.assertThat;

import dev.pagantic.adapter.cli.PaganticCli;
import dev.pagantic.tck.ModelAssumptions;
import dev.pagantic.testkit.TestModels;
import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code pagantic chat --mcp-config}, run in process as the distribution's launcher runs it: the servers' tools join
 * the model's, and a bad configuration is a clear error before any model loads.
 */
@Timeout(value = 180, unit = TimeUnit.SECONDS)
class ChatMcpConfigTest {

    @TempDir
    Path dir;

    record Run(int code, String out, String err) {
    }

    static Run pagantic(String... args) {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        ByteArrayOutputStream err = new ByteArrayOutputStream();
        int code = PaganticCli.run(args, new ByteArrayInputStream(new byte[0]),
                new PrintStream(out, true, StandardCharsets.UTF_8), new PrintStream(err, true, StandardCharsets.UTF_8),
                McpConfigTools::open);
        return new Run(code, out.toString(StandardCharsets.UTF_8), err.toString(StandardCharsets.UTF_8));
    }

    /**
     * stories260K follows no instructions: forced to call the echo tool, it calls it again after every result until
     * its context is full, so the turn's outcome is not what is checked; the timeline is: the real server's tool ran
     * for the model's grammar-constrained calls, and succeeded.
     */
    @Test
    void aModelForcedToCallAToolRunsTheEverythingServersEcho() {
        Path model = ModelAssumptions.require(TestModels.STORIES);

        Run run = pagantic("chat", "--model", model.toString(), "--mcp-config", McpConfigs.everything(dir).toString(),
                "--tools", "echo", "--tool-choice", "required", "--option", "parallel_tool_calls=false",
                "--temperature", "0", "--max-tokens", "256", "--verbose", "Say hello.");

        assertThat(run.code()).as("not a configuration or tool failure: %s", run.err()).isNotIn(2, 4);
        assertThat(run.err()).contains("tool_defs_count=1").containsPattern("orchestrate/tool +tool=echo .*"
                + "is_error=false").containsPattern("tool/tool_end +tool_name=echo .* success=true");
    }

    @Test
    void aWhitelistedToolThatNoServerOffersIsAConfigurationError() {
        Run run = pagantic("--scripted", "unused", "chat", "--mcp-config", McpConfigs.everything(dir).toString(),
                "--tools", "echo,no_such_tool", "hi");

        assertThat(run.code()).isEqualTo(2);
        assertThat(run.err()).contains("CONFIG_INVALID", "--tools names [no_such_tool]");
        assertThat(run.out()).isEmpty();
    }

    @Test
    void aMissingConfigFileIsAConfigurationErrorNamingIt() {
        Path missing = dir.resolve("nowhere.json");

        Run run = pagantic("--scripted", "unused", "chat", "--mcp-config", missing.toString(), "hi");

        assertThat(run.code()).isEqualTo(2);
        assertThat(run.err()).contains("CONFIG_INVALID", missing.toString(), "no such file");
    }

    @Test
    void aConfigFileThatIsNotJsonIsAConfigurationErrorNamingIt() {
        Path bad = McpConfigs.badJson(dir);

        Run run = pagantic("--scripted", "unused", "chat", "--mcp-config", bad.toString(), "--json", "hi");

        assertThat(run.code()).isEqualTo(2);
        assertThat(run.err()).contains("CONFIG_INVALID", bad.toString());
        assertThat(run.out()).startsWith("{\"error\":{\"code\":\"CONFIG_INVALID\"");
    }

    @Test
    void aServerWhoseCommandDoesNotExistIsAToolFailureNamingTheServer() {
        Run run = pagantic("--scripted", "unused", "chat", "--mcp-config",
                McpConfigs.missingCommand(dir).toString(), "hi");

        assertThat(run.code()).as(run.err()).isEqualTo(4);
        assertThat(run.err()).contains("TOOL_UNAVAILABLE", "'ghost'");
    }

    @Test
    void toolOptionsWithoutAConfigAreAUsageError() {
        Run run = pagantic("--scripted", "unused", "chat", "--tool-choice", "required", "hi");

        assertThat(run.code()).isEqualTo(1);
        assertThat(run.err()).contains("--tool-choice needs tools: give --mcp-config FILE");
    }
}
