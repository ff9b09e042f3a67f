package dev.pagantic.adapter.cli;

import dev.pagantic.core.ErrorCode;
import dev.pagantic.core.PaganticException;
import dev.pagantic.engine.llamacpp.LlamaCppEngine;
import dev.pagantic.engine.openai.OpenAiCompatibleEngine;
import dev.pagantic.inference.Engine;
import dev.pagantic.testkit.ScriptedEngine;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

/**
 * The command's engine selection: exactly one of {@code --model} (llama.cpp), {@code --endpoint} with
 * {@code --model-name} (an OpenAI-compatible server, with the API key from {@code $OPENAI_API_KEY} when set) and
 * {@code --scripted} (the testkit's scripted fake).
 */
final class EngineSelection implements EngineFactory {

    static final String HOW_TO_SELECT = "give --model FILE.gguf (a GGUF model run in process by llama.cpp), "
            + "--endpoint URL --model-name NAME (an OpenAI-compatible server) or --scripted REPLY "
            + "(a scripted fake engine, to try the command without a model)";

    @Override
    public Engine open(EngineOptions options, Invocation invocation) {
        boolean llamaCpp = options.model().isPresent();
        boolean openAi = options.endpoint().isPresent() || options.modelName().isPresent();
        boolean scripted = !options.scripted().isEmpty();
        List<String> selected = new ArrayList<>();
        if (llamaCpp) {
            selected.add("--model");
        }
        if (openAi) {
            selected.add("--endpoint");
        }
        if (scripted) {
            selected.add("--scripted");
        }
        if (selected.isEmpty()) {
            throw PaganticException.of(ErrorCode.CONFIG_NO_ENGINE, "no engine selected: " + HOW_TO_SELECT);
        }
        if (selected.size() > 1) {
            throw PaganticException.of(ErrorCode.CONFIG_INVALID,
                    "choose one engine, not " + String.join(" and ", selected));
        }
        if (openAi) {
            return openAi(options);
        }
        return llamaCpp ? llamaCpp(options, options.model().orElseThrow(), invocation) : scripted(options.scripted());
    }

    /** An OpenAI-compatible engine for the endpoint; both --endpoint and --model-name are needed. */
    private static Engine openAi(EngineOptions options) {
        if (options.endpoint().isEmpty() || options.modelName().isEmpty()) {
            throw PaganticException.of(ErrorCode.CONFIG_INVALID,
                    "an OpenAI-compatible server needs both --endpoint URL and --model-name NAME");
        }
        OpenAiCompatibleEngine.Builder engine = OpenAiCompatibleEngine.builder()
                .baseUrl(options.endpoint().get())
                .modelName(options.modelName().get());
        String apiKey = System.getenv("OPENAI_API_KEY");
        if (apiKey != null && !apiKey.isBlank()) {
            engine.apiKey(apiKey);
        }
        return engine.build();
    }

    private static Engine scripted(List<String> replies) {
        ScriptedEngine.Builder script = ScriptedEngine.builder();
        for (String reply : replies) {
            script.reply(reply);
        }
        return script.build();
    }

    /**
     * A llama.cpp engine on a private runtime, which the engine closes with itself. The model loads in
     * {@code build()}; the load listener only marks that reading started (the binding reports no progress in
     * between), and this method, which sees {@code build()} return or throw, ends the indicator.
     */
    private static Engine llamaCpp(EngineOptions options, Path model, Invocation invocation) {
        LoadProgress progress = new LoadProgress(invocation.err(), model, invocation.terminal());
        LlamaCppEngine.Builder engine = LlamaCppEngine.builder()
                .modelPath(model)
                .loadListener(event -> progress.started());
        options.contextSize().ifPresent(engine::contextSize);
        options.threads().ifPresent(engine::threads);
        options.gpuLayers().ifPresent(engine::gpuLayers);
        try {
            LlamaCppEngine built = engine.build();
            progress.finished(true);
            return built;
        } catch (RuntimeException failure) {
            progress.finished(false);
            throw failure;
        }
    }
}
