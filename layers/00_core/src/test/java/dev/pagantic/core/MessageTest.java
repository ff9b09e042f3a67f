package dev.pagantic.core;

import static dev.pagantic.core.Failures.assertConfigInvalid;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Nested;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;
import org.junit.jupiter.params.provider.ValueSource;

class MessageTest {

    private static final ToolCall CALL = ToolCall.of("call_1", "get_weather", Map.of("city", "Paris"));

    @Nested
    class Factories {

        @Test
        void systemMessageCarriesContentOnly() {
            Message message = Message.system("Be brief.");

            assertThat(message.role()).isEqualTo(Role.SYSTEM);
            assertThat(message.content()).isEqualTo("Be brief.");
            assertThat(message.toolCalls()).isEmpty();
            assertThat(message.toolCallId()).isEmpty();
            assertThat(message.name()).isEmpty();
            assertThat(message.hasToolCalls()).isFalse();
        }

        @Test
        void userMessageCarriesContentOnly() {
            Message message = Message.user("What is the weather in Paris?");

            assertThat(message.role()).isEqualTo(Role.USER);
            assertThat(message.content()).isEqualTo("What is the weather in Paris?");
            assertThat(message.toolCalls()).isEmpty();
            assertThat(message.toolCallId()).isEmpty();
            assertThat(message.name()).isEmpty();
        }

        @Test
        void assistantMessageWithTextHasNoToolCalls() {
            Message message = Message.assistant("Sunny.");

            assertThat(message.role()).isEqualTo(Role.ASSISTANT);
            assertThat(message.content()).isEqualTo("Sunny.");
            assertThat(message.toolCalls()).isEmpty();
            assertThat(message.hasToolCalls()).isFalse();
        }

        @Test
        void assistantMessageMayCarryToolCallsWithoutText() {
            Message message = Message.assistant("", List.of(CALL));

            assertThat(message.role()).isEqualTo(Role.ASSISTANT);
            assertThat(message.content()).isEmpty();
            assertThat(message.toolCalls()).containsExactly(CALL);
            assertThat(message.hasToolCalls()).isTrue();
        }

        @Test
        void assistantMessageMayCarryTextAndToolCallsTogether() {
            Message message = Message.assistant("Let me check.", List.of(CALL));

            assertThat(message.content()).isEqualTo("Let me check.");
            assertThat(message.toolCalls()).containsExactly(CALL);
            assertThat(message.toolCallId()).isEmpty();
            assertThat(message.name()).isEmpty();
        }

        @Test
        void toolResultMessageCarriesCallIdNameAndContent() {
            Message message = Message.toolResult("call_1", "get_weather", "18 C, sunny");

            assertThat(message.role()).isEqualTo(Role.TOOL);
            assertThat(message.toolCallId()).isEqualTo("call_1");
            assertThat(message.name()).isEqualTo("get_weather");
            assertThat(message.content()).isEqualTo("18 C, sunny");
            assertThat(message.toolCalls()).isEmpty();
            assertThat(message.hasToolCalls()).isFalse();
        }

        @Test
        void toolResultMayHaveEmptyContent() {
            assertThat(Message.toolResult("call_1", "noop", "").content()).isEmpty();
        }
    }

    @Nested
    class FieldRules {

        @ParameterizedTest
        @EnumSource(value = Role.class, names = {"SYSTEM", "USER"})
        void systemAndUserMessagesCannotCarryToolCalls(Role role) {
            PaganticException failure = assertConfigInvalid(() -> new Message(role, "hi", List.of(CALL), "", ""));

            assertThat(failure.description()).contains(role.wireName()).contains("tool calls");
        }

        @ParameterizedTest
        @EnumSource(value = Role.class, names = {"SYSTEM", "USER"})
        void systemAndUserMessagesCannotCarryToolCallId(Role role) {
            assertConfigInvalid(() -> new Message(role, "hi", List.of(), "call_1", ""));
        }

        @ParameterizedTest
        @EnumSource(value = Role.class, names = {"SYSTEM", "USER"})
        void systemAndUserMessagesCannotCarryToolName(Role role) {
            assertConfigInvalid(() -> new Message(role, "hi", List.of(), "", "get_weather"));
        }

        @Test
        void assistantMessageCannotCarryToolCallId() {
            assertConfigInvalid(() -> new Message(Role.ASSISTANT, "hi", List.of(), "call_1", ""));
        }

        @Test
        void assistantMessageCannotCarryToolName() {
            assertConfigInvalid(() -> new Message(Role.ASSISTANT, "hi", List.of(CALL), "", "get_weather"));
        }

        @ParameterizedTest
        @ValueSource(strings = {"", " ", "\t"})
        void toolMessageWithoutCallIdIsRejected(String callId) {
            PaganticException failure = assertConfigInvalid(() -> Message.toolResult(callId, "get_weather", "18 C"));

            assertThat(failure.description()).contains("id of the call");
        }

        @ParameterizedTest
        @ValueSource(strings = {"", "  "})
        void toolMessageWithoutNameIsRejected(String name) {
            PaganticException failure = assertConfigInvalid(() -> Message.toolResult("call_1", name, "18 C"));

            assertThat(failure.description()).contains("tool's name");
        }

        @Test
        void toolMessageCannotCarryToolCalls() {
            assertConfigInvalid(() -> new Message(Role.TOOL, "18 C", List.of(CALL), "call_1", "get_weather"));
        }

        @Test
        void nullFieldsAreRefused() {
            assertThatThrownBy(() -> Message.user(null)).isInstanceOf(NullPointerException.class);
            assertThatThrownBy(() -> new Message(null, "hi", List.of(), "", ""))
                    .isInstanceOf(NullPointerException.class);
            assertThatThrownBy(() -> new Message(Role.USER, "hi", null, "", ""))
                    .isInstanceOf(NullPointerException.class);
        }
    }

    @Nested
    class Immutability {

        @Test
        void laterChangesToTheCallersListDoNotChangeTheMessage() {
            List<ToolCall> calls = new ArrayList<>(List.of(CALL));
            Message message = Message.assistant("", calls);

            calls.add(ToolCall.of("call_2", "get_time", Map.of()));
            calls.remove(CALL);

            assertThat(message.toolCalls()).containsExactly(CALL);
        }

        @Test
        void toolCallsCannotBeModifiedThroughTheMessage() {
            Message message = Message.assistant("", List.of(CALL));

            assertThatThrownBy(() -> message.toolCalls().add(CALL))
                    .isInstanceOf(UnsupportedOperationException.class);
            assertThatThrownBy(() -> message.toolCalls().clear())
                    .isInstanceOf(UnsupportedOperationException.class);
            assertThat(message.toolCalls()).containsExactly(CALL);
        }
    }
}
