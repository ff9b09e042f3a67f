package dev.pagantic.adapter.mcp.client;

import static org.assertj.core.api.Assertions.assertThat;

import dev.pagantic.adapter.mcp.NodeServers;
import dev.pagantic.core.ErrorCode;
import dev.pagantic.core.ToolCall;
import dev.pagantic.tool.SideEffect;
import dev.pagantic.tool.ToolExecution;
import dev.pagantic.tool.ToolExecutor;
import dev.pagantic.tool.ToolRegistry;
import dev.pagantic.tool.ToolSafety;
import java.io.BufferedReader;
import java.io.InputStreamReader;
import java.net.ServerSocket;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * The MCP project's everything server (npm {@code @modelcontextprotocol/server-everything}, installed by the build):
 * every tool it lists is taken over or refused by name, and every tool taken over is called through the tool
 * executor, with its whitelist, argument validation and timeout.
 */
@Timeout(180)
class EverythingServerTest {

    private static McpToolbox toolbox;
    private static ToolExecutor executor;
    private static final Set<String> called = new LinkedHashSet<>();

    @BeforeAll
    static void connect() {
        List<String> command = NodeServers.everything();
        toolbox = McpToolbox.builder()
                .server(McpServerConfig.stdio("everything", command.get(0), command.subList(1, command.size()))
                        .withEnv(Map.of("PAGANTIC_MCP_TEST", "passed through", "GZIP_ALLOWED_DOMAINS",
                                "only.example")))
                .skipRefusedTools(true)
                .build();
        executor = ToolExecutor.builder().defaultTimeout(Duration.ofSeconds(20)).build();
    }

    @AfterAll
    static void close() {
        executor.close();
        toolbox.close();
        assertThat(called).as("every tool taken over is called by some test")
                .containsExactlyInAnyOrderElementsOf(toolbox.registry().names());
    }

    private static ToolExecution call(ToolRegistry registry, String tool, Map<String, Object> arguments) {
        called.add(tool);
        return executor.execute(registry, ToolCall.of("call-" + called.size(), tool, arguments));
    }

    private static String text(String tool, Map<String, Object> arguments) {
        ToolExecution execution = call(toolbox.registry(), tool, arguments);
        assertThat(execution.succeeded()).as("%s: %s", tool, execution.result().content()).isTrue();
        return execution.result().content();
    }

    @Test
    void everyListedToolIsEitherARegisteredToolOrARefusalNamingItAndItsSchemaProblem() {
        Set<String> accounted = new LinkedHashSet<>(toolbox.registry().names());
        toolbox.refusedTools().forEach(refused -> {
            assertThat(refused.server()).isEqualTo("everything");
            assertThat(refused.reason()).contains("input schema", "/properties/");
            accounted.add(refused.tool());
        });

        assertThat(accounted).contains("echo", "get-sum", "get-tiny-image", "get-annotated-message", "get-env",
                "get-resource-links", "get-resource-reference", "get-structured-content", "gzip-file-as-resource",
                "toggle-simulated-logging", "toggle-subscriber-updates", "trigger-long-running-operation");
        assertThat(toolbox.registry().definitions()).allSatisfy(definition ->
                assertThat(definition.parameters().types()).containsExactly("object"));
    }

    @Test
    void annotationsBecomeSideEffectClasses() {
        ToolRegistry tools = toolbox.registry();
        assertThat(tools.lookup("echo").orElseThrow().safety()).isEqualTo(ToolSafety.READ_ONLY);
        assertThat(tools.lookup("gzip-file-as-resource").orElseThrow().safety())
                .as("not read-only, open world, idempotent").isEqualTo(ToolSafety.of(SideEffect.EXTERNAL, true));
        assertThat(tools.lookup("toggle-simulated-logging").orElseThrow().safety())
                .as("not read-only, closed world, not idempotent").isEqualTo(ToolSafety.of(SideEffect.WRITE, false));
    }

    @Test
    void textToolsAnswerWithTheirText() {
        assertThat(text("echo", Map.of("message", "hello MCP"))).isEqualTo("Echo: hello MCP");
        assertThat(text("get-sum", Map.of("a", 2, "b", 3.5))).contains("5.5");
        assertThat(text("get-env", Map.of())).contains("PAGANTIC_MCP_TEST", "passed through");
        assertThat(text("get-structured-content", Map.of("location", "Chicago"))).contains("temperature");
    }

    @Test
    void resourceLinksAreNamedWithTheirUris() {
        // its count parameter has minimum and maximum, which the 2020-12 reader enforces: no longer refused
        assertThat(text("get-resource-links", Map.of("count", 2))).contains("[resource link ").contains("://");
    }

    @Test
    void binaryContentIsDescribedNotInlined() {
        assertThat(text("get-tiny-image", Map.of())).contains("[image image/png, ").doesNotContain("iVBOR");
        assertThat(text("get-annotated-message", Map.of("messageType", "success", "includeImage", true)))
                .contains("[image image/png, ");
        assertThat(text("get-resource-reference", Map.of("resourceType", "Text", "resourceId", 2)))
                .contains("demo://resource/dynamic/text/2");
        assertThat(text("gzip-file-as-resource", Map.of("name", "hello.txt.gz",
                "data", "data:text/plain;base64,aGVsbG8gd29ybGQ=", "outputType", "resource")))
                .contains("[resource demo://resource/session/hello.txt.gz application/gzip, ");
    }

    @Test
    void aToolsErrorResultIsAnErrorResultTheModelSees() {
        ToolExecution refused = call(toolbox.registry(), "gzip-file-as-resource",
                Map.of("name", "x.gz", "data", "https://elsewhere.example/file.txt"));

        assertThat(refused.errorCode()).contains(ErrorCode.TOOL_EXECUTION_FAILED);
        assertThat(refused.result().isError()).isTrue();
        assertThat(refused.result().content()).startsWith("TOOL_EXECUTION_FAILED: MCP server 'everything'")
                .contains("gzip-file-as-resource", "reported an error", "not in the allowed domains");
        assertThat(refused.retryable()).as("the tool is idempotent").isTrue();
    }

    @Test
    void stateChangingToolsRun() {
        assertThat(text("toggle-simulated-logging", Map.of())).containsIgnoringCase("logging");
        assertThat(text("toggle-simulated-logging", Map.of())).containsIgnoringCase("logging");
        assertThat(text("toggle-subscriber-updates", Map.of())).containsIgnoringCase("update");
        assertThat(text("toggle-subscriber-updates", Map.of())).containsIgnoringCase("update");
    }

    @Test
    void aLongRunningToolFinishesWithinItsTimeoutAndIsCancelledPastIt() {
        assertThat(text("trigger-long-running-operation", Map.of("duration", 1, "steps", 2)))
                .containsIgnoringCase("completed");

        try (ToolExecutor impatient = ToolExecutor.builder().defaultTimeout(Duration.ofMillis(1500)).build()) {
            ToolExecution late = impatient.execute(toolbox.registry(), ToolCall.of("late",
                    "trigger-long-running-operation", Map.of("duration", 10, "steps", 5)));

            assertThat(late.errorCode()).contains(ErrorCode.TOOL_TIMEOUT);
            assertThat(impatient.abandonedCount()).as("the waiting thread returned").isZero();
        }
        assertThat(text("echo", Map.of("message", "after the timeout"))).isEqualTo("Echo: after the timeout");
    }

    @Test
    void aTaskToolAnswersOrFailsClearly() {
        ToolExecution research = call(toolbox.registry(), "simulate-research-query", Map.of("topic", "otters"));

        assertThat(research.result().content()).isNotBlank();
        if (!research.succeeded()) {
            assertThat(research.result().content()).startsWith(research.errorCode().orElseThrow().name() + ": ")
                    .contains("MCP server 'everything'");
        }
    }

    @Test
    void theWhitelistAndArgumentValidationStopACallBeforeItReachesTheServer() {
        ToolExecution hidden = call(toolbox.registry().allowOnly("echo"), "get-sum", Map.of("a", 1, "b", 2));
        assertThat(hidden.errorCode()).contains(ErrorCode.TOOL_NOT_FOUND);
        assertThat(hidden.result().content()).contains("not allowed for this request");

        ToolExecution invalid = call(toolbox.registry(), "get-sum", Map.of("a", "two", "b", 2));
        assertThat(invalid.errorCode()).contains(ErrorCode.TOOL_INVALID_ARGUMENTS);
        assertThat(invalid.result().content()).contains("/a");
    }

    @Test
    void theServerIsReachedOverStreamableHttpToo() throws Exception {
        int port;
        try (ServerSocket socket = new ServerSocket(0)) {
            port = socket.getLocalPort();
        }
        List<String> command = NodeServers.everything();
        ProcessBuilder builder = new ProcessBuilder(command.get(0), command.get(1), "streamableHttp");
        builder.environment().put("PORT", String.valueOf(port));
        Process http = builder.redirectErrorStream(true).start();
        try {
            BufferedReader out = new BufferedReader(new InputStreamReader(http.getInputStream(),
                    StandardCharsets.UTF_8));
            String line;
            while ((line = out.readLine()) != null && !line.contains("listening")) {
                // until the server says it listens
            }
            try (McpToolbox remote = McpToolbox.builder()
                    .server(McpServerConfig.http("remote", URI.create("http://127.0.0.1:" + port + "/mcp"))
                            .withToolPrefix("remote_"))
                    .skipRefusedTools(true).build()) {
                ToolExecution echo = executor.execute(remote.registry(), ToolCall.of("h1", "remote_echo",
                        Map.of("message", "over HTTP")));
                assertThat(echo.result().content()).isEqualTo("Echo: over HTTP");
            }
        } finally {
            http.destroy();
            http.waitFor(5, TimeUnit.SECONDS);
        }
    }
}
