package dev.pagantic.adapter.mcp.server;

import static org.assertj.core.api.Assertions.assertThat;

import dev.pagantic.adapter.mcp.NodeServers;
import dev.pagantic.adapter.mcp.Processes;
import dev.pagantic.core.Schema;
import dev.pagantic.core.ToolDefinition;
import dev.pagantic.orchestrate.facade.Orchestrator;
import dev.pagantic.testkit.ScriptedEngine;
import dev.pagantic.tool.Tool;
import dev.pagantic.tool.ToolRegistry;
import dev.pagantic.tool.ToolSafety;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

class InspectorCliTest {

    static PaganticMcpServer server;
    static Orchestrator orchestrator;

    @BeforeAll
    static void start() {
        Tool add = Tool.builder(ToolDefinition.of("add", "Adds two integers", Schema.object()
                        .required("a", Schema.integer()).required("b", Schema.integer()).build()))
                .safety(ToolSafety.PURE)
                .handler((ctx, args) -> String.valueOf(((Number) args.get("a")).longValue()
                        + ((Number) args.get("b")).longValue()))
                .build();
        orchestrator = Orchestrator.builder().engine(ScriptedEngine.builder().reply("Hello from pagantic.").build())
                .build();
        server = PaganticMcpServer.builder().tools(ToolRegistry.of(add)).orchestrator(orchestrator)
                .http("127.0.0.1", 0).build().start();
    }

    @AfterAll
    static void stop() {
        server.close();
        orchestrator.close();
    }

    static Processes.Run inspector(String... args) throws Exception {
        List<String> command = new ArrayList<>(NodeServers.program("@modelcontextprotocol/inspector",
                "clients/launcher/build/index.js"));
        command.add("--cli");
        command.add(server.endpoint().toString());
        command.addAll(List.of("--transport", "http"));
        command.addAll(List.of(args));
        return Processes.run(command, NodeServers.NODE_DIR, 60);
    }

    @Test
    void smoke() throws Exception {
        Processes.Run list = inspector("--method", "tools/list");
        System.err.println(list);
        Processes.Run call = inspector("--method", "tools/call", "--tool-name", "add", "--tool-arg", "a=2", "b=3");
        System.err.println(call);
        Processes.Run bad = inspector("--method", "tools/call", "--tool-name", "add", "--tool-arg", "a=two", "b=3");
        System.err.println(bad);
        assertThat(list.exitCode()).isZero();
    }
}
