package dev.pagantic.orchestrate.facade;

import static org.assertj.core.api.Assertions.assertThat;

import dev.pagantic.core.Message;
import dev.pagantic.core.Role;
import dev.pagantic.core.Schema;
import dev.pagantic.core.ToolDefinition;
import dev.pagantic.inference.Request;
import dev.pagantic.inference.TokenCounter;
import dev.pagantic.memory.InMemoryConversationStore;
import dev.pagantic.testkit.ScriptedEngine;
import dev.pagantic.tool.Tool;
import dev.pagantic.tool.ToolRegistry;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

class HistoryBudgetTest {

    private static final int WINDOW = 400;
    /** About 100 tokens by the estimate (four characters a token): four replies fill the window. */
    private static final String LONG_REPLY = "word ".repeat(80).strip();

    @Test
    void aSessionLastsTenTurnsOnASmallWindowAndKeepsItsSystemPrompt() {
        ScriptedEngine.Builder script = ScriptedEngine.builder().contextWindow(WINDOW);
        for (int turn = 0; turn < 10; turn++) {
            script.reply(LONG_REPLY);
        }
        ScriptedEngine engine = script.build();
        InMemoryConversationStore store = new InMemoryConversationStore();
        try (Orchestrator facade = Orchestrator.builder().engine(engine).systemPrompt("Be brief.").maxTokens(64)
                .conversationStore(store).build()) {
            for (int turn = 1; turn <= 10; turn++) {
                SystemResponse response = facade.execute(SystemRequest.builder().sessionId("s")
                        .user("Tell me more, part " + turn).build());
                assertThat(response.error()).as("turn " + turn).isEmpty();
            }
        }
        for (Request request : engine.requests()) {
            assertThat(request.messages().get(0)).isEqualTo(Message.system("Be brief."));
            assertThat(TokenCounter.estimate().count(request.messages())).isLessThanOrEqualTo(WINDOW);
        }
        assertThat(engine.requests().get(9).messages()).as("the oldest turns left the prompt").hasSizeLessThan(21)
                .last().isEqualTo(Message.user("Tell me more, part 10"));
        assertThat(store.load("s").messages()).as("the store keeps the whole conversation").hasSize(1 + 10 * 2);
    }

    @Test
    void aToolCallLeavesTheHistoryTogetherWithItsResult() {
        ToolDefinition lookup = ToolDefinition.of("lookup", "Looks a word up",
                Schema.object().required("word", Schema.string()).build());
        ScriptedEngine.Builder script = ScriptedEngine.builder().contextWindow(WINDOW)
                .replyCallingTool("lookup", Map.of("word", "cat"))
                .reply(LONG_REPLY);
        for (int turn = 0; turn < 6; turn++) {
            script.reply(LONG_REPLY);
        }
        ScriptedEngine engine = script.build();
        Tool tool = Tool.builder(lookup).handler((ctx, args) -> "a small animal").build();
        try (Orchestrator facade = Orchestrator.builder().engine(engine).tools(ToolRegistry.of(tool)).maxTokens(64)
                .build()) {
            for (int turn = 1; turn <= 7; turn++) {
                SystemResponse response = facade.execute(SystemRequest.builder().sessionId("t")
                        .user("Question " + turn).build());
                assertThat(response.error()).as("turn " + turn).isEmpty();
            }
        }
        for (Request request : engine.requests()) {
            List<Message> messages = request.messages();
            long calls = messages.stream().filter(m -> !m.toolCalls().isEmpty()).count();
            long results = messages.stream().filter(m -> m.role() == Role.TOOL).count();
            assertThat(results).as("tool results without their call, or calls without their result")
                    .isEqualTo(calls);
        }
        assertThat(engine.requests().get(engine.requests().size() - 1).messages())
                .noneMatch(m -> m.role() == Role.TOOL);
    }

    @Test
    void statelessRequestsAreCutToTheWindowToo() {
        ScriptedEngine engine = ScriptedEngine.builder().contextWindow(WINDOW).reply("ok").build();
        SystemRequest.Builder request = SystemRequest.builder();
        for (int turn = 0; turn < 8; turn++) {
            request.user("Question " + turn).message(Message.assistant(LONG_REPLY));
        }
        try (Orchestrator facade = Orchestrator.builder().engine(engine).maxTokens(64).build()) {
            SystemResponse response = facade.execute(request.user("And now?").build());

            assertThat(response.error()).isEmpty();
            assertThat(response.content()).isEqualTo("ok");
        }
        assertThat(engine.requests().get(0).messages()).last().isEqualTo(Message.user("And now?"));
    }

    @Test
    void theReplyKeepsAtMostHalfTheWindow() {
        assertThat(HistoryBudget.replyRoom(2048, 2048)).isEqualTo(1024);
        assertThat(HistoryBudget.replyRoom(256, 2048)).isEqualTo(256);
        assertThat(HistoryBudget.replyRoom(0, 8192)).isEqualTo(2048);
    }
}
