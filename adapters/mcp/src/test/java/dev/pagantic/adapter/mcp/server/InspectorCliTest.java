package dev.pagantic.adapter.mcp.server;

import static org.assertj.core.api.Assertions.assertThat;

import dev.pagantic.adapter.mcp.NodeServers;
import dev.pagantic.adapter.mcp.Processes;
import dev.pagantic.adapter.mcp.internal.McpJson;
import dev.pagantic.orchestrate.facade.Orchestrator;
import dev.pagantic.testkit.ScriptedEngine;
import java.io.File;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * pagantic's MCP server checked by the official MCP Inspector's command line ({@code @modelcontextprotocol/inspector
 * --cli}, installed by the build): tools/list, and tools/call of a guarded tool and of {@code pagantic_request},
 * over streamable HTTP and over stdio.
 */
@Timeout(240)
class InspectorCliTest {

    private static PaganticMcpServer server;
    private static Orchestrator orchestrator;

    @BeforeAll
    static void start() {
        orchestrator = Orchestrator.builder().engine(ScriptedEngine.builder().reply("Hello from pagantic.").build())
                .build();
        server = PaganticMcpServer.builder().tools(ServedTools.registry()).orchestrator(orchestrator)
                .http("127.0.0.1", 0).build().start();
    }

    @AfterAll
    static void stop() {
        server.close();
        orchestrator.close();
    }

    private static Processes.Run inspector(List<String> target, String... args) throws Exception {
        List<String> command = new ArrayList<>(NodeServers.program("@modelcontextprotocol/inspector",
                "clients/launcher/build/index.js"));
        command.add("--cli");
        command.addAll(target);
        command.addAll(List.of(args));
        return Processes.run(command, NodeServers.NODE_DIR, 120);
    }

    private static Processes.Run overHttp(String... args) throws Exception {
        return inspector(List.of(server.endpoint().toString(), "--transport", "http"), args);
    }

    @SuppressWarnings("unchecked")
    private static Map<String, Object> json(Processes.Run run) {
        return McpJson.readObject(run.stdout());
    }

    private static String text(Processes.Run run) {
        @SuppressWarnings("unchecked")
        List<Map<String, Object>> content = (List<Map<String, Object>>) json(run).get("content");
        return (String) content.get(0).get("text");
    }

    @Test
    void toolsListShowsTheRegistryWithSchemasAndAnnotationsAndPassesTheStrictPortabilityCheck() throws Exception {
        Processes.Run list = overHttp("--method", "tools/list", "--strict");

        assertThat(list.exitCode()).as(list.toString()).isZero();
        @SuppressWarnings("unchecked")
        List<Map<String, Object>> tools = (List<Map<String, Object>>) json(list).get("tools");
        assertThat(tools).extracting(tool -> tool.get("name"))
                .containsExactly("add", "append_note", "slow", "pagantic_request");
        assertThat(tools.get(0)).extracting("annotations").asInstanceOf(
                org.assertj.core.api.InstanceOfAssertFactories.MAP).containsEntry("readOnlyHint", true);
        assertThat(tools.get(0)).extracting("inputSchema").asInstanceOf(
                org.assertj.core.api.InstanceOfAssertFactories.MAP).containsEntry("required", List.of("a", "b"));
    }

    @Test
    void aGuardedToolAnswersAndItsGuardsAnswerWithTheirCodes() throws Exception {
        Processes.Run sum = overHttp("--method", "tools/call", "--tool-name", "add", "--tool-arg", "a=2", "b=3");
        assertThat(sum.exitCode()).as(sum.toString()).isZero();
        assertThat(text(sum)).isEqualTo("5");

        Processes.Run missing = overHttp("--method", "tools/call", "--tool-name", "add", "--tool-arg", "a=2");
        assertThat(json(missing)).containsEntry("isError", true);
        assertThat(text(missing)).startsWith("TOOL_INVALID_ARGUMENTS:").contains("'b'");

        Processes.Run slow = overHttp("--method", "tools/call", "--tool-name", "slow");
        assertThat(json(slow)).containsEntry("isError", true);
        assertThat(text(slow)).startsWith("TOOL_TIMEOUT:");
    }

    @Test
    void paganticRequestRunsASystemRequestThroughTheOrchestrator() throws Exception {
        Processes.Run request = overHttp("--method", "tools/call", "--tool-name", "pagantic_request",
                "--tool-arg", "messages=[{\"role\":\"user\",\"content\":\"Say hello\"}]");

        assertThat(request.exitCode()).as(request.toString()).isZero();
        Map<String, Object> response = McpJson.readObject(text(request));
        assertThat(response).containsEntry("content", "Hello from pagantic.").containsEntry("finish_reason", "stop");
    }

    @Test
    void theServerProgramServesOverStdio() throws Exception {
        String java = System.getProperty("java.home") + File.separator + "bin" + File.separator + "java";
        List<String> program = List.of(java, "-cp", System.getProperty("java.class.path"),
                McpServerMain.class.getName(), "--scripted", "Hello over stdio.");

        Processes.Run list = inspector(program, "--method", "tools/list");
        assertThat(list.exitCode()).as(list.toString()).isZero();
        assertThat(list.stdout()).contains("\"pagantic_request\"");

        Processes.Run request = inspector(program, "--method", "tools/call", "--tool-name", "pagantic_request",
                "--tool-arg", "messages=[{\"role\":\"user\",\"content\":\"Hi\"}]");
        assertThat(request.exitCode()).as(request.toString()).isZero();
        assertThat(McpJson.readObject(text(request))).containsEntry("content", "Hello over stdio.");
    }
}
