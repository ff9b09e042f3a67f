package dev.pagantic.adapter.mcp.server;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.pagantic.adapter.mcp.NodeServers;
import dev.pagantic.adapter.mcp.client.McpServerConfig;
import dev.pagantic.adapter.mcp.client.McpToolbox;
import dev.pagantic.adapter.mcp.internal.McpJson;
import dev.pagantic.core.ToolCall;
import dev.pagantic.tool.ToolExecutor;
import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;
import picocli.CommandLine;

@Timeout(120)
class McpServerCommandTest {

    private final ByteArrayOutputStream status = new ByteArrayOutputStream();

    private McpServerCommand command(String... args) {
        McpServerCommand command = new McpServerCommand(new PrintStream(status, true, StandardCharsets.UTF_8));
        new CommandLine(command).parseArgs(args);
        return command;
    }

    @Test
    void theCommandServesPaganticRequestOverHttpOnAScriptedEngine() {
        try (McpServerCommand.Served served = command("--transport", "http", "--port", "0", "--scripted",
                     "Scripted hello.").start();
             McpToolbox client = McpToolbox.builder()
                     .server(McpServerConfig.http("pagantic", served.server().endpoint())).build();
             ToolExecutor executor = ToolExecutor.create()) {
            assertThat(status.toString(StandardCharsets.UTF_8)).contains("serving [pagantic_request] at http://");

            String answer = executor.execute(client.registry(), ToolCall.of("r", "pagantic_request", Map.of(
                    "messages", List.of(Map.of("role", "user", "content", "Hi"))))).result().content();
            assertThat(McpJson.readObject(answer)).containsEntry("content", "Scripted hello.");
        }
    }

    @Test
    void withAnMcpConfigTheCommandIsAGuardingProxyForTheWhitelistedTools(@TempDir Path dir) throws Exception {
        List<String> faulty = NodeServers.script("faulty-server.mjs");
        Path config = Files.writeString(dir.resolve("mcp.json"), McpJson.write(Map.of("mcpServers", Map.of(
                "upstream", Map.of("command", faulty.get(0), "args", List.of(faulty.get(1)))))));

        try (McpServerCommand.Served served = command("--transport", "http", "--port", "0", "--mcp-config",
                     config.toString(), "--tools", "echo,hang", "--tool-timeout", "1").start();
             McpToolbox client = McpToolbox.builder()
                     .server(McpServerConfig.http("proxy", served.server().endpoint())).build();
             ToolExecutor executor = ToolExecutor.create()) {
            assertThat(client.registry().names()).containsExactly("echo", "hang");
            assertThat(executor.execute(client.registry(), ToolCall.of("e", "echo", Map.of("text", "via proxy")))
                    .result().content()).isEqualTo("echo: via proxy");
            assertThat(executor.execute(client.registry(), ToolCall.of("h", "hang", Map.of())).result().content())
                    .as("the proxy's own timeout").contains("TOOL_TIMEOUT:");
        }
    }

    @Test
    void contradictoryOptionsAreRefusedBeforeAnythingStarts() {
        assertThatThrownBy(() -> command("--transport", "pigeon").start())
                .isInstanceOf(CommandLine.ParameterException.class).hasMessageContaining("stdio or http");
        assertThatThrownBy(() -> command("--model", "/no/such/model.gguf").start())
                .isInstanceOf(CommandLine.ParameterException.class).hasMessageContaining("no model file");
        assertThatThrownBy(() -> command("--model", "m.gguf", "--scripted", "x").start())
                .isInstanceOf(CommandLine.ParameterException.class).hasMessageContaining("exclude each other");
    }
}
