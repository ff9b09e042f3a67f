package dev.pagantic.adapter.api;

import static org.assertj.core.api.Assertions.assertThat;

import dev.pagantic.testkit.ScriptedEngine;
import java.io.File;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.Test;
import tools.jackson.databind.JsonNode;

/**
 * The server as the official OpenAI SDK sees it: {@code src/test/node/openai-client.mjs} runs the {@code openai} npm
 * package (pinned by its package-lock.json and installed by the build's {@code npm ci}) against a scripted server, and
 * prints what it got. Without Node.js the test is skipped, except on CI ({@code CI=true}), where it fails.
 */
class OpenAiSdkTest {

    private static final Path CLIENT_DIR = Path.of("src", "test", "node");
    private static final String TOKEN = "sdk-test-token";

    @Test
    void theOfficialOpenAiSdkWorksUnchanged() throws Exception {
        Path node = nodeExecutable();
        ScriptedEngine engine = ScriptedEngine.builder()
                .reply("Hello from pagantic.")
                .reply("Streaming works word by word.")
                .replyCallingTool("get_weather", Map.of("city", "Paris"))
                .reply("It is sunny in Paris.")
                .reply("{\"sentiment\": \"positive\"}")
                .build();
        try (TestServer api = TestServer.start(engine, b -> b.bearerToken(TOKEN))) {
            Process process = new ProcessBuilder(node.toString(), "openai-client.mjs", api.server.baseUrl(), TOKEN)
                    .directory(CLIENT_DIR.toFile()).redirectErrorStream(true).start();
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

    /** Node.js and the installed client, or a skip (a failure on CI) saying what is missing. */
    private static Path nodeExecutable() throws IOException {
        Optional<Path> node = onPath("node");
        String missing = node.isEmpty() ? "node is not on the PATH"
                : !Files.isDirectory(CLIENT_DIR.resolve("node_modules").resolve("openai"))
                        ? "the openai npm package is not installed in " + CLIENT_DIR.toAbsolutePath()
                                + " (the build runs npm ci there; is npm on the PATH?)"
                        : null;
        if (missing != null) {
            if ("true".equalsIgnoreCase(System.getenv("CI"))) {
                throw new AssertionError("OpenAI SDK test cannot run on CI: " + missing);
            }
            Assumptions.abort("OpenAI SDK test skipped: " + missing);
        }
        return node.get();
    }

    private static Optional<Path> onPath(String program) {
        String path = System.getenv("PATH");
        if (path == null) {
            return Optional.empty();
        }
        boolean windows = System.getProperty("os.name", "").toLowerCase().startsWith("windows");
        for (String dir : path.split(File.pathSeparator)) {
            for (String name : windows ? new String[] {program + ".exe", program + ".cmd"} : new String[] {program}) {
                Path candidate = Path.of(dir).resolve(name);
                if (Files.isRegularFile(candidate) && Files.isExecutable(candidate)) {
                    return Optional.of(candidate);
                }
            }
        }
        return Optional.empty();
    }
}
