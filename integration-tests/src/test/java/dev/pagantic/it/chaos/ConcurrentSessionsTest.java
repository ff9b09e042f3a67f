package dev.pagantic.it.chaos;

import static org.assertj.core.api.Assertions.assertThat;

import dev.pagantic.core.Message;
import dev.pagantic.core.Schema;
import dev.pagantic.core.ToolCall;
import dev.pagantic.core.ToolDefinition;
import dev.pagantic.memory.InMemoryConversationStore;
import dev.pagantic.observe.Event;
import dev.pagantic.observe.InMemoryEventLog;
import dev.pagantic.orchestrate.facade.ExecutionHints;
import dev.pagantic.orchestrate.facade.Mode;
import dev.pagantic.orchestrate.facade.Orchestrator;
import dev.pagantic.orchestrate.facade.SystemRequest;
import dev.pagantic.orchestrate.facade.SystemResponse;
import dev.pagantic.orchestrate.facade.ToolCallRecord;
import dev.pagantic.tool.Tool;
import dev.pagantic.tool.ToolRegistry;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Queue;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;

/**
 * 1,000 chat sessions of four turns each run concurrently through one orchestrator on a bounded pool of 48 platform
 * threads, with fewer live sessions allowed (200) than sessions, so that sessions are evicted and restored from the
 * store while others run. Tool results depend on the session, so any cross-talk shows: every session's stored
 * transcript must be exactly what its own turns produce, and the event log must hold every request's complete and
 * consistent timeline.
 */
class ConcurrentSessionsTest {

    private static final int SESSIONS = 1_000;
    private static final int TURNS = 4;
    private static final int THREADS = 48;
    private static final String SYSTEM_PROMPT = "You are the concurrency test's model.";

    private final InMemoryEventLog log = InMemoryEventLog.unbounded();
    private final InMemoryConversationStore store = new InMemoryConversationStore();
    private final Queue<String> problems = new ConcurrentLinkedQueue<>();
    private final Map<String, SystemResponse> responses = new java.util.concurrent.ConcurrentHashMap<>();

    @Test
    void concurrentSessionsKeepExactTranscriptsAndCompleteEventTimelines() throws Exception {
        ToolRegistry tools = ToolRegistry.of(tool("lookup", "value-of-"), tool("stamp", "stamped-"));
        try (Orchestrator orchestrator = Orchestrator.builder().engine(new RuleModel()).tools(tools)
                .systemPrompt(SYSTEM_PROMPT).eventLog(log).conversationStore(store).maxSessions(200)
                .clock(new TickingClock()).build()) {
            ExecutorService pool = Executors.newFixedThreadPool(THREADS);
            try {
                List<Future<?>> sessions = new ArrayList<>();
                for (int s = 0; s < SESSIONS; s++) {
                    String sessionId = "session-" + s;
                    sessions.add(pool.submit(() -> runSession(orchestrator, sessionId)));
                }
                for (Future<?> session : sessions) {
                    session.get(5, TimeUnit.MINUTES);
                }
            } finally {
                pool.shutdownNow();
            }
        }

        assertThat(problems).as("requests that did not complete").isEmpty();
        assertThat(responses).hasSize(SESSIONS * TURNS);
        Map<String, List<Event>> byRequest = new HashMap<>();
        for (Event event : log.events()) {
            byRequest.computeIfAbsent(event.requestId(), k -> new ArrayList<>()).add(event);
        }
        assertThat(byRequest.keySet()).as("requests with events").isEqualTo(responses.keySet());
        for (int s = 0; s < SESSIONS; s++) {
            String sessionId = "session-" + s;
            assertThat(normalised(store.load(sessionId).messages()))
                    .as("the transcript of %s", sessionId).isEqualTo(expectedTranscript(sessionId));
            for (int turn = 1; turn <= TURNS; turn++) {
                String requestId = tag(sessionId, turn);
                checkTimeline(requestId, responses.get(requestId), byRequest.get(requestId));
            }
        }
    }

    private void runSession(Orchestrator orchestrator, String sessionId) {
        for (int turn = 1; turn <= TURNS; turn++) {
            String requestId = tag(sessionId, turn);
            SystemResponse response = orchestrator.execute(SystemRequest.builder().requestId(requestId)
                    .sessionId(sessionId).mode(Mode.CHAT).user(userMessage(sessionId, turn))
                    .hints(ExecutionHints.builder().timeout(Duration.ofMinutes(2)).build()).build());
            responses.put(requestId, response);
            if (!response.isSuccess()) {
                problems.add(requestId + ": " + response.error().orElseThrow());
            }
        }
    }

    /** Turns 2 and 4 call both tools, turn 3 one; the argument (and so the result) names the session and turn. */
    private static String userMessage(String sessionId, int turn) {
        String calls = switch (turn) {
            case 2, 4 -> " call=lookup,stamp";
            case 3 -> " call=stamp";
            default -> "";
        };
        return "tag=" + tag(sessionId, turn) + calls;
    }

    private static String tag(String sessionId, int turn) {
        return sessionId + "-t" + turn;
    }

    /** What the rule model and the tools produce for the session, tool call ids numbered in order of appearance. */
    private static List<Message> expectedTranscript(String sessionId) {
        List<Message> expected = new ArrayList<>();
        expected.add(Message.system(SYSTEM_PROMPT));
        int id = 0;
        for (int turn = 1; turn <= TURNS; turn++) {
            String tag = tag(sessionId, turn);
            String text = userMessage(sessionId, turn);
            expected.add(Message.user(text));
            List<String> names = switch (turn) {
                case 2, 4 -> List.of("lookup", "stamp");
                case 3 -> List.of("stamp");
                default -> List.of();
            };
            if (names.isEmpty()) {
                expected.add(Message.assistant("echo " + text));
                continue;
            }
            List<ToolCall> calls = new ArrayList<>();
            List<Message> results = new ArrayList<>();
            List<String> contents = new ArrayList<>();
            for (String name : names) {
                String callId = "#" + (++id);
                calls.add(ToolCall.of(callId, name, Map.of("key", tag)));
                String content = (name.equals("lookup") ? "value-of-" : "stamped-") + tag;
                results.add(Message.toolResult(callId, name, content));
                contents.add(content);
            }
            expected.add(Message.assistant("", calls));
            expected.addAll(results);
            expected.add(Message.assistant("done " + String.join(" | ", contents)));
        }
        return expected;
    }

    /** The messages with tool call ids replaced by their order of first appearance, so transcripts compare. */
    private static List<Message> normalised(List<Message> messages) {
        Map<String, String> ids = new HashMap<>();
        List<Message> out = new ArrayList<>();
        for (Message m : messages) {
            List<ToolCall> calls = m.toolCalls().stream()
                    .map(c -> ToolCall.of(ids.computeIfAbsent(c.id(), k -> "#" + (ids.size() + 1)), c.name(),
                            c.arguments()))
                    .toList();
            String callId = m.toolCallId() == null || m.toolCallId().isEmpty() ? m.toolCallId()
                    : ids.getOrDefault(m.toolCallId(), "unpaired:" + m.toolCallId());
            out.add(new Message(m.role(), m.content(), calls, callId, m.name()));
        }
        return out;
    }

    /**
     * The request's events: a lifecycle from INIT to COMPLETE, paired inference and tool events whose counts match
     * the response, and tool events for exactly the tool calls the response reports.
     */
    private static void checkTimeline(String requestId, SystemResponse response, List<Event> events) {
        assertThat(events).as("events of %s", requestId).isNotNull();
        List<String> states = events.stream().filter(e -> e.action().equals("lifecycle_transition"))
                .map(e -> String.valueOf(e.data().get("to_state"))).toList();
        assertThat(states).as("lifecycle of %s", requestId).isNotEmpty().last().isEqualTo("COMPLETE");
        long inferenceStarts = count(events, "inference_start");
        int rounds = response.toolCallsMade().isEmpty() ? 1 : 2;
        assertThat(inferenceStarts).as("inference_start of %s", requestId).isEqualTo(rounds);
        assertThat(count(events, "inference_end")).as("inference_end of %s", requestId).isEqualTo(rounds);
        List<String> reported = response.toolCallsMade().stream().map(ToolCallRecord::id).sorted().toList();
        assertThat(toolCallIds(events, "tool_start")).as("tool_start of %s", requestId).isEqualTo(reported);
        assertThat(toolCallIds(events, "tool_end")).as("tool_end of %s", requestId).isEqualTo(reported);
        assertThat(events).as("session id on the events of %s", requestId)
                .allSatisfy(e -> assertThat(e.correlation().sessionId()).isIn(response.sessionId(), ""));
    }

    private static long count(List<Event> events, String action) {
        return events.stream().filter(e -> e.action().equals(action)).count();
    }

    private static List<String> toolCallIds(List<Event> events, String action) {
        return events.stream().filter(e -> e.action().equals(action))
                .map(e -> String.valueOf(e.data().get("tool_call_id"))).sorted().toList();
    }

    private static Tool tool(String name, String prefix) {
        ToolDefinition definition = ToolDefinition.of(name, "Returns a value for the key.",
                Schema.object().required("key", Schema.string()).build());
        return Tool.builder(definition).handler((ctx, args) -> prefix + args.get("key")).build();
    }
}
