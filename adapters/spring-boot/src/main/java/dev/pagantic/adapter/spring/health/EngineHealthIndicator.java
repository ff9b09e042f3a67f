package dev.pagantic.adapter.spring.health;

import dev.pagantic.adapter.spring.UnavailableEngine;
import dev.pagantic.engine.llamacpp.LlamaCppEngine;
import dev.pagantic.engine.openai.OpenAiCompatibleEngine;
import dev.pagantic.engine.routing.ReplicaHealth;
import dev.pagantic.engine.routing.RoutingEngine;
import dev.pagantic.inference.Engine;
import dev.pagantic.inference.ModelInfo;
import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.springframework.boot.health.contributor.Health;
import org.springframework.boot.health.contributor.HealthIndicator;

/**
 * The engine's health, under the key {@code pagantic} of actuator's health endpoint.
 * <ul>
 *   <li>A model that could not be loaded ({@link UnavailableEngine}): DOWN, with the error code and the reason.</li>
 *   <li>A llama.cpp engine: UP, its model is loaded (an engine exists only once its model is).</li>
 *   <li>An OpenAI-compatible engine: UP when the server answers {@code GET /v1/models} with a 2xx status (the API key
 *       of {@code pagantic.engine.openai.api-key} is sent when set), DOWN with the status or the connection failure
 *       otherwise; the probe waits at most {@link #PROBE_TIMEOUT}.</li>
 *   <li>A routing engine: UP while at least one replica is healthy (the fleet's own view: a replica is unhealthy
 *       after consecutive failures, for a cooldown), DOWN when none is; each replica's state is a detail.</li>
 *   <li>Any other engine (one the application built): UP, with its model's name.</li>
 * </ul>
 */
public final class EngineHealthIndicator implements HealthIndicator {

    /** The longest the probe of an OpenAI-compatible server waits, connecting and answering each. */
    public static final Duration PROBE_TIMEOUT = Duration.ofSeconds(3);

    private final Engine engine;
    private final Optional<String> apiKey;
    private final HttpClient http;

    /**
     * @param engine the engine to report on
     * @param apiKey the API key the probe of an OpenAI-compatible server sends, if any
     */
    public EngineHealthIndicator(Engine engine, Optional<String> apiKey) {
        this.engine = engine;
        this.apiKey = apiKey;
        this.http = HttpClient.newBuilder().connectTimeout(PROBE_TIMEOUT).build();
    }

    @Override
    public Health health() {
        if (engine instanceof UnavailableEngine unavailable) {
            return Health.down().withDetail("engine", "unavailable")
                    .withDetail("model", unavailable.modelInfo().name())
                    .withDetail("error", unavailable.failure().code().name())
                    .withDetail("reason", String.valueOf(unavailable.failure().getMessage())).build();
        }
        if (engine instanceof LlamaCppEngine) {
            return withModel(Health.up().withDetail("engine", "llamacpp").withDetail("loaded", true)).build();
        }
        if (engine instanceof OpenAiCompatibleEngine openAi) {
            return probe(openAi.endpoint().resolve("../models"));
        }
        if (engine instanceof RoutingEngine routing) {
            return fleet(routing.health());
        }
        return withModel(Health.up().withDetail("engine", engine.getClass().getSimpleName())).build();
    }

    private Health.Builder withModel(Health.Builder health) {
        ModelInfo info = engine.modelInfo();
        return health.withDetail("model", info.name()).withDetail("contextWindow", info.contextWindow());
    }

    private Health probe(URI models) {
        HttpRequest.Builder request = HttpRequest.newBuilder(models).timeout(PROBE_TIMEOUT).GET();
        apiKey.ifPresent(key -> request.header("Authorization", "Bearer " + key));
        Health.Builder health = Health.unknown().withDetail("engine", "openai").withDetail("endpoint",
                models.toString());
        try {
            int status = http.send(request.build(), HttpResponse.BodyHandlers.discarding()).statusCode();
            health = status / 100 == 2 ? health.up() : health.down();
            return health.withDetail("status", status).build();
        } catch (InterruptedException interrupted) {
            Thread.currentThread().interrupt();
            return health.down().withDetail("reason", "interrupted").build();
        } catch (IOException | RuntimeException unreachable) {
            return health.down().withDetail("reason", unreachable.getClass().getSimpleName()
                    + (unreachable.getMessage() == null ? "" : ": " + unreachable.getMessage())).build();
        }
    }

    private static Health fleet(List<ReplicaHealth> replicas) {
        boolean anyHealthy = false;
        Map<String, Object> details = new LinkedHashMap<>();
        for (ReplicaHealth replica : replicas) {
            anyHealthy |= replica.healthy();
            details.put(replica.index() + ":" + replica.modelName(), Map.of("healthy", replica.healthy(),
                    "inFlight", replica.inFlight(), "consecutiveFailures", replica.consecutiveFailures()));
        }
        return (anyHealthy ? Health.up() : Health.down()).withDetail("engine", "routing")
                .withDetail("replicas", details).build();
    }
}
