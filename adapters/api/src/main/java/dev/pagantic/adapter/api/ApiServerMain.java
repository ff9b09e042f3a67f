package dev.pagantic.adapter.api;

import dev.pagantic.core.ToolDefinition;
import dev.pagantic.engine.llamacpp.LlamaCppEngine;
import dev.pagantic.inference.Engine;
import dev.pagantic.orchestrate.facade.Orchestrator;
import dev.pagantic.orchestrate.facade.RequestTimelines;
import dev.pagantic.testkit.ScriptedEngine;
import dev.pagantic.tool.Tool;
import dev.pagantic.tool.ToolRegistry;
import java.io.PrintStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.CountDownLatch;
import java.util.function.BiConsumer;
import java.util.function.BiFunction;
import java.util.stream.Collectors;

/**
 * Runs the HTTP server from the command line ({@link ServerOptions#USAGE}):
 *
 * <pre>
 * java -cp ... dev.pagantic.adapter.api.ApiServerMain --model ../shared/models/stories260K.gguf --port 8080
 * java -cp ... dev.pagantic.adapter.api.ApiServerMain --scripted "Hello there." "Anything else?" --token secret
 * </pre>
 *
 * It serves until the process is told to stop (Ctrl-C, SIGTERM): the shutdown hook drains the server gracefully,
 * then closes the orchestrator and the engine. {@code main} ends with {@code System.exit} only to report its exit
 * status; {@link #serve} returns it instead (the distribution's {@code pagantic serve} runs that).
 */
public final class ApiServerMain {

    /** A scripted server answers its replies in turn for this many requests, then its script is exhausted. */
    static final int SCRIPTED_CALLS = 10_000;
    /** The newest events kept for {@code /v1/requests/{id}/events}. */
    static final int TIMELINE_CAPACITY = 1000;

    /** What {@code --mcp-config} does where no launcher supplied the MCP client: it cannot start. */
    static final BiFunction<Path, BiConsumer<ToolDefinition, Tool>, Runnable> NO_MCP = (file, add) -> {
        throw new IllegalArgumentException("--mcp-config needs the MCP client, which the distribution's pagantic "
                + "command brings (this program runs the HTTP server alone)");
    };

    private ApiServerMain() {
    }

    /** Starts the server and serves until the JVM shuts down; exits 2 for bad arguments, 1 when it cannot start. */
    public static void main(String[] args) {
        System.exit(serve(List.of(args), System.out, System.err));
    }

    /**
     * Parses the arguments, starts the server and serves until the JVM shuts down (Ctrl-C, SIGTERM): the shutdown hook
     * drains the server, then closes the orchestrator and the engine. The {@code pagantic serve} command of the
     * distribution runs this.
     *
     * @param args the command line ({@link ServerOptions#USAGE})
     * @param out  where the usage and the server's address are printed
     * @param err  where a bad command line or a failed start is reported
     * @return 0 after {@code --help} or a shutdown, 2 for bad arguments, 1 when the server cannot start
     */
    public static int serve(List<String> args, PrintStream out, PrintStream err) {
        return serve(args, out, err, NO_MCP);
    }

    /**
     * Serves with an MCP client for {@code --mcp-config}. Adapters do not depend on each other, so the launcher that
     * has the MCP adapter (the distribution's {@code pagantic serve}) supplies how a config file's tools are opened.
     *
     * @param mcpTools opens the servers of an {@code mcpServers} file, hands each of their tools (with its definition)
     *                 to the consumer and returns what disconnects them, which the server runs when it stops; it
     *                 throws naming the file or the server that failed
     * @return as {@link #serve(List, PrintStream, PrintStream)}
     */
    public static int serve(List<String> args, PrintStream out, PrintStream err,
                            BiFunction<Path, BiConsumer<ToolDefinition, Tool>, Runnable> mcpTools) {
        ServerOptions options;
        try {
            options = ServerOptions.parse(args, System.getenv());
        } catch (IllegalArgumentException bad) {
            err.println("pagantic serve: " + bad.getMessage());
            err.println(ServerOptions.USAGE);
            return 2;
        }
        if (options.help()) {
            out.println(ServerOptions.USAGE);
            return 0;
        }
        Running running;
        try {
            running = start(options, out, mcpTools);
        } catch (RuntimeException failure) {
            err.println("pagantic serve: cannot start: " + failure.getMessage());
            return 1;
        }
        CountDownLatch stopped = new CountDownLatch(1);
        Runtime.getRuntime().addShutdownHook(new Thread(() -> {
            running.close();
            stopped.countDown();
        }, "pagantic-api-shutdown"));
        try {
            stopped.await();
        } catch (InterruptedException interrupted) {
            Thread.currentThread().interrupt();
        }
        return 0;
    }

    /** {@link #start(ServerOptions, PrintStream, BiFunction)} without an MCP client. */
    static Running start(ServerOptions options, PrintStream out) {
        return start(options, out, NO_MCP);
    }

    /**
     * Connects to the MCP servers of the options, builds the engine, orchestrator and server and starts serving.
     *
     * @param options  the parsed command line
     * @param out      where the server's address is printed
     * @param mcpTools opens the servers of {@code --mcp-config}
     * @return the running server and what it owns, closed together
     */
    static Running start(ServerOptions options, PrintStream out,
                         BiFunction<Path, BiConsumer<ToolDefinition, Tool>, Runnable> mcpTools) {
        Objects.requireNonNull(options, "options");
        Objects.requireNonNull(mcpTools, "mcpTools");
        Set<String> names = new HashSet<>();
        for (Path model : options.models()) {
            if (!Files.isRegularFile(model)) {
                throw new IllegalArgumentException("no model file at " + model);
            }
            if (!names.add(modelName(model))) {
                throw new IllegalArgumentException("two models are named '" + modelName(model)
                        + "' (their file names without .gguf): rename one");
            }
        }
        ToolRegistry.Builder tools = ToolRegistry.builder();
        // Before the model loads, so that a bad configuration fails at once.
        Runnable mcp = options.mcpConfig().isPresent()
                ? mcpTools.apply(options.mcpConfig().get(), (definition, tool) -> tools.add(tool)) : () -> { };
        try {
            return start(options, out, tools.build(), mcp);
        } catch (RuntimeException failure) {
            mcp.run();
            throw failure;
        }
    }

    private static Running start(ServerOptions options, PrintStream out, ToolRegistry tools, Runnable mcp) {
        RequestTimelines events = RequestTimelines.create(TIMELINE_CAPACITY);
        Engine engine;
        String modelName;
        TextEmbedder embedder = null;
        if (options.model().isPresent()) {
            Path model = options.model().get();
            out.println("loading " + model + " ...");
            LlamaCppEngine llama = llama(options, model);
            engine = llama;
            embedder = llama::embed;
            modelName = modelName(model);
        } else {
            modelName = "scripted";
            ScriptedEngine.Builder script = ScriptedEngine.builder().modelName(modelName);
            List<String> replies = options.scripted();
            for (int call = 0; call < SCRIPTED_CALLS; call++) {
                script.reply(replies.get(call % replies.size()));
            }
            engine = script.build();
        }
        Orchestrator built;
        try {
            built = orchestrator(options, engine, events, tools);
        } catch (RuntimeException invalid) {
            engine.close();
            throw invalid;
        }
        Running running = new Running(engine, built, mcp);
        try {
            ApiServer.Builder server = ApiServer.builder().orchestrator(running.orchestrator).timelines(events)
                    .modelName(modelName).host(options.host()).port(options.port())
                    .bearerToken(options.token()).maxConcurrentRequests(options.maxConcurrent())
                    .idleTimeout(Duration.ofSeconds(options.idleTimeoutSeconds()))
                    .minRequestDataRate(options.minRequestRate())
                    .queueSize(options.queueSize()).queueTimeout(Duration.ofSeconds(options.queueTimeoutSeconds()));
            options.aliases().forEach(server::alias);
            if (embedder != null) {
                server.embeddings(embedder);
            }
            options.models().stream().skip(1).forEach(other ->
                    server.model(modelName(other), () -> served(options, other, events, tools)));
            running.server = server.build().start();
        } catch (RuntimeException failure) {
            running.closeServing();
            throw failure;
        }
        out.println("pagantic API serving '" + modelName + "' at " + running.server.baseUrl()
                + " (OpenAI base URL " + running.server.baseUrl() + "/v1)");
        if (options.models().size() > 1) {
            out.println("also serving, loaded on first request: " + options.models().stream().skip(1)
                    .map(ApiServerMain::modelName).collect(Collectors.joining(", ")));
        }
        return running;
    }

    /** The name a model file is served under: its file name without {@code .gguf}. */
    private static String modelName(Path model) {
        String file = model.getFileName().toString();
        return file.endsWith(".gguf") ? file.substring(0, file.length() - ".gguf".length()) : file;
    }

    /** Loads a model in a private llama.cpp runtime, which the engine closes with itself. */
    private static LlamaCppEngine llama(ServerOptions options, Path model) {
        LlamaCppEngine.Builder llama = LlamaCppEngine.builder().modelPath(model)
                .parallel(options.maxConcurrent()).gpuLayers(options.gpuLayers()).embeddings(true);
        if (options.contextSize() > 0) {
            llama.contextSize(options.contextSize());
        }
        if (options.threads() > 0) {
            llama.threads(options.threads());
        }
        return llama.build();
    }

    private static Orchestrator orchestrator(ServerOptions options, Engine engine, RequestTimelines events,
                                             ToolRegistry tools) {
        Orchestrator.Builder orchestrator = Orchestrator.builder().engine(engine).eventLog(events);
        if (options.mcpConfig().isPresent()) {
            orchestrator.tools(tools);
        }
        if (!options.systemPrompt().isEmpty()) {
            orchestrator.systemPrompt(options.systemPrompt());
        }
        return orchestrator.build();
    }

    /** Loads a model besides the default one, on its first request; the server closes it. */
    private static ServedModel served(ServerOptions options, Path model, RequestTimelines events,
                                      ToolRegistry tools) {
        LlamaCppEngine llama = llama(options, model);
        try {
            Orchestrator orchestrator = orchestrator(options, llama, events, tools);
            return new ServedModel(orchestrator, Optional.of(llama::embed), () -> {
                try {
                    orchestrator.close();
                } finally {
                    llama.close();
                }
            });
        } catch (RuntimeException invalid) {
            llama.close();
            throw invalid;
        }
    }

    /**
     * A started server with the orchestrator, engine and MCP connections it owns; closing stops them in order.
     */
    static final class Running implements AutoCloseable {
        private final Engine engine;
        private final Orchestrator orchestrator;
        private final Runnable mcp;
        private ApiServer server;

        private Running(Engine engine, Orchestrator orchestrator, Runnable mcp) {
            this.engine = engine;
            this.orchestrator = orchestrator;
            this.mcp = mcp;
        }

        ApiServer server() {
            return server;
        }

        @Override
        public void close() {
            try {
                closeServing();
            } finally {
                mcp.run();
            }
        }

        /** Stops the server, the orchestrator and the engine; the MCP connections are the caller's to close. */
        private void closeServing() {
            if (server != null) {
                server.close();
            }
            orchestrator.close();
            engine.close();
        }
    }

    /** For tests: the options of an argument list with an empty environment. */
    static ServerOptions options(String... args) {
        return ServerOptions.parse(List.of(args), Map.of());
    }
}
