package dev.pagantic.integration;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.File;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Optional;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.Test;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;

/**
 * The official {@code openai} npm SDK (with zod), as its users call it, against pagantic's server on stories260K:
 * {@code src/test/node/openai-real-model.mjs} makes the calls and prints what it got. Seed, stop, n, streaming, tool
 * calls (their arguments streamed in pieces), {@code parse} with a zod schema, embeddings and the error of an unknown
 * model. The build's {@code npm ci} installs the packages; without Node.js the test is skipped, except on CI.
 */
class OpenAiNodeSdkTest {

    private static final Path CLIENT_DIR = Path.of("src", "test", "node");

    @Test
    void theOfficialSdkWorksUnchangedAgainstTheServerOnARealModel() throws Exception {
        Path node = node();
        JsonNode out;
        try (RealModelServer api = RealModelServer.started()) {
            Process process = new ProcessBuilder(node.toString(), "openai-real-model.mjs", api.baseUrl(),
                    RealModelServer.API_KEY).directory(CLIENT_DIR.toFile()).redirectErrorStream(true).start();
            process.getOutputStream().close();
            boolean exited = process.waitFor(300, TimeUnit.SECONDS);
            String output = new String(process.getInputStream().readAllBytes(), StandardCharsets.UTF_8).strip();
            if (!exited) {
                process.destroyForcibly();
            }
            assertThat(exited).as("the client finished").isTrue();
            assertThat(process.exitValue()).as(output).isZero();
            out = JsonMapper.builder().build().readTree(output.substring(output.lastIndexOf('\n') + 1));
        }

        JsonNode seed = out.path("seed");
        assertThat(seed.path("first").asString()).isNotEmpty().isEqualTo(seed.path("second").asString());

        JsonNode stop = out.path("stop");
        String greedy = stop.path("greedy").asString();
        String word = stop.path("word").asString();
        assertThat(greedy).contains(word);
        assertThat(stop.path("stopped").asString()).as("stopped at '%s'", word)
                .isEqualTo(greedy.substring(0, greedy.indexOf(word)));

        assertThat(out.path("n").path("indices")).extracting(JsonNode::asInt).containsExactly(0, 1, 2);
        assertThat(out.path("n").path("completion_tokens").asInt()).isGreaterThan(3);

        JsonNode stream = out.path("stream");
        assertThat(stream.path("chunks").asInt()).isGreaterThan(3);
        assertThat(stream.path("content").asString()).isNotBlank();
        assertThat(stream.path("completion_tokens").asInt()).isPositive();

        JsonNode tools = out.path("tools");
        assertThat(tools.path("finish_reason").asString()).isEqualTo("tool_calls");
        assertThat(tools.path("name").asString()).isEqualTo("get_weather");
        assertThat(tools.path("arguments").path("city").isString()).as("%s", tools).isTrue();
        JsonNode toolStream = out.path("tool_stream");
        assertThat(toolStream.path("argument_deltas").asInt()).as("%s", toolStream).isGreaterThan(1);
        assertThat(toolStream.path("arguments").path("city").isString()).isTrue();
        assertThat(toolStream.path("finish_reason").asString()).isEqualTo("tool_calls");

        JsonNode parsed = out.path("parse").path("parsed");
        assertThat(parsed.path("sentiment").asString()).isIn("positive", "negative");
        assertThat(parsed.path("happy").isBoolean()).isTrue();

        JsonNode embeddings = out.path("embeddings");
        assertThat(embeddings.path("count").asInt()).isEqualTo(2);
        assertThat(embeddings.path("dimension").asInt()).isEqualTo(64); // stories260K's embedding size
        assertThat(embeddings.path("same_as_float").asBoolean()).isTrue();
        assertThat(embeddings.path("differ").asBoolean()).isTrue();

        JsonNode unknown = out.path("unknown_model");
        assertThat(unknown.path("status").asInt()).isEqualTo(404);
        assertThat(unknown.path("code").asString()).isEqualTo("model_not_found");
        assertThat(unknown.path("class").asString()).isEqualTo("NotFoundError");
    }

    private static Path node() {
        Optional<Path> node = Optional.empty();
        String path = System.getenv("PATH");
        for (String dir : path == null ? new String[0] : path.split(File.pathSeparator)) {
            Path candidate = Path.of(dir, "node");
            if (Files.isExecutable(candidate)) {
                node = Optional.of(candidate);
                break;
            }
        }
        boolean installed = Files.isDirectory(CLIENT_DIR.resolve("node_modules").resolve("openai"));
        if (node.isEmpty() || !installed) {
            String missing = node.isEmpty() ? "node is not on the PATH" : "the openai npm package is not installed";
            if ("true".equalsIgnoreCase(System.getenv("CI"))) {
                throw new AssertionError("cannot run on CI: " + missing);
            }
            Assumptions.abort("skipped: " + missing);
        }
        return node.orElseThrow();
    }
}
