package dev.pagantic.engine.llamacpp;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.pagantic.core.ErrorCode;
import dev.pagantic.core.Message;
import dev.pagantic.core.PaganticException;
import dev.pagantic.core.ToolCall;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * The shape a raising chat template is given; {@link NativeAbortTest} renders and answers the same conversations on a
 * model in a child JVM, and shows that the binding aborts on them unshaped.
 */
class ChatShapeTest {

    private static final String STRICT = NativeAbortProbe.STRICT_TEMPLATE;
    private static final ToolCall CALL = ToolCall.of("call_1", "get_weather", Map.of("city", "Paris"));

    @Test
    void aTemplateThatNeverRaisesGetsTheMessagesUnchanged() {
        List<Message> messages = List.of(Message.assistant("a"), Message.user("u"), Message.user("u"),
                Message.system("s"));

        assertThat(ChatShape.accepted(ChatTemplates.CHATML, messages)).isSameAs(messages);
    }

    @Test
    void aWellShapedToolLoopIsRenderedAsItIs() {
        List<Message> messages = List.of(Message.system("s"), Message.user("Weather?"), Message.assistant("",
                List.of(CALL)), Message.toolResult("call_1", "get_weather", "sunny"), Message.toolResult("call_1",
                "get_weather", "warm"), Message.assistant("Sunny."), Message.user("Thanks"));

        assertThat(ChatShape.accepted(STRICT, messages)).isEqualTo(messages);
    }

    @Test
    void retrievedContextBeforeTheLatestUserMessageIsFoldedIntoIt() {
        List<Message> history = new ArrayList<>(List.of(Message.system("Be brief."), Message.user("Hi"),
                Message.assistant("Hello"), Message.system("Relevant context:\n\n[1] Paris is in France."),
                Message.user("Where is Paris?")));
        List<Message> before = List.copyOf(history);

        List<Message> shaped = ChatShape.accepted(STRICT, history);

        assertThat(shaped).containsExactly(Message.system("Be brief."), Message.user("Hi"),
                Message.assistant("Hello"),
                Message.user("Relevant context:\n\n[1] Paris is in France.\n\nWhere is Paris?"));
        assertThat(history).as("the caller's history").isEqualTo(before);
    }

    @Test
    void contextBeforeTheFirstUserMessageIsFoldedIntoItAndTheSystemPromptStaysAsItIs() {
        assertThat(ChatShape.accepted(STRICT, List.of(Message.system("Be brief."), Message.system("Context"),
                Message.user("Hi"))))
                .containsExactly(Message.system("Be brief."), Message.user("Context\n\nHi"));
    }

    @Test
    void aSystemMessageWithNoUserMessageAfterItJoinsTheLeadingSystemMessage() {
        assertThat(ChatShape.accepted(STRICT, List.of(Message.system("Be brief."), Message.user("Hi"),
                Message.assistant("Hello"), Message.system("Be kind."))))
                .containsExactly(Message.system("Be brief.\n\nBe kind."), Message.user("Hi"),
                        Message.assistant("Hello"));
        assertThat(ChatShape.accepted(STRICT, List.of(Message.user("Hi"), Message.system("Be kind."))))
                .as("without a leading system message, one is made")
                .containsExactly(Message.system("Be kind."), Message.user("Hi"));
    }

    @Test
    void adjacentMessagesOfOneRoleAreJoinedWithABlankLine() {
        assertThat(ChatShape.accepted(STRICT, List.of(Message.user("Hi"), Message.user("Are you there?"),
                Message.assistant("Yes."), Message.assistant("I am."), Message.system("Context"),
                Message.user("Good"), Message.user("Bye"))))
                .containsExactly(Message.user("Hi\n\nAre you there?"), Message.assistant("Yes.\n\nI am."),
                        Message.user("Context\n\nGood\n\nBye"));
    }

    @Test
    void anAssistantTextIsNotJoinedToAToolCall() {
        List<Message> messages = List.of(Message.user("Weather?"), Message.assistant("Let me look."),
                Message.assistant("", List.of(CALL)), Message.toolResult("call_1", "get_weather", "sunny"),
                Message.user("And tomorrow?"));

        assertThat(ChatShape.accepted(STRICT, messages)).isEqualTo(messages);
    }

    @Test
    void eachShapeThatCannotBeMadeAcceptableIsRefusedNamingTheMessageAndTheRule() {
        Map<List<Message>, String> reasons = Map.of(
                NativeAbortProbe.CONVERSATIONS.get("an-assistant-message-first"),
                "message 0 opens the conversation with an assistant message",
                List.of(Message.system("s"), Message.toolResult("call_1", "f", "r"), Message.user("u")),
                "message 1 opens the conversation with a tool result",
                List.of(Message.assistant("", List.of(CALL)), Message.user("u")),
                "message 0 opens the conversation with an assistant's tool call",
                List.of(Message.user("Weather?"), Message.assistant("", List.of(CALL)),
                        Message.toolResult("call_1", "get_weather", "sunny"), Message.user("And tomorrow?")),
                "message 3 follows another user message with only tool calls and results between",
                List.of(Message.user("Weather?"), Message.assistant("Let me look."), Message.assistant("",
                        List.of(CALL)), Message.toolResult("call_1", "get_weather", "sunny"),
                        Message.assistant("Sunny.")),
                "message 4 follows another assistant message with only tool calls and results between");

        reasons.forEach((conversation, reason) -> assertThatThrownBy(() -> ChatShape.accepted(STRICT, conversation))
                .as(reason).isInstanceOfSatisfying(PaganticException.class,
                        refused -> assertThat(refused.code()).isEqualTo(ErrorCode.CONFIG_INVALID))
                .hasMessageContaining(reason).hasMessageContaining("the model's chat template requires"));
    }
}
