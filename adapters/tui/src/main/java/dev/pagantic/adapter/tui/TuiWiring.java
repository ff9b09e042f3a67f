package dev.pagantic.adapter.tui;

import dev.pagantic.core.ToolDefinition;
import dev.pagantic.engine.llamacpp.LlamaCppEngine;
import dev.pagantic.engine.openai.OpenAiCompatibleEngine;
import dev.pagantic.inference.Engine;
import dev.pagantic.orchestrate.facade.Orchestrator;
import dev.pagantic.testkit.ScriptedEngine;
import dev.pagantic.testkit.SlowEngine;
import dev.pagantic.tool.Tool;
import java.io.PrintWriter;
import java.nio.file.Path;
import java.util.Objects;
import java.util.function.BiConsumer;
import java.util.function.BiFunction;

/**
 * What the command line wires up: the engine (a llama.cpp model, or the testkit's scripted engine, slowed down on
 * request), the tools (the demo tool and those of {@code --mcp-config}), and the orchestrator over them. Closing it
 * closes all of them.
 */
final class TuiWiring implements AutoCloseable {

    /** What {@code --mcp-config} does where no launcher supplied the MCP client: a configuration error. */
    static final BiFunction<Path, BiConsumer<ToolDefinition, Tool>, Runnable> NO_MCP = (file, add) -> {
        throw TuiOptions.invalid("--mcp-config needs the MCP client, which the distribution's pagantic command "
                + "brings (this program runs the terminal chat alone)");
    };

    private final Engine engine;
    private final ToolSet tools;
    private final Orchestrator orchestrator;
    private final Runnable mcp;

    private TuiWiring(Engine engine, ToolSet tools, Orchestrator orchestrator, Runnable mcp) {
        this.engine = engine;
        this.tools = tools;
        this.orchestrator = orchestrator;
        this.mcp = mcp;
    }

    /** {@link #create(TuiOptions, PrintWriter, BiFunction)} without an MCP client. */
    static TuiWiring create(TuiOptions options, PrintWriter status) {
        return create(options, status, NO_MCP);
    }

    /**
     * Builds the tools, the engine and the orchestrator the options describe. The MCP servers of
     * {@code --mcp-config} start first, so that a bad configuration fails before a model loads. Loading a model may
     * take seconds: the status writer says so.
     *
     * @param mcpTools opens the servers of an {@code mcpServers} file and hands over their tools (see
     *                 {@link TuiMain#run(String[], java.io.PrintStream, java.io.PrintStream, BiFunction)})
     * @throws dev.pagantic.core.PaganticException {@code INFERENCE_MODEL_UNAVAILABLE} for a model that cannot be
     *                                             loaded, {@code CONFIG_INVALID} for a bad setting or MCP
     *                                             configuration, {@code TOOL_UNAVAILABLE} for an MCP server that
     *                                             cannot be started
     */
    static TuiWiring create(TuiOptions options, PrintWriter status,
                            BiFunction<Path, BiConsumer<ToolDefinition, Tool>, Runnable> mcpTools) {
        Objects.requireNonNull(options, "options");
        Objects.requireNonNull(status, "status");
        Objects.requireNonNull(mcpTools, "mcpTools");
        ToolSet.Builder toolSet = ToolSet.builder();
        if (options.demoTools()) {
            DemoTools.register(toolSet);
        }
        Runnable mcp = options.mcpConfig().map(file -> mcpTools.apply(file, toolSet::add)).orElse(() -> { });
        try {
            return create(options, status, toolSet.build(), mcp);
        } catch (RuntimeException failed) {
            mcp.run();
            throw failed;
        }
    }

    private static TuiWiring create(TuiOptions options, PrintWriter status, ToolSet tools, Runnable mcp) {
        if (options.scripted()) {
            return wire(scriptedEngine(options), tools, options, mcp);
        }
        if (options.endpoint().isPresent()) {
            return wire(openAiEngine(options), tools, options, mcp);
        }
        Path model = options.model().orElseThrow();
        status.println("loading " + model + " ...");
        status.flush();
        // No runtime given: the engine loads the model into a private one and closes it with itself.
        LlamaCppEngine.Builder engine = LlamaCppEngine.builder().modelPath(model);
        if (options.contextSize() > 0) {
            engine.contextSize(options.contextSize());
        }
        if (options.threads() > 0) {
            engine.threads(options.threads());
        }
        engine.gpuLayers(options.gpuLayers());
        TuiWiring wiring = wire(engine.build(), tools, options, mcp);
        status.println("loaded " + model.getFileName());
        return wiring;
    }

    /** The orchestrator, for the chat loop. */
    Orchestrator orchestrator() {
        return orchestrator;
    }

    /** The registered tools. */
    ToolSet tools() {
        return tools;
    }

    /** Closes the orchestrator, the engine (with the engine, its model runtime) and the MCP servers' connections. */
    @Override
    public void close() {
        try {
            orchestrator.close();
        } finally {
            try {
                engine.close();
            } finally {
                mcp.run();
            }
        }
    }

    private static TuiWiring wire(Engine engine, ToolSet tools, TuiOptions options, Runnable mcp) {
        try {
            Orchestrator.Builder orchestrator = Orchestrator.builder().engine(engine);
            if (!tools.isEmpty()) {
                orchestrator.tools(tools.registry());
            }
            options.systemPrompt().ifPresent(orchestrator::systemPrompt);
            if (options.maxTokens() > 0) {
                orchestrator.maxTokens(options.maxTokens());
            }
            return new TuiWiring(engine, tools, orchestrator.build(), mcp);
        } catch (RuntimeException failed) {
            engine.close();
            throw failed;
        }
    }

    /** An OpenAI-compatible server's model, with the API key from {@code $OPENAI_API_KEY} when set. */
    private static Engine openAiEngine(TuiOptions options) {
        OpenAiCompatibleEngine.Builder engine = OpenAiCompatibleEngine.builder()
                .baseUrl(options.endpoint().orElseThrow())
                .modelName(options.modelName().orElseThrow());
        String apiKey = System.getenv("OPENAI_API_KEY");
        if (apiKey != null && !apiKey.isBlank()) {
            engine.apiKey(apiKey);
        }
        return engine.build();
    }

    /** The script as a {@link ScriptedEngine}, behind a {@link SlowEngine} when each word should take a while. */
    private static Engine scriptedEngine(TuiOptions options) {
        ScriptedEngine.Builder script = ScriptedEngine.builder();
        for (TuiOptions.ScriptStep step : options.script()) {
            if (step instanceof TuiOptions.ScriptStep.Reply reply) {
                script.reply(reply.text());
            } else if (step instanceof TuiOptions.ScriptStep.ToolCallStep call) {
                script.replyCallingTool(call.tool(), call.arguments());
            }
        }
        Engine engine = script.build();
        if (options.slowPerToken().isZero()) {
            return engine;
        }
        return SlowEngine.builder().delegate(engine).delayPerToken(options.slowPerToken()).build();
    }
}
