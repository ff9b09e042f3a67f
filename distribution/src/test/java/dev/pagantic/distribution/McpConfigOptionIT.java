package dev.pagantic.distribution;

import static org.assertj.core.api.Assertions.assertThat;

import dev.pagantic.tck.ModelAssumptions;
import dev.pagantic.testkit.TestModels;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;

/**
 * {@code --mcp-config} of {@code pagantic tui} and {@code pagantic serve}, through the built {@code bin/pagantic} with
 * the MCP project's everything server (npm), and with hostile configurations.
 */
@Timeout(value = 300, unit = TimeUnit.SECONDS)
class McpConfigOptionIT {

    private static final Pattern SERVING = Pattern.compile("serving '[^']+' at (http://\\S+) ");
    private static final JsonMapper JSON = JsonMapper.builder().build();

    @TempDir
    Path dir;

    @Test
    void theTerminalChatRunsTheServersToolAndListsItsTools() {
        Launcher.Run run = Launcher.runWithInput("please echo\n/tools\n/exit\n", "tui",
                "--scripted-tool", "echo:{\"message\":\"hi from the chat\"}", "--scripted", "It echoed.",
                "--mcp-config", McpConfigs.everything(dir).toString());

        assertThat(run.code()).as(run.err()).isZero();
        assertThat(run.out()).as("the tool's result shows as it arrives, before the answer")
                .containsSubsequence("calling echo {message=hi from the chat}", "echo → Echo: hi from the chat",
                        "It echoed.", "echo(message)", "get-sum(a, b)", "bye");
    }

    @Test
    void theTerminalChatReportsAHostileConfigAndEnds() {
        Path missing = dir.resolve("nowhere.json");
        List<Launcher.Run> runs = List.of(
                Launcher.runWithInput("/exit\n", "tui", "--scripted", "x", "--mcp-config", missing.toString()),
                Launcher.runWithInput("/exit\n", "tui", "--scripted", "x", "--mcp-config",
                        McpConfigs.badJson(dir).toString()),
                Launcher.runWithInput("/exit\n", "tui", "--scripted", "x", "--mcp-config",
                        McpConfigs.missingCommand(dir).toString()));

        assertThat(runs).allSatisfy(run -> assertThat(run.code()).as(run.out() + run.err()).isEqualTo(1));
        assertThat(runs.get(0).out()).contains("pagantic tui: CONFIG_INVALID", missing.toString(), "no such file");
        assertThat(runs.get(1).out()).contains("pagantic tui: CONFIG_INVALID", "bad.json");
        assertThat(runs.get(2).out()).contains("pagantic tui: TOOL_UNAVAILABLE", "'ghost'");
    }

    @Test
    void theServerRefusesToStartOnAHostileConfig() {
        Path missing = dir.resolve("nowhere.json");
        Launcher.Run run = Launcher.run("serve", "--scripted", "x", "--port", "0", "--mcp-config", missing.toString());
        Launcher.Run ghost = Launcher.run("serve", "--scripted", "x", "--port", "0", "--mcp-config",
                McpConfigs.missingCommand(dir).toString());

        assertThat(run.code()).isEqualTo(1);
        assertThat(run.err()).contains("pagantic serve: cannot start:", missing.toString(), "no such file");
        assertThat(ghost.code()).isEqualTo(1);
        assertThat(ghost.err()).contains("pagantic serve: cannot start:", "'ghost'");
    }

    /** stories260K, forced to call a tool, calls the server's echo; the request's events show it ran and succeeded. */
    @Test
    void theServerRunsTheServersToolForTheModelsCall() throws Exception {
        Path model = ModelAssumptions.require(TestModels.STORIES);
        Process server = Launcher.command("serve", "--model", model.toString(), "--context-size", "4096",
                "--port", "0", "--mcp-config", McpConfigs.everything(dir).toString()).redirectErrorStream(true).start();
        try {
            String base = CompletableFuture.supplyAsync(() -> Launcher.servingAddress(server, SERVING)).get(120, TimeUnit.SECONDS);
            assertThat(base).as("the address the server printed").isNotNull();
            HttpClient http = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(10)).build();
            HttpResponse<String> answer = http.send(HttpRequest.newBuilder(URI.create(base + "/v1/requests"))
                    .header("Content-Type", "application/json")
                    .POST(HttpRequest.BodyPublishers.ofString("{\"messages\": [{\"role\": \"user\", \"content\": "
                            + "\"Say hello.\"}], \"tools\": [\"echo\"], \"hints\": {\"max_tokens\": 256, "
                            + "\"temperature\": 0, \"options\": {\"tool_choice\": \"required\", "
                            + "\"parallel_tool_calls\": false}}}"))
                    .build(), HttpResponse.BodyHandlers.ofString());
            String id = JSON.readTree(answer.body()).path("request_id").asString();
            HttpResponse<String> events = http.send(HttpRequest.newBuilder(
                    URI.create(base + "/v1/requests/" + id + "/events")).build(), HttpResponse.BodyHandlers.ofString());

            List<JsonNode> toolEnds = JSON.readTree(events.body()).path("events").valueStream()
                    .filter(event -> event.path("action").asString().equals("tool_end")).toList();
            assertThat(toolEnds).as(events.body()).isNotEmpty().allSatisfy(end -> {
                assertThat(end.path("data").path("tool_name").asString()).isEqualTo("echo");
                assertThat(end.path("data").path("success").asBoolean()).isTrue();
            });
            server.destroy();
            assertThat(server.waitFor(30, TimeUnit.SECONDS)).as("the server ended after SIGTERM").isTrue();
        } finally {
            server.destroyForcibly();
        }
    }

}
