package dev.pagantic.adapter.api;

import dev.pagantic.engine.llamacpp.LlamaCppEngine;
import dev.pagantic.inference.Engine;
import dev.pagantic.orchestrate.facade.Orchestrator;
import dev.pagantic.orchestrate.facade.RequestTimelines;
import dev.pagantic.testkit.ScriptedEngine;
import java.io.PrintStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.concurrent.CountDownLatch;

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
            running = start(options, out);
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

    /**
     * Builds the engine, orchestrator and server of the options and starts serving.
     *
     * @param options the parsed command line
     * @param out     where the server's address is printed
     * @return the running server and what it owns, closed together
     */
    static Running start(ServerOptions options, PrintStream out) {
        Objects.requireNonNull(options, "options");
        RequestTimelines events = RequestTimelines.create(TIMELINE_CAPACITY);
        Engine engine;
        String modelName;
        TextEmbedder embedder = null;
        if (options.model().isPresent()) {
            Path model = options.model().get();
            if (!Files.isRegularFile(model)) {
                throw new IllegalArgumentException("no model file at " + model);
            }
            // No runtime given: the engine loads the model into a private one and closes it with itself.
            LlamaCppEngine.Builder llama = LlamaCppEngine.builder().modelPath(model)
                    .parallel(options.maxConcurrent()).gpuLayers(options.gpuLayers()).embeddings(true);
            if (options.contextSize() > 0) {
                llama.contextSize(options.contextSize());
            }
            if (options.threads() > 0) {
                llama.threads(options.threads());
            }
            out.println("loading " + model + " ...");
            LlamaCppEngine built = llama.build();
            engine = built;
            embedder = built::embed;
            String file = model.getFileName().toString();
            modelName = file.endsWith(".gguf") ? file.substring(0, file.length() - ".gguf".length()) : file;
        } else {
            modelName = "scripted";
            ScriptedEngine.Builder script = ScriptedEngine.builder().modelName(modelName);
            List<String> replies = options.scripted();
            for (int call = 0; call < SCRIPTED_CALLS; call++) {
                script.reply(replies.get(call % replies.size()));
            }
            engine = script.build();
        }
        Orchestrator.Builder orchestrator = Orchestrator.builder().engine(engine).eventLog(events);
        if (!options.systemPrompt().isEmpty()) {
            orchestrator.systemPrompt(options.systemPrompt());
        }
        Orchestrator built;
        try {
            built = orchestrator.build();
        } catch (RuntimeException invalid) {
            engine.close();
            throw invalid;
        }
        Running running = new Running(engine, built);
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
            running.server = server.build().start();
        } catch (RuntimeException failure) {
            running.close();
            throw failure;
        }
        out.println("pagantic API serving '" + modelName + "' at " + running.server.baseUrl()
                + " (OpenAI base URL " + running.server.baseUrl() + "/v1)");
        return running;
    }

    /** A started server with the orchestrator and engine it owns; closing stops them in order. */
    static final class Running implements AutoCloseable {
        private final Engine engine;
        private final Orchestrator orchestrator;
        private ApiServer server;

        private Running(Engine engine, Orchestrator orchestrator) {
            this.engine = engine;
            this.orchestrator = orchestrator;
        }

        ApiServer server() {
            return server;
        }

        @Override
        public void close() {
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
