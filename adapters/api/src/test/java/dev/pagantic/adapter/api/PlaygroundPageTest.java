package dev.pagantic.adapter.api;

import static org.assertj.core.api.Assertions.assertThat;

import dev.pagantic.core.Message;
import dev.pagantic.core.Schema;
import dev.pagantic.core.ToolCall;
import dev.pagantic.core.ToolDefinition;
import dev.pagantic.inference.Result;
import dev.pagantic.testkit.ScriptedEngine;
import dev.pagantic.testkit.SlowEngine;
import dev.pagantic.tool.Tool;
import dev.pagantic.tool.ToolRegistry;
import java.io.BufferedReader;
import java.io.InputStreamReader;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.function.Consumer;
import org.assertj.core.data.Offset;
import org.junit.jupiter.api.Test;
import tools.jackson.databind.JsonNode;

/**
 * The playground page at {@code /} in headless Chromium (Debian's, driven by playwright-core from
 * {@code src/test/node/playground-browser.mjs} and {@code playground-chat.mjs}): a message sent from the page streams
 * its answer in from the native endpoint's agent events, the timeline draws those events as they arrive, then the
 * request's recorded timeline with one bar per lifecycle state, inference and tool call.
 */
class PlaygroundPageTest {

    private static final String SUNNY = "It is sunny and warm in Paris today, enjoy the walk by the river.";

    @Test
    void theServerServesThePlaygroundPageWithoutAToken() {
        try (TestServer api = TestServer.start(ScriptedEngine.replying("hi"), b -> b.bearerToken("secret"))) {
            HttpResponse<String> page = api.get("/");

            assertThat(page.statusCode()).isEqualTo(200);
            assertThat(page.headers().firstValue("Content-Type")).hasValueSatisfying(
                    type -> assertThat(type).startsWith("text/html"));
            assertThat(page.body()).contains("<title>pagantic playground</title>", "/v1/requests",
                    "/events");
        }
    }

    @Test
    void aToolCallingTurnDrawsItsAgentEventsInTheSeedsOrderAsTheyArriveAndTheSecondTurnWorksToo() throws Exception {
        Path node = NodeTools.node("playwright-core");
        Path chromium = NodeTools.chromium();
        CountDownLatch toolCallDrawn = new CountDownLatch(1);
        Tool weather = Tool.builder(ToolDefinition.of("get_weather", "Weather of a city",
                        Schema.object().required("city", Schema.string()).build()))
                .handler((ctx, args) -> {
                    // the result waits until the page has drawn the call: the page draws events as they arrive
                    if (!toolCallDrawn.await(30, TimeUnit.SECONDS)) {
                        throw new IllegalStateException("the page never drew the tool_call before its result");
                    }
                    return "Sunny in " + args.get("city");
                }).build();
        Tool forecast = Tool.builder(ToolDefinition.of("get_forecast", "Tomorrow's weather of a city",
                        Schema.object().required("city", Schema.string()).build()))
                .handler((ctx, args) -> {
                    throw new IllegalStateException("the forecast service is down");
                }).build();
        ScriptedEngine engine = ScriptedEngine.builder()
                .reply(Result.builder().reasoning("I will look the weather up.")
                        .toolCalls(List.of(ToolCall.of("w1", "get_weather", Map.of("city", "Paris")),
                                ToolCall.of("f1", "get_forecast", Map.of("city", "Paris")))).build())
                .reply(SUNNY)
                .reply("Tomorrow it rains in Paris.")
                .build();
        // tokens 40 ms apart, so that the page visibly receives the answer in pieces
        SlowEngine slow = SlowEngine.builder().delegate(engine).delayPerToken(Duration.ofMillis(40)).build();
        try (TestServer api = TestServer.wired(slow, o -> o.tools(ToolRegistry.of(weather, forecast)))) {
            JsonNode page = runBrowser(node, chromium, "playground-browser.mjs", api, line -> {
                if (line.equals("drawn tool_call")) {
                    toolCallDrawn.countDown();
                }
            });

            JsonNode first = page.path("turns").get(0);
            assertThat(first.path("errors").asInt()).as(first.toString()).isZero();
            assertThat(first.path("answer").asString()).isEqualTo(SUNNY);
            assertThat(first.path("partialAnswersSeen").asInt()).as("the answer grew while streaming").isGreaterThan(2);
            assertThat(first.path("agentRows")).extracting(JsonNode::asString).containsExactly("steering_mode",
                    "thinking", "tool_call", "tool_result", "tool_call", "tool_result", "steering_mode", "text_delta",
                    "turn_end");
            assertThat(first.path("agentRowsWhileStreaming")).extracting(JsonNode::asString)
                    .as("drawn as they arrived: the call before its result")
                    .contains("steering_mode thinking tool_call");
            List<String> details = first.path("agentDetails").valueStream().map(JsonNode::asString).toList();
            assertThat(details).hasSize(9);
            assertThat(details.subList(0, 5)).containsExactly("steering_mode: steer: 2 tool call(s) to run",
                    "thinking: I will look the weather up.", "tool_call: get_weather {\"city\":\"Paris\"}",
                    "tool_result: get_weather → Sunny in Paris", "tool_call: get_forecast {\"city\":\"Paris\"}");
            assertThat(details.get(5)).as("the failed tool's error")
                    .startsWith("tool_result: get_forecast failed: ").contains("the forecast service is down");
            assertThat(details.subList(6, 8)).containsExactly("steering_mode: respond", "text_delta: " + SUNNY);
            assertThat(details.get(8)).matches("turn_end: the turn took \\d+ ms");
            assertThat(first.path("failedMarks").asInt()).as("the error is drawn as a failure").isEqualTo(1);
            assertThat(first.path("agentX")).extracting(JsonNode::asDouble).as("placed in time order")
                    .isSortedAccordingTo(Double::compare);
            assertThat(first.path("inferenceBars").asInt()).isEqualTo(2);
            assertThat(first.path("toolBars").asInt()).isEqualTo(2);
            assertThat(first.path("states").toString()).contains("PREPARE", "EXECUTE", "COMPLETE");
            assertDrawnTotalMatchesTheEvents(first);

            JsonNode second = page.path("turns").get(1);
            assertThat(second.path("errors").asInt()).as(second.toString()).isZero();
            assertThat(second.path("answer").asString()).isEqualTo("Tomorrow it rains in Paris.");
            assertThat(second.path("agentRows")).extracting(JsonNode::asString)
                    .containsExactly("steering_mode", "text_delta", "turn_end");
            assertThat(second.path("inferenceBars").asInt()).isEqualTo(1);
            assertThat(second.path("toolBars").asInt()).isZero();
            assertDrawnTotalMatchesTheEvents(second);
        }
        assertThat(engine.requests()).hasSize(3);
        assertThat(engine.requests().get(2).messages()).as("turn 2 carries turn 1's question and answer")
                .extracting(Message::content).containsExactly("What is the weather in Paris?", SUNNY, "And tomorrow?");
    }

    private static void assertDrawnTotalMatchesTheEvents(JsonNode shown) {
        double events = shown.path("eventsDurationMs").asDouble();
        assertThat(shown.path("drawnTotalMs").asDouble()).as("the drawn total: %s", shown)
                .isCloseTo(events, Offset.offset(Math.max(1.0, events * 0.05)));
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
            JsonNode page = runBrowser(node, chromium, "playground-chat.mjs", api, line -> { });

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
                assertDrawnTotalMatchesTheEvents(shown);
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

    /** Runs a browser script to its end, handing each line it prints to {@code lines}; its last line is JSON. */
    private static JsonNode runBrowser(Path node, Path chromium, String script, TestServer api,
                                       Consumer<String> lines) throws Exception {
        Process browser = new ProcessBuilder(node.toString(), script, api.server.baseUrl(), chromium.toString())
                .directory(NodeTools.CLIENT_DIR.toFile()).redirectErrorStream(true).start();
        browser.getOutputStream().close();
        List<String> output = new CopyOnWriteArrayList<>();
        Thread reader = new Thread(() -> new BufferedReader(new InputStreamReader(browser.getInputStream(),
                StandardCharsets.UTF_8)).lines().forEach(line -> {
                    output.add(line);
                    lines.accept(line);
                }), "playground-browser-output");
        reader.start();
        boolean exited = browser.waitFor(180, TimeUnit.SECONDS);
        if (!exited) {
            browser.destroyForcibly();
        }
        reader.join(TimeUnit.SECONDS.toMillis(10));
        assertThat(exited).as("the browser run finished: %s", output).isTrue();
        assertThat(browser.exitValue()).as("%s", output).isZero();
        assertThat(output).isNotEmpty();
        return TestServer.JSON.readTree(output.get(output.size() - 1));
    }
}
