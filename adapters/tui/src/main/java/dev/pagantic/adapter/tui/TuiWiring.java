package dev.pagantic.adapter.tui;

import dev.pagantic.engine.llamacpp.LlamaCppEngine;
import dev.pagantic.engine.openai.OpenAiCompatibleEngine;
import dev.pagantic.inference.Engine;
import dev.pagantic.orchestrate.facade.Orchestrator;
import dev.pagantic.testkit.ScriptedEngine;
import dev.pagantic.testkit.SlowEngine;
import java.io.PrintWriter;
import java.nio.file.Path;
import java.util.Objects;

/**
 * What the command line wires up: the engine (a llama.cpp model, or the testkit's scripted engine, slowed down on
 * request), the tools, and the orchestrator over them. Closing it closes all of them.
 */
final class TuiWiring implements AutoCloseable {

    private final Engine engine;
    private final ToolSet tools;
    private final Orchestrator orchestrator;

    private TuiWiring(Engine engine, ToolSet tools, Orchestrator orchestrator) {
        this.engine = engine;
        this.tools = tools;
        this.orchestrator = orchestrator;
    }

    /**
     * Builds the engine, the tools and the orchestrator the options describe. Loading a model may take seconds: the
     * status writer says so.
     *
     * @throws dev.pagantic.core.PaganticException {@code INFERENCE_MODEL_UNAVAILABLE} for a model that cannot be
     *                                             loaded, {@code CONFIG_INVALID} for a bad setting
     */
    static TuiWiring create(TuiOptions options, PrintWriter status) {
        Objects.requireNonNull(options, "options");
        Objects.requireNonNull(status, "status");
        ToolSet.Builder toolSet = ToolSet.builder();
        if (options.demoTools()) {
            DemoTools.register(toolSet);
        }
        ToolSet tools = toolSet.build();
        if (options.scripted()) {
            return wire(scriptedEngine(options), tools, options);
        }
        if (options.endpoint().isPresent()) {
            return wire(openAiEngine(options), tools, options);
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
        TuiWiring wiring = wire(engine.build(), tools, options);
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

    /** Closes the orchestrator and the engine (with the engine, its model runtime). */
    @Override
    public void close() {
        try {
            orchestrator.close();
        } finally {
            engine.close();
        }
    }

    private static TuiWiring wire(Engine engine, ToolSet tools, TuiOptions options) {
        try {
            Orchestrator.Builder orchestrator = Orchestrator.builder().engine(engine);
            if (!tools.isEmpty()) {
                orchestrator.tools(tools.registry());
            }
            options.systemPrompt().ifPresent(orchestrator::systemPrompt);
            if (options.maxTokens() > 0) {
                orchestrator.maxTokens(options.maxTokens());
            }
            return new TuiWiring(engine, tools, orchestrator.build());
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
