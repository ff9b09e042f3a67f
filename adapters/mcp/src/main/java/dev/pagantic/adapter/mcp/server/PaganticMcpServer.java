package dev.pagantic.adapter.mcp.server;

import dev.pagantic.adapter.mcp.internal.McpAnnotations;
import dev.pagantic.adapter.mcp.internal.McpJson;
import dev.pagantic.adapter.mcp.internal.McpVersion;
import dev.pagantic.core.CallContext;
import dev.pagantic.core.ErrorCode;
import dev.pagantic.core.PaganticException;
import dev.pagantic.core.ToolCall;
import dev.pagantic.orchestrate.facade.Orchestrator;
import dev.pagantic.tool.Tool;
import dev.pagantic.tool.ToolExecution;
import dev.pagantic.tool.ToolExecutor;
import dev.pagantic.tool.ToolRegistry;
import io.modelcontextprotocol.server.McpServer;
import io.modelcontextprotocol.server.McpServerFeatures.SyncToolSpecification;
import io.modelcontextprotocol.server.McpSyncServer;
import io.modelcontextprotocol.server.transport.HttpServletStreamableServerTransportProvider;
import io.modelcontextprotocol.server.transport.StdioServerTransportProvider;
import io.modelcontextprotocol.spec.McpSchema;
import io.modelcontextprotocol.spec.McpSchema.CallToolRequest;
import io.modelcontextprotocol.spec.McpSchema.CallToolResult;
import java.io.FilterInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.URI;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.UUID;
import java.util.concurrent.CountDownLatch;
import org.eclipse.jetty.ee10.servlet.ServletContextHandler;
import org.eclipse.jetty.ee10.servlet.ServletHolder;
import org.eclipse.jetty.server.Server;
import org.eclipse.jetty.server.ServerConnector;
import org.eclipse.jetty.util.thread.QueuedThreadPool;
import org.jspecify.annotations.Nullable;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * pagantic as an MCP server: the tools of a {@link ToolRegistry}, and with an {@link Orchestrator} the
 * {@code pagantic_request} tool that runs a {@code SystemRequest}, served over stdio or streamable HTTP.
 *
 * <pre>{@code
 * try (PaganticMcpServer server = PaganticMcpServer.builder()
 *         .tools(registry).orchestrator(orchestrator)
 *         .http("127.0.0.1", 8931)
 *         .build().start()) {
 *     System.out.println("MCP endpoint: " + server.endpoint());
 *     server.awaitClose();
 * }
 * }</pre>
 *
 * Every call goes through a {@link ToolExecutor}: the registry's whitelist (pass a view of it to expose fewer
 * tools), argument validation against the tool's schema, its timeout and its events. A failed call is an MCP tool
 * result with {@code isError} and the code in its text ({@code "TOOL_TIMEOUT: ..."}), never a protocol error, so that
 * the host's model sees it. Tool annotations are derived from each tool's {@link dev.pagantic.tool.ToolSafety}
 * ({@link McpAnnotations#annotationsOf}).
 *
 * <p>Over stdio the server reads standard input until it ends, and writes nothing but MCP messages on standard
 * output (logging goes to SLF4J). Over HTTP the endpoint is {@code /mcp}; it binds to the loopback address unless
 * told otherwise, and has no authentication of its own: put it behind one before exposing it.
 */
public final class PaganticMcpServer implements AutoCloseable {

    private static final Logger LOG = LoggerFactory.getLogger(PaganticMcpServer.class);

    /** The path of the streamable HTTP endpoint. */
    public static final String ENDPOINT_PATH = "/mcp";
    /** The default of {@link Builder#requestTimeout(Duration)}. */
    public static final Duration DEFAULT_REQUEST_TIMEOUT = Duration.ofMinutes(10);

    private final @Nullable Tool requestTool; // null without an orchestrator
    private final ToolExecutor executor;
    private final boolean ownsExecutor;
    private final String name;
    private final Transport transport;
    private final CountDownLatch closed = new CountDownLatch(1);
    private final Map<String, McpSchema.Tool> published = new LinkedHashMap<>(); // guarded by this
    private volatile ToolRegistry tools;
    private @Nullable McpSyncServer server;
    private @Nullable Server jetty;
    private @Nullable URI endpoint;

    private sealed interface Transport permits Stdio, Http {
    }

    private record Stdio(InputStream in, OutputStream out) implements Transport {
    }

    private record Http(String host, int port) implements Transport {
    }

    private PaganticMcpServer(Builder builder, @Nullable Tool requestTool) {
        this.requestTool = requestTool;
        this.tools = served(builder.tools);
        this.ownsExecutor = builder.executor == null;
        this.executor = ownsExecutor ? ToolExecutor.builder().threadNamePrefix("pagantic-mcp-tool").build()
                : builder.executor;
        this.name = builder.name;
        this.transport = builder.transport;
    }

    /** Starts building a server. */
    public static Builder builder() {
        return new Builder();
    }

    /**
     * Starts serving: over stdio, reads the input on a thread of its own; over HTTP, binds the port.
     *
     * @return this server
     * @throws PaganticException {@code CONFIG_INVALID} when the HTTP port cannot be bound, or the server was started
     */
    public synchronized PaganticMcpServer start() {
        if (server != null) {
            throw PaganticException.of(ErrorCode.CONFIG_INVALID, "the MCP server is already started");
        }
        List<SyncToolSpecification> specifications = new ArrayList<>();
        for (Tool tool : tools.tools()) {
            SyncToolSpecification specification = specification(tool);
            published.put(tool.name(), specification.tool());
            specifications.add(specification);
        }
        if (transport instanceof Stdio stdio) {
            StdioServerTransportProvider provider = new StdioServerTransportProvider(McpJson.MCP,
                    closingAtEnd(stdio.in()), stdio.out());
            server = configure(McpServer.sync(provider), specifications);
            endpoint = URI.create("stdio:" + name);
        } else {
            Http http = (Http) transport;
            HttpServletStreamableServerTransportProvider provider = HttpServletStreamableServerTransportProvider
                    .builder().jsonMapper(McpJson.MCP).mcpEndpoint(ENDPOINT_PATH).build();
            server = configure(McpServer.sync(provider), specifications);
            startJetty(provider, http);
        }
        LOG.info("MCP server '{}' serving {} tools at {}", name, specifications.size(), endpoint);
        return this;
    }

    private McpSyncServer configure(McpServer.SyncSpecification<?> specification,
                                    List<SyncToolSpecification> specifications) {
        return specification
                .serverInfo(name, McpVersion.get())
                .jsonMapper(McpJson.MCP)
                .capabilities(McpSchema.ServerCapabilities.builder().tools(true).build()) // the list may change
                .validateToolInputs(false) // the executor validates, and answers with a tool result the model sees
                .tools(specifications)
                .build();
    }

    private void startJetty(HttpServletStreamableServerTransportProvider provider, Http http) {
        QueuedThreadPool threads = new QueuedThreadPool();
        threads.setName("pagantic-mcp-http");
        threads.setDaemon(true);
        jetty = new Server(threads);
        ServerConnector connector = new ServerConnector(jetty);
        connector.setHost(http.host());
        connector.setPort(http.port());
        jetty.addConnector(connector);
        ServletContextHandler context = new ServletContextHandler();
        context.setContextPath("/");
        ServletHolder holder = new ServletHolder(provider);
        holder.setAsyncSupported(true);
        context.addServlet(holder, ENDPOINT_PATH);
        jetty.setHandler(context);
        try {
            jetty.start();
        } catch (Exception cannotBind) {
            close();
            throw PaganticException.of(ErrorCode.CONFIG_INVALID, "the MCP server cannot listen on " + http.host()
                    + ":" + http.port() + ": " + cannotBind.getMessage(), cannotBind);
        }
        String host = http.host().contains(":") ? "[" + http.host() + "]" : http.host();
        endpoint = URI.create("http://" + host + ":" + connector.getLocalPort() + ENDPOINT_PATH);
    }

    /** The host closing the server's input ends the server (on a thread of its own: the reader is inside it). */
    private InputStream closingAtEnd(InputStream in) {
        return new FilterInputStream(in) {
            @Override
            public int read() throws IOException {
                return ended(super.read());
            }

            @Override
            public int read(byte[] buffer, int offset, int length) throws IOException {
                return ended(super.read(buffer, offset, length));
            }

            private int ended(int read) {
                if (read < 0 && closed.getCount() > 0) {
                    Thread closer = new Thread(PaganticMcpServer.this::close, "pagantic-mcp-stdio-end");
                    closer.setDaemon(true);
                    closer.start();
                }
                return read;
            }
        };
    }

    /** One registry tool as an MCP tool whose calls run through the executor. */
    private SyncToolSpecification specification(Tool tool) {
        McpSchema.Tool.Builder described = McpSchema.Tool.builder(tool.name(),
                        tool.definition().parameters().toJsonSchema())
                .description(tool.definition().description());
        McpSchema.ToolAnnotations annotations = McpAnnotations.annotationsOf(tool.safety(), null);
        if (annotations != null) {
            described.annotations(annotations);
        }
        return SyncToolSpecification.builder()
                .tool(described.build())
                .callHandler((exchange, request) -> call(request))
                .build();
    }

    private CallToolResult call(CallToolRequest request) {
        Map<String, Object> arguments = request.arguments() == null ? Map.of() : request.arguments();
        ToolExecution execution;
        try {
            execution = executor.execute(CallContext.background(), tools,
                    ToolCall.of("mcp-" + UUID.randomUUID(), request.name(), arguments));
        } catch (PaganticException refused) { // arguments that are not JSON, a cancelled call
            return CallToolResult.builder().addTextContent(refused.getMessage()).isError(true).build();
        }
        return CallToolResult.builder()
                .addTextContent(execution.result().content())
                .isError(!execution.succeeded())
                .build();
    }

    /** Where the server is reached: the HTTP endpoint, or {@code stdio:<name>}; set by {@link #start()}. */
    public synchronized URI endpoint() {
        if (endpoint == null) {
            throw PaganticException.of(ErrorCode.CONFIG_INVALID, "the MCP server is not started");
        }
        return endpoint;
    }

    /** The tools served, {@code pagantic_request} included. */
    public ToolRegistry tools() {
        return tools;
    }

    /**
     * Serves another set of tools from now on ({@code pagantic_request} stays) and tells connected clients with
     * {@code notifications/tools/list_changed}. A proxy calls it when an upstream server's tools change.
     *
     * @throws PaganticException {@code CONFIG_INVALID} when a tool is named {@code pagantic_request} while that tool
     *                           is served
     */
    public synchronized void updateTools(ToolRegistry newTools) {
        ToolRegistry next = served(Objects.requireNonNull(newTools, "newTools"));
        if (server != null) {
            for (String gone : new ArrayList<>(published.keySet())) {
                if (!next.contains(gone)) {
                    server.removeTool(gone);
                    published.remove(gone);
                }
            }
            for (Tool tool : next.tools()) {
                SyncToolSpecification specification = specification(tool);
                McpSchema.Tool before = published.put(tool.name(), specification.tool());
                if (!specification.tool().equals(before)) {
                    if (before != null) {
                        server.removeTool(tool.name());
                    }
                    server.addTool(specification);
                }
            }
            server.notifyToolsListChanged();
        }
        tools = next;
    }

    /** The registry with the request tool, if any, appended. */
    private ToolRegistry served(ToolRegistry registry) {
        if (requestTool == null) {
            return registry;
        }
        if (registry.contains(PaganticRequestTool.NAME) || registry.isHidden(PaganticRequestTool.NAME)) {
            throw PaganticException.of(ErrorCode.CONFIG_INVALID, "invalid MCP server: a registry tool is named '"
                    + PaganticRequestTool.NAME + "', the orchestrator's tool");
        }
        return ToolRegistry.builder().addAll(registry.tools()).add(requestTool).build();
    }

    /**
     * Blocks until the server is closed; a stdio server also closes itself when its input ends (the host went
     * away).
     */
    public void awaitClose() throws InterruptedException {
        closed.await();
    }

    /** Stops serving, and closes the executor if the server made it. Closing twice is harmless. */
    @Override
    public void close() {
        McpSyncServer running;
        Server http;
        synchronized (this) {
            running = server;
            http = jetty;
        }
        if (running != null) {
            try {
                running.closeGracefully();
            } catch (RuntimeException failed) {
                LOG.debug("closing the MCP server failed", failed);
            }
        }
        if (http != null) {
            try {
                http.stop();
            } catch (Exception failed) {
                LOG.debug("stopping the MCP HTTP server failed", failed);
            }
        }
        if (ownsExecutor) {
            executor.close();
        }
        closed.countDown();
    }

    /** Builds a {@link PaganticMcpServer}; validated at {@link #build()}. */
    public static final class Builder {
        private ToolRegistry tools = ToolRegistry.empty();
        private @Nullable Orchestrator orchestrator;
        private @Nullable ToolExecutor executor;
        private Duration requestTimeout = DEFAULT_REQUEST_TIMEOUT;
        private String name = "pagantic";
        private @Nullable Transport transport;

        private Builder() {
        }

        /** The tools to serve (a whitelisted view serves only its tools); none by default. */
        public Builder tools(ToolRegistry registry) {
            this.tools = registry;
            return this;
        }

        /** The orchestrator that {@code pagantic_request} runs requests through; without one there is no such tool. */
        public Builder orchestrator(Orchestrator value) {
            this.orchestrator = value;
            return this;
        }

        /**
         * The executor that runs the calls, with its default timeout, parallelism and observer; by default one the
         * server makes (30 s timeout) and closes.
         */
        public Builder executor(ToolExecutor value) {
            this.executor = value;
            return this;
        }

        /** The timeout of a {@code pagantic_request} call; 10 minutes by default. */
        public Builder requestTimeout(Duration timeout) {
            this.requestTimeout = timeout;
            return this;
        }

        /** The server's name, announced to clients; {@code pagantic} by default. */
        public Builder name(String value) {
            this.name = value;
            return this;
        }

        /** Serves over the process's standard input and output. */
        public Builder stdio() {
            return stdio(System.in, System.out);
        }

        /** Serves over the given streams (a test, an embedding host). */
        public Builder stdio(InputStream in, OutputStream out) {
            this.transport = new Stdio(Objects.requireNonNull(in, "in"), Objects.requireNonNull(out, "out"));
            return this;
        }

        /** Serves streamable HTTP at {@code http://host:port/mcp}; port 0 picks a free one. */
        public Builder http(String host, int port) {
            this.transport = new Http(Objects.requireNonNull(host, "host"), port);
            return this;
        }

        /**
         * The server, not yet started.
         *
         * @throws PaganticException {@code CONFIG_INVALID} without a transport, for a bad port or timeout, or when a
         *                           registry tool is named {@code pagantic_request} while an orchestrator is given
         */
        public PaganticMcpServer build() {
            check(transport != null, "choose a transport: stdio() or http(host, port)");
            check(tools != null, "tools must not be null (ToolRegistry.empty() for none)");
            check(name != null && !name.isBlank(), "the server needs a name");
            check(requestTimeout != null && !requestTimeout.isNegative() && !requestTimeout.isZero(),
                    "requestTimeout must be positive: " + requestTimeout);
            if (transport instanceof Http http) {
                check(http.port() >= 0 && http.port() <= 65_535, "port must be 0-65535: " + http.port());
            }
            return new PaganticMcpServer(this, orchestrator == null ? null
                    : PaganticRequestTool.create(orchestrator, requestTimeout));
        }

        private static void check(boolean condition, String message) {
            if (!condition) {
                throw PaganticException.of(ErrorCode.CONFIG_INVALID, "invalid MCP server: " + message);
            }
        }
    }
}
