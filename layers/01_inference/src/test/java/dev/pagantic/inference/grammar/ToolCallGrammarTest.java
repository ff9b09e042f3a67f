package dev.pagantic.inference.grammar;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.pagantic.core.ErrorCode;
import dev.pagantic.core.PaganticException;
import dev.pagantic.core.Schema;
import dev.pagantic.core.ToolDefinition;
import java.util.List;
import org.junit.jupiter.api.Test;

class ToolCallGrammarTest {

    private static final ToolDefinition WEATHER = ToolDefinition.of("get_weather", "Weather of a city",
            Schema.object().required("city", Schema.string().withMaxLength(20)).build());
    private static final ToolDefinition CLOCK = ToolDefinition.of("get_time", "The time", Schema.object().build());

    @Test
    void envelopeNamingAnOfferedToolWithValidArgumentsIsAccepted() {
        GbnfGrammar grammar = GbnfGrammar.forToolCalls(List.of(WEATHER, CLOCK), false);

        assertThat(grammar.accepts("{\"tool_calls\":[{\"name\":\"get_weather\",\"arguments\":{\"city\":\"Paris\"}}]}"))
                .isTrue();
        assertThat(grammar.accepts("{\"tool_calls\": [{\"name\": \"get_time\", \"arguments\": {}}, "
                + "{\"name\":\"get_weather\",\"arguments\":{\"city\":\"Oslo\"}}]}")).isTrue();
    }

    @Test
    void unknownToolsWrongArgumentsAndEmptyEnvelopesAreRejected() {
        GbnfGrammar grammar = GbnfGrammar.forToolCalls(List.of(WEATHER), false);

        assertThat(grammar.accepts("{\"tool_calls\":[{\"name\":\"launch\",\"arguments\":{}}]}")).isFalse();
        assertThat(grammar.accepts("{\"tool_calls\":[{\"name\":\"get_weather\",\"arguments\":{\"town\":\"x\"}}]}"))
                .isFalse();
        assertThat(grammar.accepts("{\"tool_calls\":[{\"name\":\"get_weather\",\"arguments\":{}}]}")).isFalse();
        assertThat(grammar.accepts("{\"tool_calls\":[]}")).isFalse();
    }

    @Test
    void plainAnswersAreAcceptedOnlyWhenAllowedAndNeverStartWithABrace() {
        assertThat(GbnfGrammar.forToolCalls(List.of(WEATHER), true).accepts("It is sunny.")).isTrue();
        assertThat(GbnfGrammar.forToolCalls(List.of(WEATHER), true).accepts("{not an envelope}")).isFalse();
        assertThat(GbnfGrammar.forToolCalls(List.of(WEATHER), false).accepts("It is sunny.")).isFalse();
    }

    @Test
    void aSingleCallGrammarAcceptsOneCallAndRejectsTwo() {
        GbnfGrammar single = GbnfGrammar.forToolCalls(List.of(CLOCK), false, 1);

        assertThat(single.accepts("{\"tool_calls\":[{\"name\":\"get_time\",\"arguments\":{}}]}")).isTrue();
        assertThat(single.accepts("{\"tool_calls\":[{\"name\":\"get_time\",\"arguments\":{}},"
                + "{\"name\":\"get_time\",\"arguments\":{}}]}")).isFalse();
        assertThatThrownBy(() -> GbnfGrammar.forToolCalls(List.of(CLOCK), false, 0))
                .isInstanceOf(PaganticException.class);
    }

    @Test
    void aGrammarNeedsAtLeastOneTool() {
        assertThatThrownBy(() -> GbnfGrammar.forToolCalls(List.of(), true))
                .isInstanceOfSatisfying(PaganticException.class,
                        e -> assertThat(e.code()).isEqualTo(ErrorCode.CONFIG_INVALID));
    }
}
