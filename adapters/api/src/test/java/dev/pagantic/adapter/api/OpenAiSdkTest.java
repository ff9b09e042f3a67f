package dev.pagantic.adapter.api;

import static org.assertj.core.api.Assertions.assertThat;

import dev.pagantic.testkit.ScriptedEngine;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import tools.jackson.databind.JsonNode;

/**
 * The server as the official OpenAI SDK sees it: {@code src/test/node/openai-client.mjs} runs the {@code openai} npm
 * package (pinned by its package-lock.json and installed by the build's {@code npm ci}) against a scripted server, and
 * prints what it got. Without Node.js the test is skipped, except on CI ({@code CI=true}), where it fails.
 */
class OpenAiSdkTest {

    private static final String TOKEN = "sdk-test-token";

    @Test
    void theOfficialOpenAiSdkWorksUnchanged() throws Exception {
        Path node = NodeTools.node("openai");
        ScriptedEngine engine = ScriptedEngine.builder()
                .reply("Hello from pagantic.")
                .reply("Streaming works word by word.")
                .replyCallingTool("get_weather", Map.of("city", "Paris"))
                .reply("It is sunny in Paris.")
                .reply("{\"sentiment\": \"positive\"}")
                .build();
        try (TestServer api = TestServer.start(engine, b -> b.bearerToken(TOKEN))) {
            Process process = new ProcessBuilder(node.toString(), "openai-client.mjs", api.server.baseUrl(), TOKEN)
                    .directory(NodeTools.CLIENT_DIR.toFile()).redirectErrorStream(true).start();
            process.getOutputStream().close();
            boolean exited = process.waitFor(60, TimeUnit.SECONDS);
            String output = new String(process.getInputStream().readAllBytes(), StandardCharsets.UTF_8).strip();
            if (!exited) {
                process.destroyForcibly();
            }
            assertThat(exited).as("the client finished").isTrue();
            assertThat(process.exitValue()).as(output).isZero();

            String lastLine = output.substring(output.lastIndexOf('\n') + 1);
            JsonNode results = TestServer.JSON.readTree(lastLine);

            JsonNode chat = results.path("chat");
            assertThat(chat.path("content").asString()).isEqualTo("Hello from pagantic.");
            assertThat(chat.path("finish_reason").asString()).isEqualTo("stop");
            assertThat(chat.path("model").asString()).isEqualTo("gpt-4o-mini");
            assertThat(chat.path("id").asString()).startsWith("chatcmpl-");
            assertThat(chat.path("total_tokens").asInt()).isPositive();

            JsonNode stream = results.path("stream");
            assertThat(stream.path("content").asString()).isEqualTo("Streaming works word by word.");
            assertThat(stream.path("chunks").asInt()).isGreaterThan(5);
            assertThat(stream.path("finish_reason").asString()).isEqualTo("stop");
            assertThat(stream.path("completion_tokens").asInt()).isEqualTo(5);

            JsonNode tools = results.path("tools");
            assertThat(tools.path("first_finish_reason").asString()).isEqualTo("tool_calls");
            assertThat(tools.path("tool_name").asString()).isEqualTo("get_weather");
            assertThat(tools.path("tool_arguments").path("city").asString()).isEqualTo("Paris");
            assertThat(tools.path("final_content").asString()).isEqualTo("It is sunny in Paris.");
            assertThat(tools.path("final_finish_reason").asString()).isEqualTo("stop");

            assertThat(results.path("json_schema").path("parsed").path("sentiment").asString()).isEqualTo("positive");
            assertThat(results.path("models").path(0).asString()).isEqualTo("test-model");
            assertThat(results.path("unauthorized_status").asInt()).isEqualTo(401);
        }
    }
}
