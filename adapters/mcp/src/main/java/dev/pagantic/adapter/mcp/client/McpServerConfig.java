package dev.pagantic.adapter.mcp.client;

import dev.pagantic.core.ErrorCode;
import dev.pagantic.core.PaganticException;
import java.net.URI;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.regex.Pattern;

/**
 * How to reach one MCP server: a command that speaks MCP on its standard input and output (stdio), or the URL of a
 * streamable HTTP endpoint. One entry of an {@code mcpServers} file ({@link McpConfigFile}) is one of these.
 *
 * <pre>{@code
 * McpServerConfig files = McpServerConfig.stdio("files", "npx", "-y", "@modelcontextprotocol/server-filesystem", dir)
 *         .withToolPrefix("fs_");
 * McpServerConfig remote = McpServerConfig.http("search", URI.create("https://search.example/mcp"))
 *         .withHeaders(Map.of("Authorization", "Bearer " + token));
 * }</pre>
 *
 * @param name             the server's name, used in messages, logs and thread names
 * @param command          the program of a stdio server; empty for an HTTP server
 * @param args             the program's arguments
 * @param env              environment variables set for the program, on top of the JVM's own
 * @param url              the streamable HTTP endpoint of an HTTP server; empty for a stdio server
 * @param headers          HTTP headers sent with every request (authorization, for instance)
 * @param toolPrefix       prepended to every tool name of this server, to keep two servers' names apart; may be empty
 * @param trustAnnotations whether the server's tool annotations set the tools' side-effect classes; when false every
 *                         tool is {@link dev.pagantic.tool.ToolSafety#UNKNOWN} (never parallel, never retried)
 */
public record McpServerConfig(String name, String command, List<String> args, Map<String, String> env,
                              Optional<URI> url, Map<String, String> headers, String toolPrefix,
                              boolean trustAnnotations) {

    private static final Pattern NAME = Pattern.compile("[A-Za-z0-9_.-]{1,64}");
    private static final Pattern PREFIX = Pattern.compile("[A-Za-z0-9_-]{0,32}");

    public McpServerConfig {
        check(name != null && NAME.matcher(name).matches(),
                "an MCP server name is 1-64 letters, digits, '_', '-' or '.': " + name, name);
        Objects.requireNonNull(command, "command");
        args = List.copyOf(args);
        env = immutable(env);
        Objects.requireNonNull(url, "url");
        headers = immutable(headers);
        check(toolPrefix != null && PREFIX.matcher(toolPrefix).matches(),
                "a tool prefix is at most 32 letters, digits, '_' or '-': " + toolPrefix, name);
        check(command.isBlank() != url.isEmpty(), "MCP server '" + name + "' needs either a command (stdio) or a "
                + "url (streamable HTTP), not " + (command.isBlank() ? "neither" : "both"), name);
        check(url.isEmpty() || args.isEmpty() && env.isEmpty(),
                "MCP server '" + name + "' has a url: args and env belong to a command", name);
        check(url.isPresent() || headers.isEmpty(),
                "MCP server '" + name + "' has a command: headers belong to a url", name);
        url.ifPresent(uri -> check(("http".equals(uri.getScheme()) || "https".equals(uri.getScheme()))
                        && uri.getHost() != null,
                "MCP server '" + name + "' url must be an absolute http(s) URL: " + uri, name));
    }

    /** A stdio server: the program and its arguments. */
    public static McpServerConfig stdio(String name, String command, String... args) {
        return stdio(name, command, List.of(args));
    }

    /** A stdio server: the program and its arguments. */
    public static McpServerConfig stdio(String name, String command, List<String> args) {
        return new McpServerConfig(name, command, args, Map.of(), Optional.empty(), Map.of(), "", true);
    }

    /** A streamable HTTP server at the given endpoint. */
    public static McpServerConfig http(String name, URI url) {
        return new McpServerConfig(name, "", List.of(), Map.of(), Optional.of(url), Map.of(), "", true);
    }

    /** Whether the server is reached by running its command. */
    public boolean isStdio() {
        return url.isEmpty();
    }

    /** This configuration with environment variables for the server's program. */
    public McpServerConfig withEnv(Map<String, String> variables) {
        return new McpServerConfig(name, command, args, variables, url, headers, toolPrefix, trustAnnotations);
    }

    /** This configuration with HTTP headers sent with every request. */
    public McpServerConfig withHeaders(Map<String, String> values) {
        return new McpServerConfig(name, command, args, env, url, values, toolPrefix, trustAnnotations);
    }

    /** This configuration with a prefix for its tools' names. */
    public McpServerConfig withToolPrefix(String prefix) {
        return new McpServerConfig(name, command, args, env, url, headers, prefix, trustAnnotations);
    }

    /** This configuration with the server's annotations trusted or not; see {@link #trustAnnotations()}. */
    public McpServerConfig withTrustAnnotations(boolean trust) {
        return new McpServerConfig(name, command, args, env, url, headers, toolPrefix, trust);
    }

    /** The command line of a stdio server: the program, then its arguments. */
    public List<String> commandLine() {
        return url.isPresent() ? List.of() : concat(command, args);
    }

    @Override
    public String toString() { // headers and env may hold secrets: names only
        return "McpServerConfig[" + name + ", " + (isStdio() ? "stdio " + commandLine() : "http " + url.get())
                + (env.isEmpty() ? "" : ", env " + env.keySet()) + (headers.isEmpty() ? "" : ", headers "
                + headers.keySet()) + (toolPrefix.isEmpty() ? "" : ", prefix " + toolPrefix) + "]";
    }

    private static List<String> concat(String first, List<String> rest) {
        java.util.ArrayList<String> all = new java.util.ArrayList<>(rest.size() + 1);
        all.add(first);
        all.addAll(rest);
        return List.copyOf(all);
    }

    private static Map<String, String> immutable(Map<String, String> map) {
        Objects.requireNonNull(map, "map");
        map.forEach((key, value) -> {
            Objects.requireNonNull(key, "key");
            Objects.requireNonNull(value, "value of " + key);
        });
        return Collections.unmodifiableMap(new LinkedHashMap<>(map));
    }

    private static void check(boolean condition, String message, String server) {
        if (!condition) {
            throw PaganticException.builder(ErrorCode.CONFIG_INVALID, message).detail("mcp_server", server).build();
        }
    }
}
