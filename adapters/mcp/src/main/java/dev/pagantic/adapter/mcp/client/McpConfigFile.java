package dev.pagantic.adapter.mcp.client;

import dev.pagantic.adapter.mcp.internal.McpJson;
import dev.pagantic.core.ErrorCode;
import dev.pagantic.core.PaganticException;
import java.io.IOException;
import java.net.URI;
import java.net.URISyntaxException;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import tools.jackson.core.JacksonException;
import tools.jackson.databind.JsonNode;

/**
 * Reads the {@code mcpServers} configuration file that MCP hosts share (Claude Desktop, Claude Code, Cursor and
 * others), so that a user's existing file works as it is:
 *
 * <pre>{@code
 * {
 *   "mcpServers": {
 *     "files":  {"command": "npx", "args": ["-y", "@modelcontextprotocol/server-filesystem", "/srv/docs"]},
 *     "github": {"command": "github-mcp", "env": {"GITHUB_TOKEN": "${GITHUB_TOKEN}"}},
 *     "search": {"type": "http", "url": "https://search.example/mcp",
 *                "headers": {"Authorization": "Bearer ${SEARCH_TOKEN}"}}
 *   }
 * }
 * }</pre>
 *
 * An entry has {@code command} (with {@code args} and {@code env}) for a stdio server, or {@code url} (with
 * {@code headers}) for a streamable HTTP server; {@code type} ({@code stdio}, {@code http} or
 * {@code streamable-http}) may say which. {@code "disabled": true} leaves an entry out. pagantic also reads
 * {@code toolPrefix} and {@code trustAnnotations} ({@link McpServerConfig}); keys it does not know belong to other
 * hosts and are ignored. {@code ${NAME}} and {@code ${NAME:-default}} in any string are replaced from the
 * environment, so that secrets stay out of the file; a variable that is not set and has no default is an error.
 *
 * <p>Every problem is a {@code CONFIG_INVALID} naming the file, the entry and the field.
 */
public final class McpConfigFile {

    private static final Pattern VARIABLE = Pattern.compile("\\$\\{([A-Za-z_][A-Za-z0-9_]*)(?::-([^}]*))?}");
    private static final Set<String> HTTP_TYPES = Set.of("http", "streamable-http", "streamableHttp");

    private McpConfigFile() {
    }

    /** The servers of a file, with {@code ${NAME}} taken from the process environment. */
    public static List<McpServerConfig> read(Path file) {
        return read(file, System.getenv());
    }

    /** The servers of a file, with {@code ${NAME}} taken from the given environment. */
    public static List<McpServerConfig> read(Path file, Map<String, String> environment) {
        Objects.requireNonNull(file, "file");
        String text;
        try {
            text = Files.readString(file);
        } catch (NoSuchFileException missing) {
            throw invalid(file.toString(), "", "no such file");
        } catch (IOException | RuntimeException unreadable) {
            throw invalid(file.toString(), "", "cannot be read: " + unreadable.getMessage());
        }
        return parse(file.toString(), text, environment);
    }

    /**
     * The servers of a configuration's text.
     *
     * @param source      what to call the text in messages (a file name)
     * @param json        the configuration
     * @param environment where {@code ${NAME}} is looked up
     */
    public static List<McpServerConfig> parse(String source, String json, Map<String, String> environment) {
        Objects.requireNonNull(json, "json");
        Objects.requireNonNull(environment, "environment");
        JsonNode root;
        try {
            root = McpJson.JSON.readTree(json);
        } catch (JacksonException notJson) {
            throw invalid(source, "", "not JSON: " + notJson.getOriginalMessage());
        }
        if (root == null || !root.isObject() || !root.path("mcpServers").isObject()) {
            throw invalid(source, "", "expected a JSON object with an \"mcpServers\" object");
        }
        List<McpServerConfig> servers = new ArrayList<>();
        for (Map.Entry<String, JsonNode> entry : root.get("mcpServers").properties()) {
            Entry reader = new Entry(source, entry.getKey(), entry.getValue(), environment);
            reader.read().ifPresent(servers::add);
        }
        return List.copyOf(servers);
    }

    /** One entry of {@code mcpServers}. */
    private static final class Entry {
        private final String source;
        private final String name;
        private final JsonNode node;
        private final Map<String, String> environment;

        Entry(String source, String name, JsonNode node, Map<String, String> environment) {
            this.source = source;
            this.name = name;
            this.node = node;
            this.environment = environment;
        }

        Optional<McpServerConfig> read() {
            if (!node.isObject()) {
                throw fail("", "an entry is a JSON object");
            }
            if (node.path("disabled").asBoolean(false)) {
                return Optional.empty();
            }
            String type = text("type").orElse("");
            Optional<String> command = text("command");
            Optional<String> url = text("url");
            if ("sse".equals(type)) {
                throw fail("/type", "the legacy SSE transport is not supported; use the server's streamable HTTP "
                        + "endpoint (type \"http\")");
            }
            if (!type.isEmpty() && !"stdio".equals(type) && !HTTP_TYPES.contains(type)) {
                throw fail("/type", "unknown type '" + type + "' (stdio, http or streamable-http)");
            }
            McpServerConfig config;
            try {
                if (url.isPresent() && !"stdio".equals(type)) {
                    config = McpServerConfig.http(name, uri(url.get())).withHeaders(strings("headers"));
                } else if (command.isPresent() && !HTTP_TYPES.contains(type)) {
                    config = McpServerConfig.stdio(name, command.get(), list("args")).withEnv(strings("env"));
                } else {
                    throw fail("", "an entry needs a \"command\" (stdio) or a \"url\" (streamable HTTP)"
                            + (type.isEmpty() ? "" : " that matches its type '" + type + "'"));
                }
                config = config.withToolPrefix(text("toolPrefix").orElse(""));
                JsonNode trust = node.path("trustAnnotations");
                if (!trust.isMissingNode()) {
                    if (!trust.isBoolean()) {
                        throw fail("/trustAnnotations", "expected true or false");
                    }
                    config = config.withTrustAnnotations(trust.booleanValue());
                }
            } catch (PaganticException refused) {
                if (refused.details().containsKey("file")) {
                    throw refused;
                }
                throw fail("", refused.description());
            }
            return Optional.of(config);
        }

        private Optional<String> text(String field) {
            JsonNode value = node.path(field);
            if (value.isMissingNode() || value.isNull()) {
                return Optional.empty();
            }
            if (!value.isString()) {
                throw fail("/" + field, "expected a string");
            }
            return Optional.of(expand(value.stringValue(), "/" + field));
        }

        private List<String> list(String field) {
            JsonNode value = node.path(field);
            if (value.isMissingNode() || value.isNull()) {
                return List.of();
            }
            if (!value.isArray()) {
                throw fail("/" + field, "expected an array of strings");
            }
            List<String> items = new ArrayList<>();
            for (int i = 0; i < value.size(); i++) {
                JsonNode item = value.get(i);
                if (!item.isString()) {
                    throw fail("/" + field + "/" + i, "expected a string");
                }
                items.add(expand(item.stringValue(), "/" + field + "/" + i));
            }
            return items;
        }

        private Map<String, String> strings(String field) {
            JsonNode value = node.path(field);
            if (value.isMissingNode() || value.isNull()) {
                return Map.of();
            }
            if (!value.isObject()) {
                throw fail("/" + field, "expected an object of strings");
            }
            Map<String, String> map = new LinkedHashMap<>();
            for (Map.Entry<String, JsonNode> property : value.properties()) {
                String pointer = "/" + field + "/" + property.getKey();
                if (!property.getValue().isString()) {
                    throw fail(pointer, "expected a string");
                }
                map.put(property.getKey(), expand(property.getValue().stringValue(), pointer));
            }
            return map;
        }

        private URI uri(String text) {
            try {
                return new URI(text);
            } catch (URISyntaxException bad) {
                throw fail("/url", "not a URL: " + bad.getMessage());
            }
        }

        /** Replaces {@code ${NAME}} and {@code ${NAME:-default}} from the environment. */
        private String expand(String value, String pointer) {
            Matcher matcher = VARIABLE.matcher(value);
            StringBuilder expanded = new StringBuilder();
            while (matcher.find()) {
                String variable = environment.get(matcher.group(1));
                if (variable == null || variable.isEmpty() && matcher.group(2) != null) {
                    variable = matcher.group(2);
                }
                if (variable == null) {
                    throw fail(pointer, "environment variable " + matcher.group(1) + " is not set");
                }
                matcher.appendReplacement(expanded, Matcher.quoteReplacement(variable));
            }
            matcher.appendTail(expanded);
            return expanded.toString();
        }

        private PaganticException fail(String pointer, String why) {
            return invalid(source, "/mcpServers/" + name + pointer, why);
        }
    }

    private static PaganticException invalid(String source, String pointer, String why) {
        return PaganticException.builder(ErrorCode.CONFIG_INVALID, "MCP configuration " + source
                        + (pointer.isEmpty() ? "" : " at " + pointer) + ": " + why)
                .detail("file", source).detail("pointer", pointer).build();
    }
}
