package dev.pagantic.engine.llamacpp;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatCode;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.pagantic.core.ErrorCode;
import dev.pagantic.core.Message;
import dev.pagantic.core.PaganticException;
import dev.pagantic.core.ToolCall;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * The conversation shapes a raising chat template is spared; {@link NativeAbortTest} shows the same refusals on a
 * model in a child JVM, and that the binding aborts without them.
 */
class ChatShapeTest {

    private static final String STRICT = NativeAbortProbe.STRICT_TEMPLATE;

    @Test
    void aTemplateThatNeverRaisesAcceptsAnyShape() {
        assertThatCode(() -> ChatShape.requireAccepted(ChatTemplates.CHATML, List.of(Message.assistant("a"),
                Message.user("u"), Message.user("u"), Message.system("s")))).doesNotThrowAnyException();
    }

    @Test
    void aToolLoopKeepsTheAlternationOfARaisingTemplate() {
        ToolCall call = ToolCall.of("call_1", "get_weather", Map.of("city", "Paris"));
        assertThatCode(() -> ChatShape.requireAccepted(STRICT, List.of(Message.system("s"), Message.user("Weather?"),
                Message.assistant("", List.of(call)), Message.toolResult("call_1", "get_weather", "sunny"),
                Message.toolResult("call_1", "get_weather", "warm"), Message.assistant("Sunny."),
                Message.user("Thanks")))).doesNotThrowAnyException();
    }

    @Test
    void eachMisshapenConversationIsRefusedNamingTheMessageAndTheRule() {
        Map<String, String> reasons = Map.of(
                "two-user-messages-in-a-row", "message 1 follows another user message",
                "a-second-system-message", "message 3 is a system message after the conversation began",
                "an-assistant-message-first", "message 0 opens the conversation as assistant");
        reasons.forEach((conversation, reason) -> assertThatThrownBy(() -> ChatShape.requireAccepted(STRICT,
                NativeAbortProbe.MISSHAPEN.get(conversation)))
                .as(conversation).isInstanceOfSatisfying(PaganticException.class,
                        refused -> assertThat(refused.code())
                                .isEqualTo(ErrorCode.CONFIG_INVALID))
                .hasMessageContaining(reason));
    }

    @Test
    void aToolResultCannotOpenTheConversation() {
        assertThatThrownBy(() -> ChatShape.requireAccepted(STRICT, List.of(Message.toolResult("call_1", "f", "r"),
                Message.user("u")))).hasMessageContaining("message 0 opens the conversation with a tool result");
    }
}
