package dev.pagantic.adapter.mcp.client;

import dev.pagantic.adapter.mcp.internal.McpAnnotations;
import dev.pagantic.adapter.mcp.internal.McpVersion;
import dev.pagantic.core.ErrorCode;
import dev.pagantic.core.PaganticException;
import dev.pagantic.core.Registration;
import dev.pagantic.core.Schema;
import dev.pagantic.core.ToolDefinition;
import dev.pagantic.tool.Tool;
import dev.pagantic.tool.ToolRegistry;
import dev.pagantic.tool.ToolSafety;
import io.modelcontextprotocol.spec.McpSchema;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Set;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.function.Consumer;
import java.util.regex.Pattern;
import java.util.stream.Collectors;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The tools of one or more MCP servers as a pagantic {@link ToolRegistry}: connect once, hand the registry to an
 * {@code Orchestrator} (or a {@code ToolExecutor}), close at shutdown. Every call then goes through the tool layer's
 * guarantees: the request's whitelist, argument validation against the tool's schema, the timeout, the events, and
 * the side-effect classes that keep non-idempotent tools out of parallel runs and retries.
 *
 * <pre>{@code
 * try (McpToolbox mcp = McpToolbox.builder().configFile(Path.of("mcp.json")).build()) {
 *     Orchestrator orchestrator = Orchestrator.builder().engine(engine).tools(mcp.registry()).build();
 *     ...
 * }
 * }</pre>
 *
 * <h2>What a tool becomes</h2>
 * Its name (with the server's {@linkplain McpServerConfig#toolPrefix() prefix}), its description, its input schema
 * read by {@link Schema#fromJsonSchema} and its annotations mapped to a {@link ToolSafety}
 * ({@link McpAnnotations#safetyOf}). A tool whose schema pagantic's schema model refuses, or whose name is not a valid
 * tool name, is never silently dropped: {@link Builder#build()} fails with {@code CONFIG_INVALID} naming every such
 * server and tool, unless {@link Builder#skipRefusedTools(boolean)} asked to leave them out, in which case they are
 * listed by {@link #refusedTools()} and logged.
 *
 * <h2>Failures</h2>
 * A tool's {@code isError} result becomes an error result the model sees ({@code TOOL_EXECUTION_FAILED} and the
 * tool's text). A server that dies during a call fails that call ({@code TOOL_EXECUTION_FAILED}) at once; one that
 * hangs is abandoned at the tool's timeout ({@code TOOL_TIMEOUT}) and replaced when it does not answer a ping either;
 * one that cannot be reached is {@code TOOL_UNAVAILABLE}. The next call reconnects (a stdio server is started again).
 * Lines on a server's stdout that are not JSON-RPC are skipped and logged.
 *
 * <h2>Changing tool lists</h2>
 * A server's {@code notifications/tools/list_changed} refreshes the registry: {@link #registry()} returns the new one
 * and {@link #onChange} listeners receive it. The tools of a registry obtained earlier stay usable: a changed tool's
 * definition is updated in place, a removed tool reports itself unavailable (so the model no longer sees it); a new
 * tool appears in the new registry only.
 *
 * <p>Thread-safe. Closing stops every server process the toolbox started.
 */
public final class McpToolbox implements AutoCloseable {

    private static final Logger LOG = LoggerFactory.getLogger(McpToolbox.class);
    private static final Pattern TOOL_NAME = Pattern.compile("[A-Za-z0-9_-]{1,64}");

    /** The default of {@link Builder#connectTimeout(Duration)}. */
    public static final Duration DEFAULT_CONNECT_TIMEOUT = Duration.ofSeconds(30);

    private final List<McpConnection> connections;
    private final boolean skipRefused;
    private final Object lock = new Object();
    private final Map<String, McpTool> tools = new LinkedHashMap<>(); // by exposed name; guarded by lock
    private final List<Consumer<ToolRegistry>> listeners = new CopyOnWriteArrayList<>();
    private volatile ToolRegistry registry = ToolRegistry.empty();
    private volatile List<RefusedTool> refused = List.of();
    private volatile boolean ready;

    /**
     * A tool that pagantic could not take over, and why.
     *
     * @param server the MCP server's name
     * @param tool   the tool's name on that server
     * @param reason what was refused (the schema keyword and its JSON pointer, an invalid name, a name clash)
     */
    public record RefusedTool(String server, String tool, String reason) {
        @Override
        public String toString() {
            return "tool '" + tool + "' of MCP server '" + server + "': " + reason;
        }
    }

    private McpToolbox(Builder builder) {
        this.skipRefused = builder.skipRefused;
        List<McpConnection> built = new ArrayList<>();
        for (McpServerConfig server : builder.servers) {
            built.add(new McpConnection(server, builder.connectTimeout, McpVersion.get(), this::toolsChanged));
        }
        this.connections = List.copyOf(built);
    }

    /** Starts building a toolbox. */
    public static Builder builder() {
        return new Builder();
    }

    /** The tools of every server, as listed now; the registry is immutable, a refresh makes a new one. */
    public ToolRegistry registry() {
        return registry;
    }

    /** The tools left out because pagantic refused them (only with {@link Builder#skipRefusedTools(boolean)}). */
    public List<RefusedTool> refusedTools() {
        return refused;
    }

    /** The names of the servers, in configuration order. */
    public List<String> servers() {
        return connections.stream().map(McpConnection::name).collect(Collectors.toUnmodifiableList());
    }

    /**
     * Calls the listener with the new registry whenever a server's tool list changes. It runs on the MCP client's
     * thread: keep it quick. Close the registration to stop.
     */
    public Registration onChange(Consumer<ToolRegistry> listener) {
        Objects.requireNonNull(listener, "listener");
        listeners.add(listener);
        return () -> listeners.remove(listener);
    }

    /** Disconnects from every server and stops the processes of stdio servers. Closing twice is harmless. */
    @Override
    public void close() {
        for (McpConnection connection : connections) {
            try {
                connection.close();
            } catch (RuntimeException failed) {
                LOG.warn("closing MCP server '{}' failed", connection.name(), failed);
            }
        }
    }

    @Override
    public String toString() {
        return "McpToolbox" + servers() + registry.names();
    }

    // ------------------------------------------------------------------------------------------------------ refresh

    private void connectAll() {
        try {
            connections.forEach(McpConnection::connect);
            ready = true;
            List<RefusedTool> refusals = rebuild();
            if (!refusals.isEmpty() && !skipRefused) {
                throw PaganticException.builder(ErrorCode.CONFIG_INVALID, "pagantic refuses " + refusals.size()
                                + " MCP tool(s) (skipRefusedTools leaves them out instead): " + refusals.stream()
                                .map(RefusedTool::toString).collect(Collectors.joining("; ")))
                        .detail("refused", refusals.stream().map(RefusedTool::toString).toList()).build();
            }
        } catch (RuntimeException failed) {
            close();
            throw failed;
        }
    }

    /** A server's list changed (or it reconnected): rebuild the registry and tell the listeners. */
    private void toolsChanged(McpConnection changed) {
        if (!ready) {
            return; // the first registry is built once every server is connected
        }
        LOG.info("MCP server '{}' changed its tools; refreshing the registry", changed.name());
        rebuild();
        ToolRegistry current = registry;
        for (Consumer<ToolRegistry> listener : listeners) {
            try {
                listener.accept(current);
            } catch (RuntimeException failed) {
                LOG.warn("an MCP tool list listener failed", failed);
            }
        }
    }

    /** Converts every server's current listing into tools, updating the existing ones; returns the refusals. */
    private List<RefusedTool> rebuild() {
        synchronized (lock) {
            List<RefusedTool> refusals = new ArrayList<>();
            Set<McpTool> offered = new HashSet<>();
            List<Tool> ordered = new ArrayList<>();
            for (McpConnection connection : connections) {
                for (McpSchema.Tool listed : connection.tools()) {
                    String exposed = connection.config().toolPrefix() + listed.name();
                    try {
                        McpTool tool = adopt(connection, listed, exposed);
                        offered.add(tool);
                        ordered.add(tool);
                    } catch (PaganticException refusedTool) {
                        refusals.add(new RefusedTool(connection.name(), listed.name(), refusedTool.description()));
                    }
                }
            }
            tools.values().stream().filter(tool -> !offered.contains(tool))
                    .forEach(tool -> tool.withdrawn("MCP server '" + tool.connection().name()
                            + "' no longer offers tool '" + tool.remoteName() + "'"));
            refusals.forEach(refusal -> LOG.warn("refused {}", refusal));
            registry = ToolRegistry.builder().addAll(ordered).build();
            refused = List.copyOf(refusals);
            return refusals;
        }
    }

    /** The tool for a listing entry: the existing instance updated, or a new one. */
    private McpTool adopt(McpConnection connection, McpSchema.Tool listed, String exposed) {
        if (!TOOL_NAME.matcher(exposed).matches()) {
            throw refusal("its name '" + exposed + "' is not a valid tool name (1-64 letters, digits, '_' or '-')");
        }
        McpTool existing = tools.get(exposed);
        if (existing != null && existing.connection() != connection) {
            throw refusal("the name '" + exposed + "' is taken by MCP server '" + existing.connection().name()
                    + "'; give one of the servers a toolPrefix");
        }
        Schema parameters;
        try {
            parameters = Schema.fromJsonSchema(listed.inputSchema() == null ? Map.of("type", "object")
                    : listed.inputSchema());
        } catch (PaganticException unsupported) {
            throw refusal("its input schema is refused: " + unsupported.description());
        }
        String description = listed.description() != null ? listed.description()
                : listed.title() != null ? listed.title() : "";
        ToolDefinition definition;
        try {
            definition = ToolDefinition.of(exposed, description, parameters);
        } catch (PaganticException invalid) {
            throw refusal(invalid.description());
        }
        ToolSafety safety = connection.config().trustAnnotations() ? McpAnnotations.safetyOf(listed.annotations())
                : ToolSafety.UNKNOWN;
        if (existing != null) {
            existing.offered(definition, safety);
            return existing;
        }
        McpTool created = new McpTool(connection, listed.name(), definition, safety);
        tools.put(exposed, created);
        return created;
    }

    private static PaganticException refusal(String reason) {
        return PaganticException.of(ErrorCode.CONFIG_INVALID, reason);
    }

    // ------------------------------------------------------------------------------------------------------ builder

    /** Builds a {@link McpToolbox}; {@link #build()} connects to every server. */
    public static final class Builder {
        private final List<McpServerConfig> servers = new ArrayList<>();
        private Duration connectTimeout = DEFAULT_CONNECT_TIMEOUT;
        private boolean skipRefused;

        private Builder() {
        }

        /** Adds a server. */
        public Builder server(McpServerConfig server) {
            servers.add(Objects.requireNonNull(server, "server"));
            return this;
        }

        /** Adds servers, in order. */
        public Builder servers(List<McpServerConfig> more) {
            more.forEach(this::server);
            return this;
        }

        /** Adds the servers of an {@code mcpServers} file; see {@link McpConfigFile}. */
        public Builder configFile(Path file) {
            return servers(McpConfigFile.read(file));
        }

        /**
         * How long a server gets to start, initialize and list its tools, at build and at every reconnect; 30 s by
         * default (an {@code npx} launcher may first have to install its package).
         */
        public Builder connectTimeout(Duration timeout) {
            this.connectTimeout = timeout;
            return this;
        }

        /**
         * Whether tools that pagantic refuses (a schema its schema model cannot carry, an invalid name) are left out
         * and reported by {@link McpToolbox#refusedTools()} rather than failing {@link #build()}; false by default.
         */
        public Builder skipRefusedTools(boolean skip) {
            this.skipRefused = skip;
            return this;
        }

        /**
         * Connects to every server and lists its tools.
         *
         * @throws PaganticException {@code CONFIG_INVALID} for bad settings, two servers of one name, or refused
         *                           tools; {@code TOOL_UNAVAILABLE} when a server cannot be started or reached (the
         *                           servers already connected are closed again)
         */
        public McpToolbox build() {
            if (connectTimeout == null || connectTimeout.isNegative() || connectTimeout.isZero()) {
                throw PaganticException.of(ErrorCode.CONFIG_INVALID, "connectTimeout must be positive: "
                        + connectTimeout);
            }
            Set<String> names = new HashSet<>();
            for (McpServerConfig server : servers) {
                if (!names.add(server.name())) {
                    throw PaganticException.builder(ErrorCode.CONFIG_INVALID, "two MCP servers are named '"
                            + server.name() + "'").detail("mcp_server", server.name()).build();
                }
            }
            McpToolbox toolbox = new McpToolbox(this);
            toolbox.connectAll();
            return toolbox;
        }
    }
}
