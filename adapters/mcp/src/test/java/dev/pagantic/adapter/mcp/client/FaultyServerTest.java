package dev.pagantic.adapter.mcp.client;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.pagantic.adapter.mcp.NodeServers;
import dev.pagantic.core.ErrorCode;
import dev.pagantic.core.PaganticException;
import dev.pagantic.core.ToolCall;
import dev.pagantic.tool.ToolExecution;
import dev.pagantic.tool.ToolExecutor;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * A server that dies mid-call, one that never answers, one that writes garbage on stdout: each call fails clearly
 * with a tool code, the JVM keeps no thread of it, and the next call works after a reconnect.
 */
@Timeout(120)
class FaultyServerTest {

    private final AtomicInteger calls = new AtomicInteger();
    private ToolExecutor executor;

    @BeforeEach
    void executor() {
        executor = ToolExecutor.builder().defaultTimeout(Duration.ofSeconds(2)).build();
    }

    @AfterEach
    void close() {
        executor.close();
    }

    private static McpToolbox connect(String mode) {
        List<String> command = NodeServers.script("faulty-server.mjs");
        return McpToolbox.builder().server(McpServerConfig.stdio("faulty", command.get(0),
                        List.of(command.get(1), mode)))
                .connectTimeout(Duration.ofSeconds(10)).build();
    }

    private ToolExecution call(McpToolbox toolbox, String tool, Map<String, Object> arguments) {
        return executor.execute(toolbox.registry(), ToolCall.of("c" + calls.incrementAndGet(), tool, arguments));
    }

    private ToolExecution echo(McpToolbox toolbox) {
        return call(toolbox, "echo", Map.of("text", "still here"));
    }

    @Test
    void aServerKilledMidCallFailsThatCallAtOnceAndTheNextCallRestartsIt() {
        try (McpToolbox toolbox = connect("normal")) {
            long started = System.nanoTime();
            ToolExecution crashed = call(toolbox, "crash", Map.of());

            assertThat(crashed.errorCode()).contains(ErrorCode.TOOL_EXECUTION_FAILED);
            assertThat(crashed.result().isError()).isTrue();
            assertThat(crashed.result().content()).contains("MCP server 'faulty'", "exited with code 3",
                    "crashing on purpose");
            assertThat(Duration.ofNanos(System.nanoTime() - started))
                    .as("the exit is noticed at once, not at the timeout").isLessThan(Duration.ofSeconds(2));
            assertThat(echo(toolbox).result().content()).isEqualTo("echo: still here");
        }
    }

    @Test
    void aCallThatIsNeverAnsweredTimesOutAndTheServerKeepsServingOtherCalls() {
        try (McpToolbox toolbox = connect("normal")) {
            ToolExecution hung = call(toolbox, "hang", Map.of());

            assertThat(hung.errorCode()).contains(ErrorCode.TOOL_TIMEOUT);
            assertThat(executor.abandonedCount()).as("the waiting thread was freed, not abandoned").isZero();
            assertThat(echo(toolbox).result().content()).isEqualTo("echo: still here");
        }
    }

    @Test
    void aServerThatStopsAnsweringEntirelyIsReplacedAfterItsPingFails() throws InterruptedException {
        try (McpToolbox toolbox = connect("normal")) {
            assertThat(call(toolbox, "freeze", Map.of()).errorCode()).contains(ErrorCode.TOOL_TIMEOUT);

            ToolExecution next = echo(toolbox);
            long deadline = System.nanoTime() + Duration.ofSeconds(20).toNanos();
            while (!next.succeeded() && System.nanoTime() < deadline) { // until the ping check gives up on it
                // a call in flight when the session is dropped ends with the session
                assertThat(next.errorCode().orElseThrow()).isIn(ErrorCode.TOOL_TIMEOUT, ErrorCode.TOOL_EXECUTION_FAILED);
                next = echo(toolbox);
            }
            assertThat(next.result().content()).isEqualTo("echo: still here");
        }
    }

    @Test
    void aServerThatNeverAnswersInitializeIsAClearUnavailableError() {
        assertThatThrownBy(() -> McpToolbox.builder()
                .server(McpServerConfig.stdio("mute", NodeServers.node(),
                        List.of(NodeServers.script("faulty-server.mjs").get(1), "mute")))
                .connectTimeout(Duration.ofSeconds(2)).build())
                .isInstanceOfSatisfying(PaganticException.class, failure -> {
                    assertThat(failure.code()).isEqualTo(ErrorCode.TOOL_UNAVAILABLE);
                    assertThat(failure.getMessage()).contains("MCP server 'mute'", "initialize", "2000 ms");
                });
    }

    @Test
    void garbageOnStdoutIsSkippedAndTheRealAnswersStillArrive() {
        try (McpToolbox toolbox = connect("garbage")) {
            assertThat(echo(toolbox).result().content()).isEqualTo("echo: still here");
            assertThat(toolbox.registry().names()).containsExactly("echo", "crash", "hang", "freeze");
        }
    }

    @Test
    void toolsPaganticRefusesFailTheBuildNamingServerToolAndReasonOrAreLeftOutWhenAsked() {
        List<String> command = NodeServers.script("faulty-server.mjs");
        McpServerConfig refusing = McpServerConfig.stdio("refusing", command.get(0), List.of(command.get(1),
                "refused"));

        assertThatThrownBy(() -> McpToolbox.builder().server(refusing).build())
                .isInstanceOfSatisfying(PaganticException.class, failure -> {
                    assertThat(failure.code()).isEqualTo(ErrorCode.CONFIG_INVALID);
                    assertThat(failure.getMessage()).contains("2 MCP tool(s)",
                            "tool 'typo' of MCP server 'refusing'", "/properties/x", "strnig",
                            "tool 'files.read' of MCP server 'refusing'", "not a valid tool name");
                });
        try (McpToolbox lenient = McpToolbox.builder().server(refusing).skipRefusedTools(true).build()) {
            assertThat(lenient.registry().names()).containsExactly("echo", "crash", "hang", "freeze");
            assertThat(lenient.refusedTools()).extracting(McpToolbox.RefusedTool::tool)
                    .containsExactly("typo", "files.read");
        }
    }

    @Test
    void aCommandThatCannotBeStartedIsAClearUnavailableError() {
        assertThatThrownBy(() -> McpToolbox.builder()
                .server(McpServerConfig.stdio("missing", "/no/such/mcp-server")).build())
                .isInstanceOfSatisfying(PaganticException.class, failure -> {
                    assertThat(failure.code()).isEqualTo(ErrorCode.TOOL_UNAVAILABLE);
                    assertThat(failure.getMessage()).contains("MCP server 'missing'", "/no/such/mcp-server");
                });
    }

    @Test
    void faultsLeaveNoThreadBehind() throws InterruptedException {
        try (McpToolbox warmUp = connect("normal")) { // the SDK's shared schedulers start once per JVM
            call(warmUp, "crash", Map.of());
            call(warmUp, "hang", Map.of());
            echo(warmUp);
        }
        int before = Threads.settled(-1);
        for (int round = 0; round < 3; round++) {
            try (McpToolbox toolbox = connect(round % 2 == 0 ? "normal" : "garbage")) {
                call(toolbox, "crash", Map.of());
                call(toolbox, "hang", Map.of());
                echo(toolbox);
            }
        }
        assertThat(Threads.settled(before)).as("live threads (without Reactor's shared elastic pool) "
                + Threads.names()).isLessThanOrEqualTo(before);
        assertThat(Threads.named("pagantic-mcp-faulty")).isEmpty();
        assertThat(executor.abandonedCount()).isZero();
    }
}
