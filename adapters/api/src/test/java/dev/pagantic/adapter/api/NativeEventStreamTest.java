package dev.pagantic.adapter.api;

import static dev.pagantic.adapter.api.TestServer.JSON;
import static org.assertj.core.api.Assertions.assertThat;

import dev.pagantic.core.ErrorCode;
import dev.pagantic.core.Schema;
import dev.pagantic.core.ToolCall;
import dev.pagantic.core.ToolDefinition;
import dev.pagantic.inference.Result;
import dev.pagantic.testkit.ScriptedEngine;
import dev.pagantic.tool.Tool;
import dev.pagantic.tool.ToolRegistry;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import tools.jackson.databind.JsonNode;

/** Seed 004's agent events streamed as server-sent events from the native endpoint {@code POST /v1/requests}. */
class NativeEventStreamTest {

    private static final Schema EXPRESSION = Schema.object().required("expression", Schema.string()).build();
    private static final String QUESTION = "{\"request_id\":\"calc-1\",\"stream\":true,"
            + "\"messages\":[{\"role\":\"user\",\"content\":\"What are 15*3 and 10+5?\"}]}";
    private static final String ANSWER = "15*3 = 45 and 10+5 = 15";

    /** Released by the test once it has read the first tool_call from the wire: proves events are not buffered. */
    private final CountDownLatch firstCallSeen = new CountDownLatch(1);

    private Tool calculator() {
        return Tool.builder(ToolDefinition.of("calculator", "Evaluates arithmetic", EXPRESSION))
                .handler((ctx, args) -> {
                    if (!firstCallSeen.await(20, TimeUnit.SECONDS)) {
                        throw new IllegalStateException("the client never saw the tool_call event before the result");
                    }
                    return String.valueOf(args.get("expression")).equals("15*3") ? "45" : "15";
                })
                .build();
    }

    private TestServer seedExample() {
        ScriptedEngine engine = ScriptedEngine.builder()
                .reply(Result.builder().reasoning("I'll use calculator for both.").toolCalls(List.of(
                        ToolCall.of("c1", "calculator", Map.of("expression", "15*3")),
                        ToolCall.of("c2", "calculator", Map.of("expression", "10+5")))).build())
                .reply(ANSWER)
                .build();
        return TestServer.wired(engine, orchestrator -> orchestrator.tools(ToolRegistry.of(calculator())));
    }

    /** One server-sent event. */
    private record Sse(String name, JsonNode data) {
    }

    /** Reads events off the wire as they arrive, releasing the tool once the first tool_call has arrived. */
    private List<Sse> readEvents(Stream<String> body) {
        List<Sse> events = new ArrayList<>();
        String name = null;
        for (Iterator<String> lines = body.iterator(); lines.hasNext(); ) {
            String line = lines.next();
            if (line.startsWith("event: ")) {
                name = line.substring("event: ".length());
            } else if (line.startsWith("data: ")) {
                events.add(new Sse(name, JSON.readTree(line.substring("data: ".length()))));
                if ("tool_call".equals(name)) {
                    firstCallSeen.countDown();
                }
            }
        }
        return events;
    }

    private static List<String> names(List<Sse> events) {
        List<String> names = new ArrayList<>();
        for (Sse event : events) {
            String line = event.name().equals("steering_mode")
                    ? "steering_mode " + event.data().path("mode").asString() : event.name();
            if (!(line.equals("text_delta") && !names.isEmpty() && names.get(names.size() - 1).equals(line))) {
                names.add(line);
            }
        }
        return names;
    }

    @Test
    void aToolCallingTurnStreamsItsEventsInTheSeedsOrderAsTheyHappenThenTheResponse() throws Exception {
        try (TestServer api = seedExample()) {
            HttpRequest request = api.request("/v1/requests").header("Content-Type", "application/json")
                    .POST(HttpRequest.BodyPublishers.ofString(QUESTION)).build();
            HttpResponse<Stream<String>> response = api.http.send(request, HttpResponse.BodyHandlers.ofLines());

            assertThat(response.statusCode()).isEqualTo(200);
            assertThat(response.headers().firstValue("Content-Type")).hasValueSatisfying(
                    type -> assertThat(type).startsWith("text/event-stream"));
            List<Sse> events;
            try (Stream<String> body = response.body()) {
                events = readEvents(body);
            }

            assertThat(names(events)).containsExactly("turn_start", "steering_mode steer", "thinking", "tool_call",
                    "tool_result", "tool_call", "tool_result", "steering_mode respond", "text_delta", "turn_end",
                    "response");
            List<Sse> agentEvents = events.subList(0, events.size() - 1);
            assertThat(agentEvents).allSatisfy(event -> {
                assertThat(event.data().path("type").asString()).isEqualTo(event.name());
                assertThat(event.data().path("request_id").asString()).isEqualTo("calc-1");
            });
            assertThat(events.get(1).data().path("queue_size").asInt()).isEqualTo(2);
            assertThat(events.get(3).data().path("args").path("expression").asString()).isEqualTo("15*3");
            assertThat(events.get(4).data().path("result").asString()).isEqualTo("45");
            assertThat(events.get(6).data().path("tool_call_id").asString()).isEqualTo("c2");
            StringBuilder text = new StringBuilder();
            agentEvents.stream().filter(event -> event.name().equals("text_delta"))
                    .forEach(event -> text.append(event.data().path("text").asString()));
            assertThat(text).hasToString(ANSWER);
            JsonNode last = events.get(events.size() - 1).data();
            assertThat(last.path("request_id").asString()).isEqualTo("calc-1");
            assertThat(last.path("content").asString()).isEqualTo(ANSWER);
            assertThat(last.path("tool_calls_made")).hasSize(2);
            assertThat(last.has("error")).isFalse();
        }
    }

    @Test
    void anEventStreamAcceptHeaderAsksForTheStreamToo() {
        try (TestServer api = TestServer.start(ScriptedEngine.replying("Hello there"))) {
            HttpResponse<String> response = api.post("/v1/requests",
                    "{\"messages\":[{\"role\":\"user\",\"content\":\"Hi\"}]}", "Accept", "text/event-stream");

            assertThat(response.statusCode()).isEqualTo(200);
            assertThat(response.body()).startsWith("event: turn_start\n").contains("event: steering_mode\n")
                    .contains("event: turn_end\n").contains("event: response\n");
            List<String> data = TestServer.sseData(response.body());
            assertThat(JSON.readTree(data.get(data.size() - 1)).path("content").asString()).isEqualTo("Hello there");
        }
    }

    @Test
    void aRequestRefusedBeforeItsFirstEventGetsTheUnstreamedErrorStatus() {
        try (TestServer api = TestServer.start(ScriptedEngine.replying("never"))) {
            HttpResponse<String> response = api.post("/v1/requests", "{\"stream\":true,\"messages\":[]}");

            assertThat(response.statusCode()).isEqualTo(400);
            assertThat(response.headers().firstValue("Content-Type")).hasValueSatisfying(
                    type -> assertThat(type).startsWith("application/json"));
            assertThat(TestServer.json(response).path("error").path("code").asString()).startsWith("CONFIG_");
        }
    }

    @Test
    void aStreamedRequestWhoseEngineFailsEndsWithTheErrorInItsResponseEvent() {
        ScriptedEngine engine = ScriptedEngine.builder().fail(ErrorCode.INFERENCE_ENGINE_ERROR, "down").build();
        try (TestServer api = TestServer.start(engine)) {
            HttpResponse<String> response = api.post("/v1/requests",
                    "{\"stream\":true,\"messages\":[{\"role\":\"user\",\"content\":\"Hi\"}]}");

            assertThat(response.statusCode()).as("the stream had started with turn_start").isEqualTo(200);
            List<String> data = TestServer.sseData(response.body());
            assertThat(response.body()).startsWith("event: turn_start\n").doesNotContain("event: turn_end");
            JsonNode last = JSON.readTree(data.get(data.size() - 1));
            assertThat(last.path("error").path("code").asString()).isEqualTo("INFERENCE_ENGINE_ERROR");
        }
    }
}
