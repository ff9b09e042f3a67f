package dev.pagantic.integration;

import static org.assertj.core.api.Assertions.assertThat;

import dev.pagantic.adapter.cli.PaganticCli;
import dev.pagantic.core.CallContext;
import dev.pagantic.core.FinishReason;
import dev.pagantic.core.Message;
import dev.pagantic.core.Schema;
import dev.pagantic.core.ToolDefinition;
import dev.pagantic.engine.llamacpp.LlamaCppEngine;
import dev.pagantic.engine.llamacpp.LlamaRuntime;
import dev.pagantic.engine.openai.OpenAiCompatibleEngine;
import dev.pagantic.inference.Request;
import dev.pagantic.inference.Result;
import dev.pagantic.inference.StreamHandler;
import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;

/**
 * The whole chain for real: the OpenAI-compatible engine (and the command line through it) talking HTTP to pagantic's
 * own server, which runs the stories model in process with llama.cpp. Nothing is scripted.
 */
class RealChainTest {

    private static final String MODEL = "stories260K";
    private static LlamaRuntime runtime;
    private static PaganticServer server;
    private static OpenAiCompatibleEngine client;

    @BeforeAll
    static void startTheChain() {
        runtime = LlamaRuntime.create();
        LlamaCppEngine llama = LlamaCppEngine.builder().runtime(runtime).modelPath(Models.stories())
                .contextSize(2048).threads(2).build();
        server = new PaganticServer(llama, MODEL);
        client = server.client(2048);
    }

    /**
     * The runtime stays open: java-llama.cpp frees nothing on close, and a closed model's native threads can crash a
     * later thread dump of this JVM (seen here); the JVM's exit ends them.
     */
    @AfterAll
    static void stopTheChain() {
        if (server != null) {
            client.close();
            server.close();
        }
    }

    private static Request.Builder prompt(String text) {
        return Request.builder().addMessage(Message.user(text)).temperature(0).maxTokens(12);
    }

    @Test
    void aChatCompletionComesBackFromLlamaCppThroughTheServer() {
        Result result = client.infer(prompt("Once upon a time").build());

        assertThat(result.content()).isNotBlank();
        assertThat(result.finishReason()).isIn(FinishReason.STOP, FinishReason.LENGTH);
        assertThat(result.usage().promptTokens()).isPositive();
        assertThat(result.usage().outputTokens()).isBetween(1, 12);
    }

    @Test
    void aStreamedCompletionArrivesInPiecesThatMakeTheAnswer() {
        List<String> deltas = new ArrayList<>();
        Result result = client.infer(CallContext.background(), prompt("The little dog").build(),
                StreamHandler.onContent(deltas::add));

        assertThat(deltas).hasSizeGreaterThan(1);
        assertThat(String.join("", deltas)).isEqualTo(result.content());
    }

    @Test
    void aForcedToolCallTravelsBackToTheClientAsAToolCall() {
        ToolDefinition weather = ToolDefinition.of("get_weather", "Weather of a city",
                Schema.object().required("city", Schema.string().withMaxLength(12)).build());

        Result result = client.infer(Request.builder().addMessage(Message.user("Weather in Paris?"))
                .addTool(weather).temperature(0).maxTokens(200)
                .option("tool_choice", "required").option("parallel_tool_calls", false).build());

        assertThat(result.finishReason()).isEqualTo(FinishReason.TOOL_CALLS);
        assertThat(result.toolCalls()).singleElement().satisfies(call -> {
            assertThat(call.name()).isEqualTo("get_weather");
            assertThat(call.arguments()).containsOnlyKeys("city");
        });
    }

    @Test
    void aJsonSchemaRequestGetsJsonOfTheSchemaFromTheConstrainedModel() {
        Schema character = Schema.object()
                .required("name", Schema.string().withMaxLength(10))
                .required("animal", Schema.enumOf("cat", "dog"))
                .build();

        Result result = client.infer(prompt("Invent a character.").schema(character).maxTokens(80).build());

        JsonNode json = JsonMapper.builder().build().readTree(result.content());
        assertThat(json.path("name").isString()).isTrue();
        assertThat(json.path("name").asString().length()).isLessThanOrEqualTo(10);
        assertThat(json.path("animal").asString()).isIn("cat", "dog");
    }

    @Test
    void theCommandLineTalksToTheServerThroughTheOpenAiEngine() {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        ByteArrayOutputStream err = new ByteArrayOutputStream();
        int code = PaganticCli.run(new String[] {"chat", "--endpoint", server.baseUrl(), "--model-name", MODEL,
                        "--max-tokens", "8", "--temperature", "0", "Once upon a time"},
                new ByteArrayInputStream(new byte[0]), new PrintStream(out, true, StandardCharsets.UTF_8),
                new PrintStream(err, true, StandardCharsets.UTF_8));

        assertThat(code).as(err.toString(StandardCharsets.UTF_8)).isZero();
        assertThat(out.toString(StandardCharsets.UTF_8)).isNotBlank();
        assertThat(server.timelines.requestIds()).isNotEmpty();
    }

}
