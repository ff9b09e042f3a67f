package dev.pagantic.orchestrate.agent;

import static org.assertj.core.api.Assertions.assertThat;

import dev.pagantic.core.CallContext;
import dev.pagantic.core.Message;
import dev.pagantic.core.Role;
import dev.pagantic.core.Schema;
import dev.pagantic.core.ToolCall;
import dev.pagantic.core.ToolDefinition;
import dev.pagantic.inference.Result;
import dev.pagantic.inference.StreamHandler;
import dev.pagantic.testkit.ScriptedEngine;
import dev.pagantic.tool.Tool;
import dev.pagantic.tool.ToolRegistry;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Deque;
import java.util.List;
import java.util.Map;
import java.util.stream.Collectors;
import org.junit.jupiter.api.Test;

/** Seed 004's streamed event protocol, steering and follow-up on {@link AgentLoop}. */
class AgentEventsTest {

    private static final Schema EXPRESSION = Schema.object().required("expression", Schema.string()).build();

    private final List<String> evaluated = new ArrayList<>();

    private Tool calculator() {
        return Tool.builder(ToolDefinition.of("calculator", "Evaluates arithmetic", EXPRESSION))
                .handler((ctx, args) -> {
                    String expression = String.valueOf(args.get("expression"));
                    evaluated.add(expression);
                    return switch (expression) {
                        case "15*3" -> "45";
                        case "10+5" -> "15";
                        default -> "?";
                    };
                })
                .build();
    }

    private AgentLoop loop(ScriptedEngine engine) {
        return AgentLoop.builder().engine(engine).tools(ToolRegistry.of(calculator())).build();
    }

    private static ToolCall calc(String id, String expression) {
        return ToolCall.of(id, "calculator", Map.of("expression", expression));
    }

    private static String describe(AgentEvent event) {
        if (event instanceof AgentEvent.SteeringMode mode) {
            return "steering_mode " + mode.mode().wireName() + " " + mode.queueSize();
        }
        if (event instanceof AgentEvent.ToolCallEvent call) {
            return "tool_call " + call.toolName() + " " + call.args().get("expression");
        }
        if (event instanceof AgentEvent.ToolResultEvent result) {
            return "tool_result " + result.result() + (result.error() ? " error" : "");
        }
        if (event instanceof AgentEvent.Thinking thinking) {
            return "thinking " + thinking.text();
        }
        return event.eventType();
    }

    /** The events with consecutive text deltas collapsed into one "text_delta" line. */
    private static List<String> sequence(List<AgentEvent> events) {
        List<String> lines = new ArrayList<>();
        for (AgentEvent event : events) {
            String line = describe(event);
            if (line.equals("text_delta") && !lines.isEmpty() && lines.get(lines.size() - 1).equals("text_delta")) {
                continue;
            }
            lines.add(line);
        }
        return lines;
    }

    private static String text(List<AgentEvent> events) {
        return events.stream().filter(AgentEvent.TextDelta.class::isInstance).map(AgentEvent.TextDelta.class::cast)
                .map(AgentEvent.TextDelta::text).collect(Collectors.joining());
    }

    @Test
    void aTurnWithTwoToolCallsEmitsTheSeedsExampleSequence() {
        ScriptedEngine engine = ScriptedEngine.builder()
                .replyWithToolCalls(calc("c1", "15*3"), calc("c2", "10+5"))
                .reply("15*3 = 45 and 10+5 = 15")
                .build();
        List<AgentEvent> events = new ArrayList<>();
        List<String> streamed = new ArrayList<>();
        try (AgentLoop agent = loop(engine)) {
            AgentTurn turn = agent.chatTurn(CallContext.background(), "What are 15*3 and 10+5?",
                    TurnOptions.builder().eventListener(events::add)
                            .stream(StreamHandler.onContent(streamed::add)).build());

            assertThat(sequence(events)).containsExactly(
                    "turn_start",
                    "steering_mode steer 2",
                    "tool_call calculator 15*3",
                    "tool_result 45",
                    "tool_call calculator 10+5",
                    "tool_result 15",
                    "steering_mode respond 0",
                    "text_delta",
                    "turn_end");
            assertThat(text(events)).isEqualTo("15*3 = 45 and 10+5 = 15");
            assertThat(String.join("", streamed)).as("the caller's stream handler still gets the deltas")
                    .isEqualTo("15*3 = 45 and 10+5 = 15");
            List<AgentEvent.TextDelta> deltas = events.stream().filter(AgentEvent.TextDelta.class::isInstance)
                    .map(AgentEvent.TextDelta.class::cast).toList();
            assertThat(deltas).hasSizeGreaterThan(1);
            for (int i = 0; i < deltas.size(); i++) {
                assertThat(deltas.get(i).index()).isEqualTo(i);
            }
            AgentEvent.TurnEnd end = (AgentEvent.TurnEnd) events.get(events.size() - 1);
            assertThat(end.message()).isEqualTo(Message.assistant("15*3 = 45 and 10+5 = 15"));
            assertThat(end.duration().isNegative()).isFalse();
            AgentEvent.ToolCallEvent first = (AgentEvent.ToolCallEvent) events.get(2);
            assertThat(first.toolCallId()).isEqualTo("c1");
            assertThat(turn.result().content()).isEqualTo("15*3 = 45 and 10+5 = 15");
            assertThat(turn.toolExecutions()).hasSize(2);
        }
    }

    @Test
    void reasoningIsReportedAsThinkingAfterTheDecision() {
        ScriptedEngine engine = ScriptedEngine.builder()
                .reply(Result.builder().reasoning("I'll use calculator.").toolCalls(List.of(calc("c1", "15*3")))
                        .build())
                .replyWithReasoning("Easy.", "45")
                .build();
        List<AgentEvent> events = new ArrayList<>();
        try (AgentLoop agent = loop(engine)) {
            agent.chatTurn(CallContext.background(), "15*3?", TurnOptions.builder().eventListener(events::add).build());
        }
        assertThat(sequence(events)).containsExactly(
                "turn_start",
                "steering_mode steer 1",
                "thinking I'll use calculator.",
                "tool_call calculator 15*3",
                "tool_result 45",
                "steering_mode respond 0",
                "thinking Easy.",
                "text_delta",
                "turn_end");
    }

    @Test
    void aTurnWithoutAListenerBehavesAsBefore() {
        ScriptedEngine engine = ScriptedEngine.builder()
                .replyWithToolCalls(calc("c1", "15*3"), calc("c2", "10+5"))
                .reply("done")
                .build();
        try (AgentLoop agent = loop(engine)) {
            AgentTurn turn = agent.chatTurn(CallContext.background(), "go", TurnOptions.DEFAULTS);
            assertThat(turn.result().content()).isEqualTo("done");
            assertThat(evaluated).containsExactlyInAnyOrder("15*3", "10+5");
        }
    }

    @Test
    void steeringSkipsTheRestOfTheRoundAndInjectsTheMessages() {
        ScriptedEngine engine = ScriptedEngine.builder()
                .replyWithToolCalls(calc("c1", "15*3"), calc("c2", "10+5"), calc("c3", "1+1"))
                .reply("Only 15*3 = 45, as you asked.")
                .build();
        Deque<List<Message>> queue = new ArrayDeque<>(List.of(List.of(), List.of(Message.user("stop, only the first"))));
        List<AgentEvent> events = new ArrayList<>();
        try (AgentLoop agent = loop(engine)) {
            AgentTurn turn = agent.chatTurn(CallContext.background(), "compute all",
                    TurnOptions.builder().eventListener(events::add)
                            .steering(() -> queue.isEmpty() ? List.of() : queue.poll()).build());

            assertThat(evaluated).as("the third call never runs").containsExactly("15*3", "10+5");
            assertThat(sequence(events)).containsExactly(
                    "turn_start",
                    "steering_mode steer 3",
                    "tool_call calculator 15*3",
                    "tool_result 45",
                    "tool_call calculator 10+5",
                    "tool_result 15",
                    "steering_mode interrupt 1",
                    "steering_mode respond 0",
                    "text_delta",
                    "turn_end");
            List<Message> history = agent.messages();
            // user, assistant(calls), 3 tool results (the last skipped), steering user message, answer
            assertThat(history).extracting(Message::role).containsExactly(Role.USER, Role.ASSISTANT, Role.TOOL,
                    Role.TOOL, Role.TOOL, Role.USER, Role.ASSISTANT);
            assertThat(history.get(4).content()).isEqualTo(AgentLoop.SKIPPED_FOR_STEERING);
            assertThat(history.get(5).content()).isEqualTo("stop, only the first");
            assertThat(engine.requests().get(1).messages()).extracting(Message::content)
                    .contains("stop, only the first");
            assertThat(turn.toolExecutions()).as("skipped calls did not execute").hasSize(2);
            assertThat(turn.result().content()).isEqualTo("Only 15*3 = 45, as you asked.");
        }
    }

    @Test
    void aSteeringQueueRunsTheCallsOneAtATimeWithoutAListener() {
        ScriptedEngine engine = ScriptedEngine.builder()
                .replyWithToolCalls(calc("c1", "15*3"), calc("c2", "10+5"))
                .reply("done")
                .build();
        List<Integer> polledAfter = new ArrayList<>();
        try (AgentLoop agent = loop(engine)) {
            agent.chatTurn(CallContext.background(), "go", TurnOptions.builder()
                    .steering(() -> {
                        polledAfter.add(evaluated.size());
                        return List.of();
                    }).build());
        }
        assertThat(polledAfter).as("polled after each call").containsExactly(1, 2);
        assertThat(evaluated).containsExactly("15*3", "10+5");
    }

    @Test
    void followUpMessagesContinueTheTurnWithANewTurnStart() {
        ScriptedEngine engine = ScriptedEngine.builder()
                .reply("Paris.")
                .reply("About two million.")
                .build();
        Deque<List<Message>> followUps = new ArrayDeque<>(List.of(List.of(Message.user("And its population?"))));
        List<AgentEvent> events = new ArrayList<>();
        try (AgentLoop agent = loop(engine)) {
            AgentTurn turn = agent.chatTurn(CallContext.background(), "Capital of France?",
                    TurnOptions.builder().eventListener(events::add)
                            .followUp(() -> followUps.isEmpty() ? List.of() : followUps.poll()).build());

            assertThat(sequence(events)).containsExactly(
                    "turn_start", "steering_mode respond 0", "text_delta", "turn_end",
                    "turn_start", "steering_mode respond 0", "text_delta", "turn_end");
            assertThat(turn.result().content()).isEqualTo("About two million.");
            assertThat(agent.messages()).extracting(Message::content).containsExactly(
                    "Capital of France?", "Paris.", "And its population?", "About two million.");
            assertThat(engine.callCount()).isEqualTo(2);
        }
    }

    @Test
    void turnOptionsKeepTheNewSettingsThroughToBuilder() {
        AgentEventListener listener = event -> { };
        MessageQueue steering = List::of;
        MessageQueue followUp = List::of;
        TurnOptions options = TurnOptions.builder().eventListener(listener).steering(steering).followUp(followUp)
                .build();
        TurnOptions copy = options.toBuilder().build();
        assertThat(copy.eventListener()).containsSame(listener);
        assertThat(copy.steering()).containsSame(steering);
        assertThat(copy.followUp()).containsSame(followUp);
        assertThat(TurnOptions.DEFAULTS.eventListener()).isEmpty();
        assertThat(TurnOptions.DEFAULTS.steering()).isEmpty();
        assertThat(TurnOptions.DEFAULTS.followUp()).isEmpty();
    }
}
