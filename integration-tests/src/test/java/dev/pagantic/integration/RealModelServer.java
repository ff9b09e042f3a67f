package dev.pagantic.integration;

import dev.pagantic.adapter.api.ApiServer;
import dev.pagantic.engine.llamacpp.LlamaCppEngine;
import dev.pagantic.orchestrate.facade.Orchestrator;
import java.time.Duration;
import org.junit.jupiter.api.extension.AfterAllCallback;
import org.junit.jupiter.api.extension.BeforeAllCallback;
import org.junit.jupiter.api.extension.ExtensionContext;

/**
 * pagantic's HTTP server as a llama-server replacement on stories260K: chat and embeddings from one model, one slot
 * with the default queue in front of it, and the alias {@code gpt-4o-mini} that clients written for OpenAI name. The
 * real-client suites run their clients against it, unchanged: a class registers one
 * ({@code @RegisterExtension static final RealModelServer api = new RealModelServer();}) and JUnit starts it before the
 * class's tests (skipping them when the model is absent) and closes it after them.
 */
final class RealModelServer implements BeforeAllCallback, AfterAllCallback, AutoCloseable {

    /** The model name the clients use, as an alias of the served model. */
    static final String CLIENT_MODEL = "gpt-4o-mini";
    static final String API_KEY = "sk-pagantic-real-clients";

    // set by start(); null before it, or when the model is absent and the tests are skipped
    private LlamaCppEngine engine;
    private Orchestrator orchestrator;
    private ApiServer server;

    /** A server started now, for one test's try-with-resources. */
    static RealModelServer started() {
        RealModelServer server = new RealModelServer();
        server.start();
        return server;
    }

    @Override
    public void beforeAll(ExtensionContext context) {
        start();
    }

    @Override
    public void afterAll(ExtensionContext context) {
        close();
    }

    private void start() {
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
        if (server != null) {
            server.close();
        }
        if (orchestrator != null) {
            orchestrator.close();
        }
        if (engine != null) {
            engine.close();
        }
    }
}
