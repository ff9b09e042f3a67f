package dev.pagantic.integration;

import dev.pagantic.adapter.api.ApiServer;
import dev.pagantic.engine.openai.ConstraintMode;
import dev.pagantic.engine.openai.OpenAiCompatibleEngine;
import dev.pagantic.inference.Engine;
import dev.pagantic.orchestrate.facade.Orchestrator;
import dev.pagantic.orchestrate.facade.RequestTimelines;
import java.time.Duration;

/** pagantic's own HTTP server on a loopback port over an orchestrator on the given engine; closes both. */
final class PaganticServer implements AutoCloseable {

    final RequestTimelines timelines = RequestTimelines.create(1000);
    final Orchestrator orchestrator;
    final ApiServer server;
    private final String modelName;

    PaganticServer(Engine engine, String modelName) {
        this.modelName = modelName;
        this.orchestrator = Orchestrator.builder().engine(engine).eventLog(timelines).build();
        this.server = ApiServer.builder().orchestrator(orchestrator).timelines(timelines).modelName(modelName)
                .port(0).maxConcurrentRequests(16).drainTimeout(Duration.ofSeconds(5)).build().start();
    }

    /** An OpenAI-compatible engine pointed at this server (schemas as json_schema: the server takes no grammar). */
    OpenAiCompatibleEngine client(int contextWindow) {
        return client(contextWindow, OpenAiCompatibleEngine.DEFAULT_REQUEST_TIMEOUT);
    }

    /** A client whose calls give up after the timeout (a retryable INFERENCE_ENGINE_ERROR). */
    OpenAiCompatibleEngine client(int contextWindow, Duration requestTimeout) {
        return OpenAiCompatibleEngine.builder().baseUrl(server.baseUrl()).modelName(modelName)
                .constraintMode(ConstraintMode.JSON_SCHEMA).contextWindow(contextWindow)
                .requestTimeout(requestTimeout).build();
    }

    String baseUrl() {
        return server.baseUrl();
    }

    @Override
    public void close() {
        server.close();
        orchestrator.close();
    }
}
