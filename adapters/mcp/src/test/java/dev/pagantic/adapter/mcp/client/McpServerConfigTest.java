package dev.pagantic.adapter.mcp.client;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.pagantic.core.ErrorCode;
import dev.pagantic.core.PaganticException;
import java.net.URI;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.junit.jupiter.api.Test;

class McpServerConfigTest {

    private static void invalid(Runnable build, String fragment) {
        assertThatThrownBy(build::run).isInstanceOfSatisfying(PaganticException.class, e -> {
            assertThat(e.code()).isEqualTo(ErrorCode.CONFIG_INVALID);
            assertThat(e.getMessage()).contains(fragment);
        });
    }

    @Test
    void aStdioServerIsACommandLineAndAnHttpServerAUrl() {
        McpServerConfig stdio = McpServerConfig.stdio("files", "npx", "-y", "server").withEnv(Map.of("A", "1"));
        McpServerConfig http = McpServerConfig.http("remote", URI.create("https://x.example/mcp"))
                .withHeaders(Map.of("Authorization", "Bearer secret")).withToolPrefix("r_");

        assertThat(stdio.isStdio()).isTrue();
        assertThat(stdio.commandLine()).containsExactly("npx", "-y", "server");
        assertThat(http.isStdio()).isFalse();
        assertThat(http.commandLine()).isEmpty();
        assertThat(http.toString()).contains("Authorization").doesNotContain("secret");
    }

    @Test
    void contradictionsAreRefusedAtConstruction() {
        invalid(() -> new McpServerConfig("x", "", List.of(), Map.of(), Optional.empty(), Map.of(), "", true),
                "needs either a command");
        invalid(() -> new McpServerConfig("x", "c", List.of(), Map.of(), Optional.of(URI.create("http://h/mcp")),
                Map.of(), "", true), "not both");
        invalid(() -> McpServerConfig.stdio("x", "c").withHeaders(Map.of("A", "b")), "headers belong to a url");
        invalid(() -> McpServerConfig.http("x", URI.create("/relative")), "absolute http(s) URL");
        invalid(() -> McpServerConfig.stdio("", "c"), "server name");
        invalid(() -> McpServerConfig.stdio("x", "c").withToolPrefix("no spaces"), "tool prefix");
    }
}
