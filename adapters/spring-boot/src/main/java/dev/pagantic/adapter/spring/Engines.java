package dev.pagantic.adapter.spring;

import dev.pagantic.adapter.spring.PaganticProperties.EngineKind;
import dev.pagantic.core.ErrorCode;
import dev.pagantic.core.PaganticException;
import dev.pagantic.engine.llamacpp.LlamaCppEngine;
import dev.pagantic.engine.llamacpp.LlamaRuntime;
import dev.pagantic.engine.openai.OpenAiCompatibleEngine;
import dev.pagantic.engine.routing.RoutingEngine;
import dev.pagantic.inference.Engine;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.function.Supplier;
import org.jspecify.annotations.Nullable;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/** Builds the engine that {@code pagantic.engine.*} describes. */
final class Engines {

    private static final Logger LOG = LoggerFactory.getLogger(Engines.class);
    private static final String PREFIX = "pagantic.engine.";

    private final PaganticProperties.Engine properties;
    private final Supplier<LlamaRuntime> runtime;

    /**
     * @param properties the engine's properties
     * @param runtime    the application's llama.cpp runtime, asked for only when a llama.cpp model is configured
     */
    Engines(PaganticProperties.Engine properties, Supplier<LlamaRuntime> runtime) {
        this.properties = properties;
        this.runtime = runtime;
    }

    /** The engine of {@code pagantic.engine.kind}; {@code CONFIG_INVALID} naming the property that is wrong. */
    Engine build() {
        EngineKind kind = properties.getKind();
        if (kind == null) {
            throw invalid(PREFIX + "kind is required (llamacpp, openai or routing)");
        }
        return switch (kind) {
            case LLAMACPP -> llamaCpp(properties.getLlamacpp(), PREFIX + "llamacpp.");
            case OPENAI -> openAi(properties.getOpenai(), PREFIX + "openai.");
            case ROUTING -> routing(properties.getRouting());
        };
    }

    private Engine llamaCpp(PaganticProperties.LlamaCpp llama, String prefix) {
        if (!hasText(llama.getModelPath())) {
            throw invalid(prefix + "model-path is required for a llama.cpp engine");
        }
        Path modelPath = Path.of(llama.getModelPath());
        LlamaCppEngine.Builder builder = LlamaCppEngine.builder()
                .modelPath(modelPath)
                .contextSize(llama.getContextSize())
                .gpuLayers(llama.getGpuLayers())
                .parallel(llama.getParallel());
        Integer threads = llama.getThreads();
        if (threads != null) {
            builder.threads(threads);
        }
        try {
            return builder.runtime(runtime.get()).build();
        } catch (PaganticException failure) {
            if (properties.isFailFast() || failure.code() != ErrorCode.INFERENCE_MODEL_UNAVAILABLE) {
                throw failure;
            }
            LOG.error("The llama.cpp model {} could not be loaded; the application starts without it, its health is "
                    + "DOWN and every request fails until it is restarted with the model in place "
                    + "(pagantic.engine.fail-fast=true stops the start instead): {}", modelPath,
                    failure.getMessage());
            return new UnavailableEngine(failure, modelPath.toString());
        }
    }

    private static Engine openAi(PaganticProperties.OpenAi openAi, String prefix) {
        if (openAi.getBaseUrl() == null || openAi.getBaseUrl().isBlank()) {
            throw invalid(prefix + "base-url is required for an OpenAI-compatible engine");
        }
        OpenAiCompatibleEngine.Builder builder = OpenAiCompatibleEngine.builder()
                .baseUrl(openAi.getBaseUrl())
                .connectTimeout(openAi.getConnectTimeout())
                .requestTimeout(openAi.getRequestTimeout())
                .contextWindow(openAi.getContextWindow());
        if (!hasText(openAi.getModel())) {
            throw invalid(prefix + "model is required for an OpenAI-compatible engine (the model name the server "
                    + "serves)");
        }
        if (hasText(openAi.getApiKey())) {
            builder.apiKey(openAi.getApiKey());
        }
        return builder.modelName(openAi.getModel()).build();
    }

    private Engine routing(PaganticProperties.Routing routing) {
        List<PaganticProperties.Replica> replicas = routing.getReplicas();
        if (replicas.isEmpty()) {
            throw invalid(PREFIX + "routing.replicas must name at least one replica");
        }
        List<Engine> built = new ArrayList<>();
        try {
            for (int i = 0; i < replicas.size(); i++) {
                built.add(replica(replicas.get(i), PREFIX + "routing.replicas[" + i + "]."));
            }
            return RoutingEngine.builder().replicas(built).strategy(routing.getStrategy())
                    .failover(routing.isFailover()).ownReplicas(true).build();
        } catch (RuntimeException failure) {
            built.forEach(Engine::close);
            throw failure;
        }
    }

    private Engine replica(PaganticProperties.Replica replica, String prefix) {
        EngineKind kind = replica.getKind();
        if (kind == EngineKind.LLAMACPP) {
            return llamaCpp(replica.getLlamacpp(), prefix + "llamacpp.");
        }
        if (kind == EngineKind.OPENAI) {
            return openAi(replica.getOpenai(), prefix + "openai.");
        }
        throw invalid(prefix + "kind must be llamacpp or openai, not " + kind);
    }

    private static boolean hasText(@Nullable String value) {
        return value != null && !value.isBlank();
    }

    private static PaganticException invalid(String message) {
        return PaganticException.of(ErrorCode.CONFIG_INVALID, message);
    }
}
