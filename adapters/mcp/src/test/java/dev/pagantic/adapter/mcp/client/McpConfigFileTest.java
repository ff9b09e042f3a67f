package dev.pagantic.adapter.mcp.client;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.pagantic.core.ErrorCode;
import dev.pagantic.core.PaganticException;
import java.net.URI;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class McpConfigFileTest {

    private static List<McpServerConfig> parse(String json, Map<String, String> env) {
        return McpConfigFile.parse("mcp.json", json, env);
    }

    private static void refused(String json, String... fragments) {
        assertThatThrownBy(() -> parse(json, Map.of())).isInstanceOfSatisfying(PaganticException.class, e -> {
            assertThat(e.code()).isEqualTo(ErrorCode.CONFIG_INVALID);
            assertThat(e.getMessage()).contains("mcp.json").contains(fragments);
        });
    }

    @Test
    void theCommonShapeOfClaudeDesktopAndCursorIsReadAsItIs() {
        List<McpServerConfig> servers = parse("""
                {"mcpServers": {
                  "files": {"command": "npx", "args": ["-y", "@modelcontextprotocol/server-filesystem", "/srv"],
                            "env": {"LOG": "1"}, "autoApprove": ["read_file"]},
                  "search": {"type": "http", "url": "https://search.example/mcp",
                             "headers": {"Authorization": "Bearer t"}},
                  "plain": {"url": "http://127.0.0.1:3001/mcp"}
                }}""", Map.of());

        assertThat(servers).containsExactly(
                new McpServerConfig("files", "npx", List.of("-y", "@modelcontextprotocol/server-filesystem", "/srv"),
                        Map.of("LOG", "1"), Optional.empty(), Map.of(), "", true),
                new McpServerConfig("search", "", List.of(), Map.of(),
                        Optional.of(URI.create("https://search.example/mcp")), Map.of("Authorization", "Bearer t"),
                        "", true),
                McpServerConfig.http("plain", URI.create("http://127.0.0.1:3001/mcp")));
    }

    @Test
    void paganticsOwnKeysSetThePrefixAndTheTrustInAnnotationsAndDisabledEntriesAreLeftOut() {
        List<McpServerConfig> servers = parse("""
                {"mcpServers": {
                  "a": {"command": "a-server", "toolPrefix": "a_", "trustAnnotations": false},
                  "b": {"command": "b-server", "disabled": true}
                }}""", Map.of());

        assertThat(servers).singleElement().satisfies(server -> {
            assertThat(server.toolPrefix()).isEqualTo("a_");
            assertThat(server.trustAnnotations()).isFalse();
        });
    }

    @Test
    void variablesAreTakenFromTheEnvironmentWithDefaults() {
        List<McpServerConfig> servers = parse("""
                {"mcpServers": {"gh": {"command": "${BIN:-github-mcp}", "args": ["--org=${ORG}"],
                                       "env": {"GITHUB_TOKEN": "${TOKEN}"}}}}""",
                Map.of("ORG", "pagantic", "TOKEN", "s3cret"));

        assertThat(servers.get(0).commandLine()).containsExactly("github-mcp", "--org=pagantic");
        assertThat(servers.get(0).env()).containsEntry("GITHUB_TOKEN", "s3cret");
        assertThat(servers.get(0).toString()).as("secrets stay out of logs").doesNotContain("s3cret");
    }

    @Test
    void everyProblemNamesTheEntryAndTheField() {
        refused("not json", "not JSON");
        refused("{\"servers\": {}}", "\"mcpServers\" object");
        refused("{\"mcpServers\": {\"x\": {}}}", "/mcpServers/x", "needs a \"command\"");
        refused("{\"mcpServers\": {\"x\": {\"command\": 5}}}", "/mcpServers/x/command", "expected a string");
        refused("{\"mcpServers\": {\"x\": {\"command\": \"c\", \"args\": [1]}}}", "/mcpServers/x/args/0");
        refused("{\"mcpServers\": {\"x\": {\"command\": \"c\", \"env\": {\"A\": \"${UNSET}\"}}}}",
                "/mcpServers/x/env/A", "UNSET is not set");
        refused("{\"mcpServers\": {\"x\": {\"type\": \"sse\", \"url\": \"http://h/sse\"}}}", "legacy SSE");
        refused("{\"mcpServers\": {\"x\": {\"url\": \"ftp://h/mcp\"}}}", "/mcpServers/x", "http(s)");
        refused("{\"mcpServers\": {\"x\": {\"command\": \"c\", \"toolPrefix\": \"a b\"}}}", "tool prefix");
        refused("{\"mcpServers\": {\"x y\": {\"command\": \"c\"}}}", "server name");
    }

    @Test
    void aFileIsReadAndAMissingFileIsAClearError(@TempDir Path dir) throws Exception {
        Path file = Files.writeString(dir.resolve("mcp.json"), "{\"mcpServers\": {\"x\": {\"command\": \"c\"}}}");

        assertThat(McpConfigFile.read(file, Map.of())).extracting(McpServerConfig::name).containsExactly("x");
        assertThatThrownBy(() -> McpConfigFile.read(dir.resolve("missing.json")))
                .isInstanceOfSatisfying(PaganticException.class, e ->
                        assertThat(e.getMessage()).contains("missing.json", "no such file"));
    }
}
