package dev.pagantic.adapter.api;

import dev.pagantic.inference.Engine;
import dev.pagantic.orchestrate.facade.Orchestrator;
import dev.pagantic.orchestrate.facade.RequestTimelines;
import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.function.Consumer;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;

/** A server on an ephemeral port over an orchestrator on the given engine, with an HTTP client to talk to it. */
final class TestServer implements AutoCloseable {

    static final JsonMapper JSON = JsonMapper.builder().build();

    final RequestTimelines events = RequestTimelines.create(1000);
    final Orchestrator orchestrator;
    final ApiServer server;
    final HttpClient http = HttpClient.newBuilder().version(HttpClient.Version.HTTP_1_1)
            .connectTimeout(Duration.ofSeconds(5)).build();

    private TestServer(Engine engine, Consumer<Orchestrator.Builder> wiring, Consumer<ApiServer.Builder> settings) {
        Orchestrator.Builder orchestrator = Orchestrator.builder().engine(engine).eventLog(events);
        wiring.accept(orchestrator);
        this.orchestrator = orchestrator.build();
        ApiServer.Builder builder = ApiServer.builder().orchestrator(this.orchestrator).timelines(events)
                .modelName("test-model").alias("gpt-test").alias("gpt-4o-mini").port(0)
                .drainTimeout(Duration.ofSeconds(10));
        settings.accept(builder);
        this.server = builder.build().start();
    }

    static TestServer start(Engine engine) {
        return new TestServer(engine, orchestrator -> { }, builder -> { });
    }

    static TestServer start(Engine engine, Consumer<ApiServer.Builder> settings) {
        return new TestServer(engine, orchestrator -> { }, settings);
    }

    /** A server whose orchestrator is also configured by {@code wiring} (tools, a system prompt). */
    static TestServer wired(Engine engine, Consumer<Orchestrator.Builder> wiring) {
        return new TestServer(engine, wiring, builder -> { });
    }

    URI uri(String path) {
        return URI.create(server.baseUrl() + path);
    }

    HttpRequest.Builder request(String path, String... headers) {
        HttpRequest.Builder request = HttpRequest.newBuilder(uri(path)).timeout(Duration.ofSeconds(20));
        for (int i = 0; i < headers.length; i += 2) {
            request.header(headers[i], headers[i + 1]);
        }
        return request;
    }

    HttpResponse<String> post(String path, String body, String... headers) {
        return send(request(path, headers).header("Content-Type", "application/json")
                .POST(HttpRequest.BodyPublishers.ofString(body)).build());
    }

    CompletableFuture<HttpResponse<String>> postAsync(String path, String body, String... headers) {
        return http.sendAsync(request(path, headers).header("Content-Type", "application/json")
                .POST(HttpRequest.BodyPublishers.ofString(body)).build(), HttpResponse.BodyHandlers.ofString());
    }

    HttpResponse<String> get(String path, String... headers) {
        return send(request(path, headers).GET().build());
    }

    HttpResponse<String> send(HttpRequest request) {
        try {
            return http.send(request, HttpResponse.BodyHandlers.ofString());
        } catch (IOException e) {
            throw new IllegalStateException(e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException(e);
        }
    }

    static JsonNode json(HttpResponse<String> response) {
        return JSON.readTree(response.body());
    }

    /** The {@code data:} payloads of a server-sent event stream, in order. */
    static List<String> sseData(String body) {
        List<String> data = new ArrayList<>();
        for (String event : body.split("\n\n")) {
            for (String line : event.split("\n")) {
                if (line.startsWith("data: ")) {
                    data.add(line.substring("data: ".length()));
                }
            }
        }
        return data;
    }

    /** The events recorded for a request, as the events endpoint returns them. */
    JsonNode timeline(String requestId) {
        return json(get("/v1/requests/" + requestId + "/events"));
    }

    /** A chat completion body with one user message. */
    static String chat(String userMessage, String... extraFields) {
        StringBuilder body = new StringBuilder("{\"model\":\"gpt-test\",\"messages\":[{\"role\":\"user\",\"content\":")
                .append(JSON.writeValueAsString(userMessage)).append("}]");
        for (String field : extraFields) {
            body.append(',').append(field);
        }
        return body.append('}').toString();
    }

    @Override
    public void close() {
        server.close();
        orchestrator.close();
    }
}
