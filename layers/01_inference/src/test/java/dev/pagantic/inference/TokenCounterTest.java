package dev.pagantic.inference;

import static org.assertj.core.api.Assertions.assertThat;

import dev.pagantic.core.Message;
import dev.pagantic.core.ToolCall;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

class TokenCounterTest {

    private final TokenCounter estimate = TokenCounter.estimate();

    @ParameterizedTest(name = "\"{0}\" -> {1}")
    @CsvSource(delimiter = '|', quoteCharacter = '\'', value = {
        "''              | 0",
        "a               | 1",
        "abcd            | 1",
        "abcde           | 2",
        "abcdefgh        | 2",
        "abcdefghi       | 3",
        "'hello world'   | 3",
    })
    void estimateIsOneTokenPerFourCharactersRoundedUp(String text, int tokens) {
        assertThat(estimate.count(text)).isEqualTo(tokens);
    }

    @Test
    void estimateIsNeverFewerThanTheWords() {
        String tenShortWords = "a b c d e f g h i j"; // 19 characters: 5 by length

        assertThat(estimate.count(tenShortWords)).isEqualTo(10);
        assertThat(estimate.count("  one\ttwo\nthree  ")).isEqualTo(5); // 17 characters beat 3 words
        assertThat(estimate.count("I a m")).isEqualTo(3);
    }

    @Test
    void estimateCountsCodePointsNotUtf16Units() {
        String fourEmoji = "\uD83D\uDE00\uD83D\uDE00\uD83D\uDE00\uD83D\uDE00"; // 4 code points, 8 chars

        assertThat(estimate.count(fourEmoji)).isEqualTo(1);
    }

    @Test
    void messagesAddAFixedOverheadEach() {
        assertThat(TokenCounter.MESSAGE_OVERHEAD_TOKENS).isEqualTo(4);
        assertThat(estimate.count(List.<Message>of())).isZero();
        assertThat(estimate.count(List.of(Message.user("hello")))).isEqualTo(4 + 2);
        assertThat(estimate.count(List.of(Message.system(""), Message.user("hello"))))
                .isEqualTo(4 + 0 + 4 + 2);
    }

    @Test
    void toolCallNamesAndArgumentsCount() {
        ToolCall call = ToolCall.of("call_1", "get_weather", Map.of("city", "Paris"));
        Message withCall = Message.assistant("", List.of(call));

        int expected = 4 + estimate.count("get_weather") + estimate.count(call.arguments().toString());

        assertThat(estimate.count(List.of(withCall))).isEqualTo(expected)
                .isGreaterThan(estimate.count(List.of(Message.assistant(""))));
    }

    @Test
    void anyCounterGetsTheMessageOverheadFromTheDefault() {
        TokenCounter characters = String::length;

        assertThat(characters.count(List.of(Message.system("ab"), Message.user("abc")))).isEqualTo(4 + 2 + 4 + 3);
    }
}
