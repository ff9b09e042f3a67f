package dev.pagantic.adapter.cli;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import org.jspecify.annotations.Nullable;
import picocli.CommandLine.Option;

/**
 * The options that select the engine, accepted both before the subcommand name ({@code pagantic --model m.gguf chat
 * hi}) and after it ({@code pagantic chat --model m.gguf hi}); given in both places, the subcommand's value wins
 * ({@link #orElse}).
 */
public final class EngineOptions {

    @Option(names = "--model", paramLabel = "FILE.gguf", order = 100,
            description = "Run this GGUF model in process with llama.cpp.")
    private @Nullable Path model;

    @Option(names = "--ctx-size", paramLabel = "TOKENS", order = 101,
            description = "llama.cpp context window in tokens (default 2048).")
    private @Nullable Integer contextSize;

    @Option(names = "--threads", paramLabel = "N", order = 102,
            description = "llama.cpp CPU threads (default: all processors).")
    private @Nullable Integer threads;

    @Option(names = "--gpu-layers", paramLabel = "N", order = 103,
            description = "llama.cpp layers offloaded to the GPU (default 0; needs a GPU build of the native library).")
    private @Nullable Integer gpuLayers;

    @Option(names = "--endpoint", paramLabel = "URL", order = 104,
            description = "An OpenAI-compatible server (llama-server, vLLM, Ollama, pagantic's own API), with "
                    + "--model-name; the API key comes from $OPENAI_API_KEY.")
    private @Nullable String endpoint;

    @Option(names = "--model-name", paramLabel = "NAME", order = 105,
            description = "The model to ask the --endpoint for.")
    private @Nullable String modelName;

    @Option(names = "--scripted", paramLabel = "REPLY", order = 106,
            description = "A scripted fake engine answering these replies in order, one per model call (repeat the "
                    + "option): to try the CLI without a model.")
    private List<String> scripted = new ArrayList<>();

    /** No options given; picocli fills the fields. */
    public EngineOptions() {
    }

    /** The llama.cpp model file. */
    Optional<Path> model() {
        return Optional.ofNullable(model);
    }

    /** The llama.cpp context window. */
    Optional<Integer> contextSize() {
        return Optional.ofNullable(contextSize);
    }

    /** The llama.cpp CPU threads. */
    Optional<Integer> threads() {
        return Optional.ofNullable(threads);
    }

    /** The llama.cpp GPU layers. */
    Optional<Integer> gpuLayers() {
        return Optional.ofNullable(gpuLayers);
    }

    /** The OpenAI-compatible endpoint. */
    Optional<String> endpoint() {
        return Optional.ofNullable(endpoint);
    }

    /** The model name at the endpoint. */
    Optional<String> modelName() {
        return Optional.ofNullable(modelName);
    }

    /** The scripted replies; empty when the scripted engine is not selected. */
    List<String> scripted() {
        return List.copyOf(scripted);
    }

    /** These options, each one that was not given taken from {@code fallback} (the options before the subcommand). */
    EngineOptions orElse(EngineOptions fallback) {
        EngineOptions merged = new EngineOptions();
        merged.model = model != null ? model : fallback.model;
        merged.contextSize = contextSize != null ? contextSize : fallback.contextSize;
        merged.threads = threads != null ? threads : fallback.threads;
        merged.gpuLayers = gpuLayers != null ? gpuLayers : fallback.gpuLayers;
        merged.endpoint = endpoint != null ? endpoint : fallback.endpoint;
        merged.modelName = modelName != null ? modelName : fallback.modelName;
        merged.scripted = new ArrayList<>(!scripted.isEmpty() ? scripted : fallback.scripted);
        return merged;
    }
}
