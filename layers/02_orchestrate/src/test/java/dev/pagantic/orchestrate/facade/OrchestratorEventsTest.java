package dev.pagantic.orchestrate.facade;

import static org.assertj.core.api.Assertions.assertThat;

import dev.pagantic.core.IdGenerator;
import dev.pagantic.core.Schema;
import dev.pagantic.core.ToolCall;
import dev.pagantic.core.ToolDefinition;
import dev.pagantic.inference.Result;
import dev.pagantic.inference.StreamHandler;
import dev.pagantic.orchestrate.agent.AgentEvent;
import dev.pagantic.testkit.ScriptedEngine;
import dev.pagantic.tool.Tool;
import dev.pagantic.tool.ToolRegistry;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;

/** Seed 004's agent events through the facade: {@code Orchestrator.execute(request, stream, events, cancellation)}. */
class OrchestratorEventsTest {

    private static final Schema EXPRESSION = Schema.object().required("expression", Schema.string()).build();
    private static final String ANSWER = "15*3 = 45 and 10+5 = 15";

    private static Tool calculator() {
        return Tool.builder(ToolDefinition.of("calculator", "Evaluates arithmetic", EXPRESSION))
                .handler((ctx, args) -> switch (String.valueOf(args.get("expression"))) {
                    case "15*3" -> "45";
                    case "10+5" -> "15";
                    default -> throw new IllegalArgumentException("unknown expression");
                })
                .build();
    }

    private static ToolCall calc(String id, String expression) {
        return ToolCall.of(id, "calculator", Map.of("expression", expression));
    }

    /** The seed's example turn: thinking, two calculator calls, then the answer. */
    private static Orchestrator seedExample() {
        ScriptedEngine engine = ScriptedEngine.builder()
                .reply(Result.builder().reasoning("I'll use calculator for both.")
                        .toolCalls(List.of(calc("c1", "15*3"), calc("c2", "10+5"))).build())
                .reply(ANSWER)
                .build();
        return Orchestrator.builder().engine(engine).tools(ToolRegistry.of(calculator()))
                .idGenerator(IdGenerator.sequential("id-")).build();
    }

    private static String describe(AgentEvent event) {
        if (event instanceof AgentEvent.SteeringMode mode) {
            return "steering_mode " + mode.mode().wireName() + " " + mode.queueSize();
        }
        if (event instanceof AgentEvent.Thinking thinking) {
            return "thinking " + thinking.text();
        }
        if (event instanceof AgentEvent.ToolCallEvent call) {
            return "tool_call " + call.toolCallId() + " " + call.toolName() + " " + call.args();
        }
        if (event instanceof AgentEvent.ToolResultEvent result) {
            return "tool_result " + result.toolCallId() + " " + result.result() + (result.error() ? " error" : "");
        }
        if (event instanceof AgentEvent.TextDelta delta) {
            return "text_delta " + delta.index() + " '" + delta.text() + "'";
        }
        if (event instanceof AgentEvent.TurnEnd end) {
            return "turn_end " + end.message().content();
        }
        return event.eventType();
    }

    @Test
    void aToolCallingChatRequestPushesTheSeedsEventSequenceWithTheRequestsIds() {
        List<AgentEvent> events = new ArrayList<>();
        SystemResponse response;
        try (Orchestrator orchestrator = seedExample()) {
            response = orchestrator.execute(SystemRequest.builder().sessionId("s-1").user("What are 15*3 and 10+5?")
                    .build(), StreamHandler.NOOP, events::add, null);
        }

        assertThat(response.error()).isEmpty();
        assertThat(response.content()).isEqualTo(ANSWER);
        assertThat(events).extracting(OrchestratorEventsTest::describe).containsExactly(
                "turn_start",
                "steering_mode steer 2",
                "thinking I'll use calculator for both.",
                "tool_call c1 calculator {expression=15*3}",
                "tool_result c1 45",
                "tool_call c2 calculator {expression=10+5}",
                "tool_result c2 15",
                "steering_mode respond 0",
                "text_delta 0 '15*3'",
                "text_delta 1 ' ='",
                "text_delta 2 ' 45'",
                "text_delta 3 ' and'",
                "text_delta 4 ' 10+5'",
                "text_delta 5 ' ='",
                "text_delta 6 ' 15'",
                "turn_end " + ANSWER);
        assertThat(events).allSatisfy(event -> {
            assertThat(event.correlation().requestId()).as("the generated request id").isEqualTo(response.requestId())
                    .isNotEmpty();
            assertThat(event.correlation().sessionId()).isEqualTo("s-1");
            assertThat(event.correlation().traceId()).isNotEmpty();
        });
    }

    @Test
    void eachEventHasAFlatJsonFormNamedByItsType() {
        List<AgentEvent> events = new ArrayList<>();
        try (Orchestrator orchestrator = seedExample()) {
            orchestrator.execute(SystemRequest.builder().requestId("r-7").traceId("t-7").user("15*3 and 10+5?")
                    .build(), StreamHandler.NOOP, events::add, null);
        }
        JsonMapper json = JsonMapper.builder().build();
        List<JsonNode> nodes = events.stream().map(event -> json.readTree(FacadeJson.toJson(event))).toList();

        assertThat(nodes).allSatisfy(node -> {
            assertThat(node.path("request_id").asString()).isEqualTo("r-7");
            assertThat(node.path("trace_id").asString()).isEqualTo("t-7");
            assertThat(node.path("session_id").asString()).isEmpty();
        });
        assertThat(nodes.get(0).path("type").asString()).isEqualTo("turn_start");
        assertThat(nodes.get(0).path("timestamp").asString()).isNotEmpty();
        assertThat(nodes.get(1).path("mode").asString()).isEqualTo("steer");
        assertThat(nodes.get(1).path("queue_size").asInt()).isEqualTo(2);
        assertThat(nodes.get(2).path("text").asString()).isEqualTo("I'll use calculator for both.");
        assertThat(nodes.get(3).path("tool_call_id").asString()).isEqualTo("c1");
        assertThat(nodes.get(3).path("tool_name").asString()).isEqualTo("calculator");
        assertThat(nodes.get(3).path("args").path("expression").asString()).isEqualTo("15*3");
        assertThat(nodes.get(4).path("result").asString()).isEqualTo("45");
        assertThat(nodes.get(4).path("error").asBoolean()).isFalse();
        assertThat(nodes.get(8).path("type").asString()).isEqualTo("text_delta");
        assertThat(nodes.get(8).path("index").asInt()).isZero();
        JsonNode end = nodes.get(nodes.size() - 1);
        assertThat(end.path("type").asString()).isEqualTo("turn_end");
        assertThat(end.path("message").path("role").asString()).isEqualTo("assistant");
        assertThat(end.path("message").path("content").asString()).isEqualTo(ANSWER);
        assertThat(end.path("duration_ms").isIntegralNumber()).isTrue();
    }

    @Test
    void aStructuredRequestEmitsNoAgentEvents() {
        ScriptedEngine engine = ScriptedEngine.builder().reply("{\"city\":\"Paris\"}").build();
        List<AgentEvent> events = new ArrayList<>();
        try (Orchestrator orchestrator = Orchestrator.builder().engine(engine).build()) {
            SystemResponse response = orchestrator.execute(SystemRequest.builder().mode(Mode.STRUCTURED)
                    .user("Which city?").output(OutputContract.of(Schema.object()
                            .required("city", Schema.string()).build())).build(),
                    StreamHandler.NOOP, events::add, null);
            assertThat(response.error()).isEmpty();
        }
        assertThat(events).isEmpty();
    }
}
