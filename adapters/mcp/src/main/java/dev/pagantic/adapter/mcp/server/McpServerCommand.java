package dev.pagantic.adapter.mcp.server;

import dev.pagantic.adapter.mcp.client.McpToolbox;
import dev.pagantic.adapter.mcp.internal.McpVersion;
import dev.pagantic.engine.llamacpp.LlamaCppEngine;
import dev.pagantic.inference.Engine;
import dev.pagantic.orchestrate.facade.Orchestrator;
import dev.pagantic.testkit.ScriptedEngine;
import dev.pagantic.tool.ToolExecutor;
import dev.pagantic.tool.ToolRegistry;
import java.io.PrintStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.Callable;
import org.jspecify.annotations.Nullable;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

/**
 * The {@code mcp} command: serves pagantic over MCP. A picocli command, so that a launcher adds it as a subcommand
 * ({@code commandLine.addSubcommand("mcp", new McpServerCommand())}) and {@link McpServerMain} runs it alone. What it
 * serves:
 * <ul>
 *   <li>with {@code --model} (a GGUF file) or {@code --scripted} (fixed replies, to try it without a model), the
 *       {@code pagantic_request} tool on an orchestrator over that engine;</li>
 *   <li>with {@code --mcp-config}, the tools of the MCP servers in that file, each call under pagantic's guards
 *       (whitelist, argument validation, timeout): pagantic as a guarding proxy in front of other servers; the
 *       orchestrator's requests may use them too.</li>
 * </ul>
 * Over stdio the process serves until the host closes its input; status lines go to standard error, since standard
 * output carries the protocol.
 */
@Command(name = "mcp",
        mixinStandardHelpOptions = true,
        versionProvider = McpServerCommand.Version.class,
        description = "Serves pagantic as an MCP server (stdio or streamable HTTP): the pagantic_request tool over "
                + "a model, and the tools of the MCP servers of a config file behind pagantic's guards.")
public final class McpServerCommand implements Callable<Integer> {

    private static final Logger LOG = LoggerFactory.getLogger(McpServerCommand.class);

    /** A scripted engine answers its replies in turn for this many calls. */
    static final int SCRIPTED_CALLS = 10_000;

    @Option(names = "--transport", defaultValue = "stdio", description = "stdio or http (default: ${DEFAULT-VALUE})")
    String transport;

    @Option(names = "--host", defaultValue = "127.0.0.1", description = "HTTP address to bind (default: "
            + "${DEFAULT-VALUE})")
    String host;

    @Option(names = "--port", defaultValue = "8931", description = "HTTP port, 0 for any free one (default: "
            + "${DEFAULT-VALUE})")
    int port;

    @Option(names = "--model", description = "a GGUF model file for pagantic_request")
    @Nullable Path model;

    @Option(names = "--scripted", arity = "1..*", description = "fixed replies for pagantic_request, in turn "
            + "(no model needed)")
    List<String> scripted = new ArrayList<>();

    @Option(names = "--mcp-config", description = "an mcpServers JSON file whose servers' tools are served")
    @Nullable Path mcpConfig;

    @Option(names = "--tools", split = ",", description = "serve only these tools (comma-separated)")
    List<String> allowed = new ArrayList<>();

    @Option(names = "--tool-timeout", defaultValue = "30", description = "seconds a tool call may take (default: "
            + "${DEFAULT-VALUE})")
    long toolTimeoutSeconds;

    @Option(names = "--system-prompt", defaultValue = "", description = "the system prompt of pagantic_request")
    String systemPrompt;

    @Option(names = "--context-size", defaultValue = "0", description = "the model's context size; 0 for its own")
    int contextSize;

    @Option(names = "--gpu-layers", defaultValue = "0", description = "model layers to offload to a GPU")
    int gpuLayers;

    private final PrintStream status;

    /** A command that writes its status lines to standard error. */
    public McpServerCommand() {
        this(System.err);
    }

    /** A command that writes its status lines to the given stream. */
    public McpServerCommand(PrintStream status) {
        this.status = status;
    }

    /** Serves until the server is closed (stdio: the host closed the input); returns the exit code. */
    @Override
    public Integer call() throws Exception {
        try (Served served = start()) {
            Thread stop = new Thread(served::close, "pagantic-mcp-shutdown"); // Ctrl-C, SIGTERM
            Runtime.getRuntime().addShutdownHook(stop);
            served.server.awaitClose();
            try {
                Runtime.getRuntime().removeShutdownHook(stop);
            } catch (IllegalStateException shuttingDown) {
                // the hook is running already
            }
        }
        return 0;
    }

    /**
     * Builds and starts everything the options name; the caller closes the result, which stops it all in order.
     *
     * @throws CommandLine.ParameterException for options that contradict each other
     */
    public Served start() {
        boolean http = switch (transport) {
            case "http" -> true;
            case "stdio" -> false;
            default -> throw new CommandLine.ParameterException(new CommandLine(this),
                    "--transport must be stdio or http, not " + transport);
        };
        if (model != null && !scripted.isEmpty()) {
            throw new CommandLine.ParameterException(new CommandLine(this), "--model and --scripted exclude each "
                    + "other");
        }
        if (model != null && !Files.isRegularFile(model)) {
            throw new CommandLine.ParameterException(new CommandLine(this), "no model file at " + model);
        }
        Served served = new Served();
        try {
            ToolRegistry tools = ToolRegistry.empty();
            if (mcpConfig != null) {
                served.toolbox = McpToolbox.builder().configFile(mcpConfig).build();
                tools = served.toolbox.registry();
            }
            if (!allowed.isEmpty()) {
                tools = tools.allowOnly(allowed);
            }
            served.executor = ToolExecutor.builder().defaultTimeout(Duration.ofSeconds(toolTimeoutSeconds))
                    .threadNamePrefix("pagantic-mcp-tool").build();
            PaganticMcpServer.Builder server = PaganticMcpServer.builder().tools(tools).executor(served.executor);
            served.engine = engine();
            if (served.engine != null) {
                Orchestrator.Builder orchestrator = Orchestrator.builder().engine(served.engine)
                        .toolExecutor(served.executor);
                if (!tools.isEmpty()) {
                    orchestrator.tools(tools);
                }
                if (!systemPrompt.isEmpty()) {
                    orchestrator.systemPrompt(systemPrompt);
                }
                served.orchestrator = orchestrator.build();
                server.orchestrator(served.orchestrator);
            }
            served.server = (http ? server.http(host, port) : server.stdio()).build().start();
            if (served.toolbox != null) { // an upstream server's list_changed reaches this server's clients
                PaganticMcpServer running = served.server;
                served.toolbox.onChange(registry -> forward(running, registry));
            }
            status.println("pagantic MCP server serving " + served.server.tools().names() + " at "
                    + served.server.endpoint());
            return served;
        } catch (RuntimeException failed) {
            served.close();
            throw failed;
        }
    }

    private void forward(PaganticMcpServer running, ToolRegistry upstream) {
        try {
            running.updateTools(allowed.isEmpty() ? upstream : upstream.allowOnly(allowed));
        } catch (RuntimeException refused) { // a whitelisted tool went away: keep serving what was served
            LOG.warn("the upstream MCP tools changed but cannot be served: {}", refused.getMessage());
        }
    }

    private @Nullable Engine engine() {
        if (model != null) {
            LlamaCppEngine.Builder llama = LlamaCppEngine.builder().modelPath(model).gpuLayers(gpuLayers);
            if (contextSize > 0) {
                llama.contextSize(contextSize);
            }
            status.println("loading " + model + " ...");
            return llama.build();
        }
        if (!scripted.isEmpty()) {
            ScriptedEngine.Builder script = ScriptedEngine.builder().modelName("scripted");
            for (int call = 0; call < SCRIPTED_CALLS; call++) {
                script.reply(scripted.get(call % scripted.size()));
            }
            return script.build();
        }
        return null;
    }

    /** What a started command owns; closing stops the server, then the orchestrator, engine, executor, toolbox. */
    public static final class Served implements AutoCloseable {
        private @Nullable PaganticMcpServer server;
        private @Nullable Orchestrator orchestrator;
        private @Nullable Engine engine;
        private @Nullable ToolExecutor executor;
        private @Nullable McpToolbox toolbox;

        private Served() {
        }

        /** The running server. */
        public PaganticMcpServer server() {
            return server;
        }

        @Override
        public void close() {
            if (server != null) {
                server.close();
            }
            if (orchestrator != null) {
                orchestrator.close();
            }
            if (engine != null) {
                engine.close();
            }
            if (executor != null) {
                executor.close();
            }
            if (toolbox != null) {
                toolbox.close();
            }
        }
    }

    /** The version of {@code --version}. */
    static final class Version implements CommandLine.IVersionProvider {
        @Override
        public String[] getVersion() {
            return new String[] {"pagantic mcp " + McpVersion.get()};
        }
    }
}
