package dev.pagantic.integration;

import dev.pagantic.adapter.api.ApiServer;
import dev.pagantic.engine.llamacpp.LlamaCppEngine;
import dev.pagantic.orchestrate.facade.Orchestrator;
import java.time.Duration;

/**
 * pagantic's HTTP server as a llama-server replacement on stories260K: chat and embeddings from one model, one slot
 * with the default queue in front of it, and the alias {@code gpt-4o-mini} that clients written for OpenAI name. The
 * real-client suites run their clients against it, unchanged.
 */
final class RealModelServer implements AutoCloseable {

    /** The model name the clients use, as an alias of the served model. */
    static final String CLIENT_MODEL = "gpt-4o-mini";
    static final String API_KEY = "sk-pagantic-real-clients";

    private final LlamaCppEngine engine;
    private final Orchestrator orchestrator;
    final ApiServer server;

    RealModelServer() {
        engine = LlamaCppEngine.builder().modelPath(Models.stories()).contextSize(8192).threads(2).parallel(1)
                .embeddings(true).build();
        orchestrator = Orchestrator.builder().engine(engine).build();
        server = ApiServer.builder().orchestrator(orchestrator).modelName("stories260K").alias(CLIENT_MODEL)
                .embeddings(engine::embed).bearerToken(API_KEY).port(0).maxConcurrentRequests(1)
                .drainTimeout(Duration.ofSeconds(5)).build().start();
    }

    /** The served model's embedding of the text, computed in process, without the server. */
    float[] embedInProcess(String text) {
        return engine.embed(text);
    }

    /** The base URL without {@code /v1}. */
    String baseUrl() {
        return server.baseUrl();
    }

    @Override
    public void close() {
        server.close();
        orchestrator.close();
        engine.close();
    }
}
