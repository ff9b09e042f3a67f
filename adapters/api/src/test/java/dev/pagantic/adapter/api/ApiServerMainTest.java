package dev.pagantic.adapter.api;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.pagantic.core.ErrorCode;
import dev.pagantic.core.PaganticException;
import dev.pagantic.tck.ModelAssumptions;
import dev.pagantic.testkit.TestModels;
import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import tools.jackson.databind.JsonNode;

class ApiServerMainTest {

    private final HttpClient http = HttpClient.newHttpClient();

    @Test
    void optionsNameAnEngineAndTheServersSettings() {
        ServerOptions options = ApiServerMain.options("--scripted", "Hi.", "Bye.", "--port", "0", "--token", "t",
                "--host", "0.0.0.0", "--max-concurrent", "2");

        assertThat(options.scripted()).containsExactly("Hi.", "Bye.");
        assertThat(options.model()).isEmpty();
        assertThat(options.port()).isZero();
        assertThat(options.token()).isEqualTo("t");
        assertThat(options.host()).isEqualTo("0.0.0.0");
        assertThat(options.maxConcurrent()).isEqualTo(2);
    }

    @Test
    void theTokenDefaultsToTheEnvironmentAndAModelServesOneRequestAtATime() {
        ServerOptions options = ServerOptions.parse(List.of("--model", "m.gguf"), Map.of("PAGANTIC_API_TOKEN", "env"));

        assertThat(options.token()).isEqualTo("env");
        assertThat(options.model()).contains(Path.of("m.gguf"));
        assertThat(ServerOptions.parse(List.of("--model", "a.gguf", "--model", "b.gguf"), Map.of()).models())
                .containsExactly(Path.of("a.gguf"), Path.of("b.gguf"));
        assertThat(options.maxConcurrent()).isEqualTo(1);
    }

    @Test
    void argumentsThatMakeNoServerAreRefusedWithAMessage() {
        assertThatThrownBy(() -> ApiServerMain.options()).hasMessageContaining("--model FILE or --scripted");
        assertThatThrownBy(() -> ApiServerMain.options("--model", "a.gguf", "--scripted", "x"))
                .hasMessageContaining("either");
        assertThatThrownBy(() -> ApiServerMain.options("--scripted")).hasMessageContaining("at least one reply");
        assertThatThrownBy(() -> ApiServerMain.options("--scripted", "x", "--port", "http"))
                .hasMessageContaining("--port needs a number");
        assertThatThrownBy(() -> ApiServerMain.options("--scripted", "x", "--verbose"))
                .hasMessageContaining("unknown option '--verbose'");
        assertThat(ApiServerMain.options("--help").help()).isTrue();
    }

    @Test
    void aScriptedServerAnswersItsRepliesInTurn() throws Exception {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        try (ApiServerMain.Running running = ApiServerMain.start(
                ApiServerMain.options("--scripted", "First.", "Second.", "--port", "0"),
                new PrintStream(out, true, StandardCharsets.UTF_8))) {
            String base = running.server().baseUrl();

            assertThat(out.toString(StandardCharsets.UTF_8)).contains("serving 'scripted' at " + base);
            assertThat(content(base)).isEqualTo("First.");
            assertThat(content(base)).isEqualTo("Second.");
            assertThat(content(base)).isEqualTo("First.");
        }
    }

    @Test
    void anMcpConfigNeedsTheMcpClientThatOnlyTheDistributionBrings() {
        ServerOptions options = ApiServerMain.options("--scripted", "x", "--port", "0", "--mcp-config", "mcp.json");

        assertThat(options.mcpConfig()).contains(Path.of("mcp.json"));
        assertThatThrownBy(() -> ApiServerMain.start(options,
                new PrintStream(new ByteArrayOutputStream(), true, StandardCharsets.UTF_8)))
                .hasMessageContaining("--mcp-config needs the MCP client");
    }

    @Test
    void aModelFileThatIsNotThereIsAnErrorBeforeAnythingStarts() {
        assertThatThrownBy(() -> ApiServerMain.start(ApiServerMain.options("--model", "no/such.gguf", "--port", "0"),
                new PrintStream(new ByteArrayOutputStream(), true, StandardCharsets.UTF_8)))
                .hasMessageContaining("no model file at");
    }

    @Test
    void aModelOfAnArchitectureTheBundledLlamaCppDoesNotKnowStopsTheServerFromStartingWithItsName(@TempDir Path dir)
            throws Exception {
        Path qwen3 = TestModels.withArchitecture(testModel("stories260K.gguf"), "qwen3", dir);

        assertThatThrownBy(() -> ApiServerMain.start(ApiServerMain.options("--model", qwen3.toString(), "--port", "0"),
                new PrintStream(new ByteArrayOutputStream(), true, StandardCharsets.UTF_8)))
                .isInstanceOfSatisfying(PaganticException.class, refused -> {
                    assertThat(refused.code()).isEqualTo(ErrorCode.INFERENCE_MODEL_UNAVAILABLE);
                    assertThat(refused.getMessage()).contains("'qwen3'", "b4916", "llama-server");
                });
    }

    @Test
    void aServedModelTheBundledLlamaCppCannotRunIsAnswered400NamingItsArchitectureWhileTheOthersServe(
            @TempDir Path dir) throws Exception {
        Path qwen3 = TestModels.withArchitecture(testModel("stories260K.gguf"), "qwen3", dir);
        String qwen3Name = qwen3.getFileName().toString().replace(".gguf", "");
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        try (ApiServerMain.Running running = ApiServerMain.start(ApiServerMain.options(
                        "--model", testModel("stories260K.gguf").toString(), "--model", qwen3.toString(),
                        "--model", testModel("llama-2-tiny-random.gguf").toString(),
                        "--port", "0", "--context-size", "512", "--threads", "2"),
                new PrintStream(out, true, StandardCharsets.UTF_8))) {
            String base = running.server().baseUrl();
            assertThat(out.toString(StandardCharsets.UTF_8)).contains("loaded on first request: " + qwen3Name
                    + ", llama-2-tiny-random");
            JsonNode listed = TestServer.JSON.readTree(get(base + "/v1/models").body()).path("data");
            assertThat(listed.findValuesAsString("id")).containsExactly("stories260K", "llama-2-tiny-random",
                    qwen3Name);

            for (int attempt = 0; attempt < 2; attempt++) { // the failure is kept, not retried
                HttpResponse<String> refused = post(base, chat(qwen3Name));
                assertThat(refused.statusCode()).as(refused.body()).isEqualTo(400);
                JsonNode error = TestServer.JSON.readTree(refused.body()).path("error");
                assertThat(error.path("code").asString()).isEqualTo("model_not_available");
                assertThat(error.path("type").asString()).isEqualTo("invalid_request_error");
                assertThat(error.path("pagantic_code").asString()).isEqualTo("INFERENCE_MODEL_UNAVAILABLE");
                assertThat(error.path("message").asString()).contains("'" + qwen3Name + "' cannot be served",
                        "'qwen3'", "b4916", "llama-server");
            }
            HttpResponse<String> other = post(base, chat("llama-2-tiny-random"));
            assertThat(other.statusCode()).as(other.body()).isEqualTo(200);
            assertThat(TestServer.JSON.readTree(other.body()).path("model").asString())
                    .isEqualTo("llama-2-tiny-random");
            HttpResponse<String> byDefault = post(base, chat(""));
            assertThat(byDefault.statusCode()).as(byDefault.body()).isEqualTo(200);
            assertThat(TestServer.JSON.readTree(byDefault.body()).path("model").asString()).isEqualTo("stories260K");
        }
    }

    @Test
    void twoModelsOfOneNameAreRefusedBeforeAnythingLoads(@TempDir Path dir) throws Exception {
        Path copy = Files.copy(testModel("stories260K.gguf"), Files.createDirectory(dir.resolve("b"))
                .resolve("stories260K.gguf"));

        assertThatThrownBy(() -> ApiServerMain.start(ApiServerMain.options("--model",
                        testModel("stories260K.gguf").toString(), "--model", copy.toString(), "--port", "0"),
                new PrintStream(new ByteArrayOutputStream(), true, StandardCharsets.UTF_8)))
                .hasMessageContaining("two models are named 'stories260K'");
    }

    @Test
    void aLlamaCppModelIsServedThroughTheOpenAiEndpoint() throws Exception {
        Path model = testModel("stories260K.gguf");
        try (ApiServerMain.Running running = ApiServerMain.start(ApiServerMain.options("--model", model.toString(),
                        "--port", "0", "--context-size", "2048", "--threads", "2"),
                new PrintStream(new ByteArrayOutputStream(), true, StandardCharsets.UTF_8))) {
            HttpResponse<String> response = post(running.server().baseUrl(),
                    "{\"messages\":[{\"role\":\"user\",\"content\":\"Once upon a time\"}],\"max_tokens\":8}");

            assertThat(response.statusCode()).as(response.body()).isEqualTo(200);
            JsonNode body = TestServer.JSON.readTree(response.body());
            assertThat(body.path("model").asString()).isEqualTo("stories260K");
            assertThat(body.path("choices").path(0).path("message").path("content").asString()).isNotBlank();
            assertThat(body.path("usage").path("completion_tokens").asInt()).isBetween(1, 8);
        }
    }

    private String content(String base) throws Exception {
        HttpResponse<String> response = post(base, "{\"messages\":[{\"role\":\"user\",\"content\":\"Next?\"}]}");
        return TestServer.JSON.readTree(response.body()).path("choices").path(0).path("message").path("content")
                .asString();
    }

    private static String chat(String model) {
        return "{\"model\":\"" + model + "\",\"messages\":[{\"role\":\"user\",\"content\":\"Once upon\"}],"
                + "\"max_tokens\":4}";
    }

    private HttpResponse<String> get(String url) throws Exception {
        return http.send(HttpRequest.newBuilder(URI.create(url)).GET().build(), HttpResponse.BodyHandlers.ofString());
    }

    private HttpResponse<String> post(String base, String body) throws Exception {
        return http.send(HttpRequest.newBuilder(URI.create(base + "/v1/chat/completions"))
                .header("Content-Type", "application/json").POST(HttpRequest.BodyPublishers.ofString(body)).build(),
                HttpResponse.BodyHandlers.ofString());
    }

    private static Path testModel(String file) {
        return ModelAssumptions.require(file);
    }
}
