package dev.pagantic.adapter.mcp.server;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.pagantic.adapter.mcp.client.McpServerConfig;
import dev.pagantic.adapter.mcp.client.McpToolbox;
import dev.pagantic.core.ErrorCode;
import dev.pagantic.core.PaganticException;
import dev.pagantic.core.ToolCall;
import dev.pagantic.orchestrate.facade.Orchestrator;
import dev.pagantic.testkit.ScriptedEngine;
import dev.pagantic.tool.SideEffect;
import dev.pagantic.tool.ToolExecution;
import dev.pagantic.tool.ToolExecutor;
import dev.pagantic.tool.ToolRegistry;
import dev.pagantic.tool.ToolSafety;
import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/** pagantic's MCP server driven by pagantic's MCP client over streamable HTTP: the round trip of both adapters. */
@Timeout(120)
class PaganticMcpServerTest {

    private Orchestrator orchestrator;
    private PaganticMcpServer server;
    private McpToolbox client;
    private ToolExecutor executor;

    @BeforeEach
    void start() {
        orchestrator = Orchestrator.builder().engine(ScriptedEngine.builder().reply("Hello from pagantic.")
                .reply("Hello again.").build()).build();
        server = PaganticMcpServer.builder().tools(ServedTools.registry()).orchestrator(orchestrator)
                .http("127.0.0.1", 0).build().start();
        client = McpToolbox.builder().server(McpServerConfig.http("pagantic", server.endpoint())).build();
        executor = ToolExecutor.builder().defaultTimeout(Duration.ofSeconds(20)).build();
    }

    @AfterEach
    void stop() {
        executor.close();
        client.close();
        server.close();
        orchestrator.close();
    }

    private ToolExecution call(String tool, Map<String, Object> arguments) {
        return executor.execute(client.registry(), ToolCall.of("c-" + tool, tool, arguments));
    }

    @Test
    void theServedToolsArriveWithTheirSchemasAndSideEffectClasses() {
        ToolRegistry tools = client.registry();

        assertThat(tools.names()).containsExactly("add", "append_note", "slow", "pagantic_request");
        assertThat(tools.lookup("add").orElseThrow().definition().parameters())
                .isEqualTo(ServedTools.add().definition().parameters());
        assertThat(tools.lookup("add").orElseThrow().safety()).as("pure is read-only over MCP")
                .isEqualTo(ToolSafety.READ_ONLY);
        assertThat(tools.lookup("append_note").orElseThrow().safety())
                .isEqualTo(ToolSafety.of(SideEffect.WRITE, false));
        assertThat(tools.lookup("pagantic_request").orElseThrow().safety()).isEqualTo(ToolSafety.UNKNOWN);
    }

    @Test
    void aCallRunsOnTheServerAndItsFailuresComeBackAsToolErrorsWithTheServersCode() {
        assertThat(call("add", Map.of("a", 40, "b", 2)).result().content()).isEqualTo("42");
        assertThat(call("append_note", Map.of("text", "milk")).result().content()).isEqualTo("noted: milk");

        ToolExecution slow = call("slow", Map.of());
        assertThat(slow.errorCode()).contains(ErrorCode.TOOL_EXECUTION_FAILED);
        assertThat(slow.result().content()).contains("reported an error: TOOL_TIMEOUT:");

        try (ToolExecutor trusting = ToolExecutor.builder().validateArguments(false).build()) {
            ToolExecution invalid = trusting.execute(client.registry(), ToolCall.of("bad", "add", Map.of("a", 1)));
            assertThat(invalid.result().content()).as("the server validates too")
                    .contains("TOOL_INVALID_ARGUMENTS:", "'b'");
        }
    }

    @Test
    void paganticRequestAnswersWithTheResponseAndAFailedRequestIsAToolError() {
        ToolExecution chat = call("pagantic_request", Map.of("messages", List.of(Map.of("role", "user",
                "content", "Say hello"))));
        assertThat(chat.result().content()).contains("\"content\":\"Hello from pagantic.\"");

        ToolExecution noSchema = call("pagantic_request", Map.of("mode", "structured", "messages",
                List.of(Map.of("role", "user", "content", "Extract"))));
        assertThat(noSchema.errorCode()).contains(ErrorCode.TOOL_EXECUTION_FAILED);
        assertThat(noSchema.result().content()).contains("CONFIG_SCHEMA_REQUIRED");
    }

    @Test
    void updatedToolsReachTheClientThroughListChanged() throws InterruptedException {
        List<ToolRegistry> seen = new CopyOnWriteArrayList<>();
        client.onChange(seen::add);
        var before = client.registry().lookup("append_note").orElseThrow();

        server.updateTools(ToolRegistry.of(ServedTools.add(), ServedTools.slow()));

        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(10);
        while (client.registry().contains("append_note") && System.nanoTime() < deadline) {
            Thread.sleep(20);
        }
        assertThat(client.registry().names()).containsExactly("add", "slow", "pagantic_request");
        assertThat(seen).isNotEmpty();
        assertThat(before.availability().available()).as("a tool of an older registry knows it is gone").isFalse();
        assertThat(before.availability().reason()).contains("no longer offers tool 'append_note'");
        assertThat(call("add", Map.of("a", 1, "b", 1)).result().content()).isEqualTo("2");
    }

    @Test
    void aStdioServerEndsWhenItsInputEnds() throws InterruptedException {
        PaganticMcpServer stdio = PaganticMcpServer.builder().tools(ServedTools.registry())
                .stdio(new ByteArrayInputStream(new byte[0]), new ByteArrayOutputStream()).build().start();
        Thread waiting = new Thread(() -> {
            try {
                stdio.awaitClose();
            } catch (InterruptedException ignored) {
                Thread.currentThread().interrupt();
            }
        });
        waiting.start();
        waiting.join(10_000);
        assertThat(waiting.isAlive()).isFalse();
    }

    @Test
    void theBuilderRefusesWhatCannotServe() {
        assertThatThrownBy(() -> PaganticMcpServer.builder().build()).isInstanceOfSatisfying(
                PaganticException.class, e -> assertThat(e.getMessage()).contains("choose a transport"));
        assertThatThrownBy(() -> PaganticMcpServer.builder().http("127.0.0.1", 70_000).build())
                .isInstanceOfSatisfying(PaganticException.class,
                        e -> assertThat(e.code()).isEqualTo(ErrorCode.CONFIG_INVALID));
        ToolRegistry clash = ToolRegistry.of(dev.pagantic.tool.Tool.builder(dev.pagantic.core.ToolDefinition.of(
                "pagantic_request", "", dev.pagantic.core.Schema.object().build())).handler((c, a) -> "").build());
        assertThatThrownBy(() -> PaganticMcpServer.builder().tools(clash).orchestrator(orchestrator)
                .http("127.0.0.1", 0).build()).isInstanceOfSatisfying(PaganticException.class,
                e -> assertThat(e.getMessage()).contains("pagantic_request"));
        assertThatThrownBy(() -> PaganticMcpServer.builder().http(server.endpoint().getHost(),
                server.endpoint().getPort()).build().start()).isInstanceOfSatisfying(PaganticException.class,
                e -> assertThat(e.getMessage()).contains("cannot listen"));
    }
}
