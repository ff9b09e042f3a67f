package dev.pagantic.adapter.api;

import static org.assertj.core.api.Assertions.assertThat;

import dev.pagantic.core.Schema;
import dev.pagantic.core.ToolDefinition;
import dev.pagantic.testkit.ScriptedEngine;
import dev.pagantic.testkit.SlowEngine;
import dev.pagantic.tool.Tool;
import dev.pagantic.tool.ToolRegistry;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import tools.jackson.databind.JsonNode;

/**
 * The playground page at {@code /} in headless Chromium (Debian's, driven by playwright-core from
 * {@code src/test/node/playground-browser.mjs}): a message sent from the page streams its answer in, and the request's
 * timeline shows one bar per inference and per tool call.
 */
class PlaygroundPageTest {

    @Test
    void theServerServesThePlaygroundPageWithoutAToken() {
        try (TestServer api = TestServer.start(ScriptedEngine.replying("hi"), b -> b.bearerToken("secret"))) {
            HttpResponse<String> page = api.get("/");

            assertThat(page.statusCode()).isEqualTo(200);
            assertThat(page.headers().firstValue("Content-Type")).hasValueSatisfying(
                    type -> assertThat(type).startsWith("text/html"));
            assertThat(page.body()).contains("<title>pagantic playground</title>", "/v1/chat/completions",
                    "/events");
        }
    }

    @Test
    void aMessageStreamsItsAnswerAndTheTimelineShowsEachInferenceAndToolCall() throws Exception {
        Path node = NodeTools.node("playwright-core");
        Path chromium = NodeTools.chromium();
        Tool weather = Tool.builder(ToolDefinition.of("get_weather", "Weather of a city",
                        Schema.object().required("city", Schema.string()).build()))
                .handler((ctx, args) -> "Sunny in " + args.get("city")).build();
        ScriptedEngine engine = ScriptedEngine.builder()
                .replyCallingTool("get_weather", Map.of("city", "Paris"))
                .reply("It is sunny and warm in Paris today, enjoy the walk by the river.")
                .build();
        // tokens 40 ms apart, so that the page visibly receives the answer in pieces
        SlowEngine slow = SlowEngine.builder().delegate(engine).delayPerToken(Duration.ofMillis(40)).build();
        try (TestServer api = TestServer.wired(slow, o -> o.tools(ToolRegistry.of(weather)))) {
            Process browser = new ProcessBuilder(node.toString(), "playground-browser.mjs", api.server.baseUrl(),
                    chromium.toString()).directory(NodeTools.CLIENT_DIR.toFile()).redirectErrorStream(true).start();
            browser.getOutputStream().close();
            boolean exited = browser.waitFor(90, TimeUnit.SECONDS);
            String output = new String(browser.getInputStream().readAllBytes(), StandardCharsets.UTF_8).strip();
            if (!exited) {
                browser.destroyForcibly();
            }
            assertThat(exited).as("the browser run finished: %s", output).isTrue();
            assertThat(browser.exitValue()).as(output).isZero();

            JsonNode page = TestServer.JSON.readTree(output.substring(output.lastIndexOf('\n') + 1));
            assertThat(page.path("answer").asString())
                    .isEqualTo("It is sunny and warm in Paris today, enjoy the walk by the river.");
            assertThat(page.path("partialAnswersSeen").asInt()).as("the answer grew while streaming").isGreaterThan(2);
            assertThat(page.path("inferenceBars").asInt()).isEqualTo(2);
            assertThat(page.path("toolBars").asInt()).isEqualTo(1);
            assertThat(page.path("states").toString()).contains("PREPARE", "EXECUTE", "COMPLETE");
        }
    }

    @Test
    void fiveTurnsThenAResetChatWithTheServedModelOneAnswerAtATimeAndTheTimelineMatchesTheEvents() throws Exception {
        Path node = NodeTools.node("playwright-core");
        Path chromium = NodeTools.chromium();
        ScriptedEngine.Builder script = ScriptedEngine.builder().modelName("stories-test");
        for (int turn = 1; turn <= 6; turn++) {
            script.reply("Answer number " + turn + " is a short story about a cat and a dog.");
        }
        ScriptedEngine engine = script.build();
        // tokens 30 ms apart: each answer streams for a while, long enough to see Send disabled
        SlowEngine slow = SlowEngine.builder().delegate(engine).delayPerToken(Duration.ofMillis(30)).build();
        try (TestServer api = TestServer.start(slow, b -> b.modelName("stories-test"))) {
            String served = TestServer.JSON.readTree(api.get("/v1/models").body()).path("data").get(0).path("id")
                    .asString();
            JsonNode page = runBrowser(node, chromium, "playground-chat.mjs", api);

            assertThat(page.path("model").asString()).as("the model field shows the served model")
                    .isEqualTo(served).isEqualTo("stories-test");
            assertThat(page.path("turns")).hasSize(5);
            for (int turn = 1; turn <= 5; turn++) {
                JsonNode shown = page.path("turns").get(turn - 1);
                assertThat(shown.path("errors").asInt()).as("turn %d", turn).isZero();
                assertThat(shown.path("answer").asString()).startsWith("Answer number " + turn);
                assertThat(shown.path("disabledWhileStreaming").asBoolean()).as("Send during turn %d", turn).isTrue();
                assertThat(shown.path("labelOverlaps").asInt()).as("overlapping labels, turn %d", turn).isZero();
                assertThat(shown.path("states").toString()).contains("PREPARE", "EXECUTE", "COMPLETE");
                double events = shown.path("eventsDurationMs").asDouble();
                assertThat(shown.path("drawnTotalMs").asDouble()).as("the drawn total, turn %d", turn)
                        .isCloseTo(events, org.assertj.core.data.Offset.offset(Math.max(1.0, events * 0.05)));
                assertThat(shown.path("drawnTotalMs").asDouble()).as("never more than the page waited")
                        .isLessThanOrEqualTo(shown.path("clockMs").asDouble());
            }
            assertThat(page.path("turnsAfterReset").asInt()).isZero();
            assertThat(page.path("turnsAfterNewMessage").asInt()).isEqualTo(2);
        }
        assertThat(engine.requests()).hasSize(6);
        assertThat(engine.requests().get(4).messages()).as("turn 5 carries the four turns before it").hasSize(9);
        assertThat(engine.requests().get(5).messages()).as("the reset chat starts afresh").hasSize(1);
        assertThat(engine.requests().get(0).settings().maxTokens()).as("the page's default max_tokens").isEqualTo(256);
    }

    private static JsonNode runBrowser(Path node, Path chromium, String script, TestServer api) throws Exception {
        Process browser = new ProcessBuilder(node.toString(), script, api.server.baseUrl(), chromium.toString())
                .directory(NodeTools.CLIENT_DIR.toFile()).redirectErrorStream(true).start();
        browser.getOutputStream().close();
        boolean exited = browser.waitFor(180, TimeUnit.SECONDS);
        String output = new String(browser.getInputStream().readAllBytes(), StandardCharsets.UTF_8).strip();
        if (!exited) {
            browser.destroyForcibly();
        }
        assertThat(exited).as("the browser run finished: %s", output).isTrue();
        assertThat(browser.exitValue()).as(output).isZero();
        return TestServer.JSON.readTree(output.substring(output.lastIndexOf('\n') + 1));
    }
}
