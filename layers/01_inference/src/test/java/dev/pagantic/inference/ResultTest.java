package dev.pagantic.inference;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.pagantic.core.FinishReason;
import dev.pagantic.core.Message;
import dev.pagantic.core.TokenUsage;
import dev.pagantic.core.ToolCall;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Nested;
import org.junit.jupiter.api.Test;

class ResultTest {

    private static final ToolCall CALL = ToolCall.of("call_1", "get_weather", Map.of("city", "Paris"));
    private static final TokenUsage USAGE = TokenUsage.of(12, 3);

    @Nested
    class BuilderDefaults {

        @Test
        void textResultAddsOneAssistantMessageAndStops() {
            Result result = Result.of("Sunny.", USAGE);

            assertThat(result.content()).isEqualTo("Sunny.");
            assertThat(result.reasoning()).isEmpty();
            assertThat(result.toolCalls()).isEmpty();
            assertThat(result.hasToolCalls()).isFalse();
            assertThat(result.messages()).containsExactly(Message.assistant("Sunny."));
            assertThat(result.usage()).isEqualTo(USAGE);
            assertThat(result.finishReason()).isEqualTo(FinishReason.STOP);
        }

        @Test
        void toolCallingResultAddsOneAssistantMessageWithTheCallsAndFinishesForToolCalls() {
            Result result = Result.builder().content("Let me check.").toolCalls(List.of(CALL)).build();

            assertThat(result.hasToolCalls()).isTrue();
            assertThat(result.messages()).containsExactly(Message.assistant("Let me check.", List.of(CALL)));
            assertThat(result.finishReason()).isEqualTo(FinishReason.TOOL_CALLS);
        }

        @Test
        void emptyBuilderGivesAnEmptyAnswerWithNoUsage() {
            Result result = Result.builder().build();

            assertThat(result.content()).isEmpty();
            assertThat(result.usage()).isEqualTo(TokenUsage.ZERO);
            assertThat(result.messages()).containsExactly(Message.assistant(""));
            assertThat(result.finishReason()).isEqualTo(FinishReason.STOP);
        }

        @Test
        void explicitFinishReasonAndMessagesAreKept() {
            List<Message> produced = List.of(Message.assistant("part one"), Message.assistant("part two"));

            Result result = Result.builder().content("part one part two").messages(produced)
                    .finishReason(FinishReason.LENGTH).build();

            assertThat(result.messages()).isEqualTo(produced);
            assertThat(result.finishReason()).isEqualTo(FinishReason.LENGTH);
        }

        @Test
        void reasoningIsKeptApartFromContent() {
            Result result = Result.builder().reasoning("The user wants weather.").content("Sunny.").build();

            assertThat(result.reasoning()).isEqualTo("The user wants weather.");
            assertThat(result.messages()).containsExactly(Message.assistant("Sunny."));
        }

        @Test
        void collectionsAreCopiedAndUnmodifiable() {
            List<ToolCall> calls = new ArrayList<>(List.of(CALL));
            Result result = Result.builder().toolCalls(calls).build();

            calls.clear();

            assertThat(result.toolCalls()).containsExactly(CALL);
            assertThatThrownBy(() -> result.toolCalls().clear()).isInstanceOf(UnsupportedOperationException.class);
            assertThatThrownBy(() -> result.messages().clear()).isInstanceOf(UnsupportedOperationException.class);
        }

        @Test
        void nullsAreRefused() {
            assertThatThrownBy(() -> Result.builder().content(null)).isInstanceOf(NullPointerException.class);
            assertThatThrownBy(() -> Result.builder().usage(null)).isInstanceOf(NullPointerException.class);
            assertThatThrownBy(() -> Result.builder().finishReason(null)).isInstanceOf(NullPointerException.class);
        }
    }

    @Nested
    class ToBuilder {

        @Test
        void toBuilderRoundTripsToAnEqualResult() {
            Result text = Result.of("Sunny.", USAGE);
            Result calls = Result.builder().reasoning("r").content("c").toolCalls(List.of(CALL)).usage(USAGE).build();
            Result explicit = Result.builder().content("a").messages(List.of(Message.assistant("a"),
                    Message.assistant("b"))).finishReason(FinishReason.LENGTH).build();

            assertThat(text.toBuilder().build()).isEqualTo(text);
            assertThat(calls.toBuilder().build()).isEqualTo(calls);
            assertThat(explicit.toBuilder().build()).isEqualTo(explicit);
        }

        @Test
        void changingTheContentOfADerivedResultUpdatesItsDefaultMessage() {
            Result broken = Result.of("{\"sentiment\": \"positive\",}", USAGE);

            Result repaired = broken.toBuilder().content("{\"sentiment\": \"positive\"}").build();

            assertThat(repaired.messages()).containsExactly(Message.assistant("{\"sentiment\": \"positive\"}"));
            assertThat(repaired.usage()).isEqualTo(USAGE);
        }

        @Test
        void addingToolCallsToADerivedResultUpdatesItsDefaultFinishReason() {
            Result result = Result.of("", USAGE).toBuilder().toolCalls(List.of(CALL)).build();

            assertThat(result.finishReason()).isEqualTo(FinishReason.TOOL_CALLS);
            assertThat(result.messages()).containsExactly(Message.assistant("", List.of(CALL)));
        }

        @Test
        void explicitlySetMessagesAndFinishReasonSurviveAChangedContent() {
            List<Message> produced = List.of(Message.assistant("part one"), Message.assistant("part two"));
            Result cutOff = Result.builder().content("part one").messages(produced)
                    .finishReason(FinishReason.LENGTH).build();

            Result changed = cutOff.toBuilder().content("part one, edited").build();

            assertThat(changed.messages()).isEqualTo(produced);
            assertThat(changed.finishReason()).isEqualTo(FinishReason.LENGTH);
        }

        @Test
        void changingADerivedBuilderLeavesTheOriginalAlone() {
            Result original = Result.of("Sunny.", USAGE);

            original.toBuilder().content("Rainy.").usage(TokenUsage.ZERO).build();

            assertThat(original).isEqualTo(Result.of("Sunny.", USAGE));
        }
    }
}
