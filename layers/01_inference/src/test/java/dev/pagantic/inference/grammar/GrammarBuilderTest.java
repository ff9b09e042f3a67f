package dev.pagantic.inference.grammar;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.pagantic.core.ErrorCode;
import dev.pagantic.core.PaganticException;
import dev.pagantic.core.Schema;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** Composing grammars: embedded schema grammars, free text until a trigger, text that avoids an opening. */
class GrammarBuilderTest {

    private static final Schema CITY = Schema.object().required("city", Schema.string().withMaxLength(12)).build();
    private static final Schema COUNT = Schema.object().required("n", Schema.integer()).build();

    private static void refusedAsInvalid(Runnable action) {
        assertThatThrownBy(action::run).isInstanceOfSatisfying(PaganticException.class,
                failure -> assertThat(failure.code()).isEqualTo(ErrorCode.CONFIG_INVALID));
    }

    @Test
    void twoEmbeddedSchemaGrammarsKeepTheirOwnRulesAndEachConstrainsItsValue() {
        GbnfGrammar.Builder builder = GbnfGrammar.builder();
        String city = builder.schema("city-args", CITY);
        String count = builder.schema("count-args", COUNT);
        GbnfGrammar grammar = builder.rule("root", "\"c\" " + city + " | \"n\" " + count).build();

        assertThat(grammar.accepts("c{\"city\": \"Oslo\"}")).isTrue();
        assertThat(grammar.accepts("n{\"n\": 42}")).isTrue();
        assertThat(grammar.accepts("c{\"n\": 42}")).isFalse();
        assertThat(grammar.accepts("c{\"city\": \"Llanfairpwllgwyngyll\"}")).as("maxLength 12").isFalse();
        assertThat(grammar.ruleNames()).contains("city-args", "count-args").doesNotContain("ws");
    }

    @Test
    void textRunsFreelyUntilTheTriggerAfterWhichItsContinuationIsRequired() {
        GbnfGrammar.Builder builder = GbnfGrammar.builder();
        String args = builder.schema("args", CITY);
        builder.rule("call", args + " \"</tool_call>\"");
        GbnfGrammar grammar = builder.rule("root", builder.textUntil("text", Map.of("<tool_call>", "call")))
                .build();

        assertThat(grammar.accepts("")).isTrue();
        assertThat(grammar.accepts("Sunny <tool and <tool_cal are just text, like <<tool_")).isTrue();
        assertThat(grammar.accepts("Let me look.<tool_call>{\"city\":\"Oslo\"}</tool_call>")).isTrue();
        assertThat(grammar.accepts("<<tool_call>{\"city\":\"Oslo\"}</tool_call>")).isTrue();
        assertThat(grammar.accepts("Let me look.<tool_call>Oslo</tool_call>")).isFalse();
        assertThat(grammar.accepts("<tool_call>{\"city\":\"Oslo\"}</tool_call> and more text")).isFalse();
    }

    @Test
    void aTriggerThatOverlapsItselfContinuesAtItsFirstOccurrence() {
        GbnfGrammar.Builder builder = GbnfGrammar.builder();
        GbnfGrammar grammar = builder.rule("root", builder.textUntil("text", Map.of(">>>", "\"fn\""))).build();

        assertThat(grammar.accepts("a >> b > c")).isTrue();
        assertThat(grammar.accepts("a>>>fn")).isTrue();
        assertThat(grammar.accepts("a>>>>fn")).as("the trigger first occurs at index 1").isFalse();
    }

    @Test
    void severalTriggersEachLeadToTheirOwnContinuation() {
        GbnfGrammar.Builder builder = GbnfGrammar.builder();
        GbnfGrammar grammar = builder.rule("root", builder.textUntil("text",
                Map.of("<｜tool▁calls▁begin｜>", "\"A\"", "[TOOL_CALLS]", "\"B\""))).build();

        assertThat(grammar.accepts("x<｜tool▁calls▁begin｜>A")).isTrue();
        assertThat(grammar.accepts("x[TOOL_CALLS]B")).isTrue();
        assertThat(grammar.accepts("x[TOOL_CALLS]A")).isFalse();
        assertThat(grammar.accepts("｜ [TOOL ▁ begin")).isTrue();
    }

    @Test
    void textNotStartingWithAPrefixMayHoldItLaterOrStopShortOfIt() {
        GbnfGrammar.Builder builder = GbnfGrammar.builder();
        GbnfGrammar grammar = builder.rule("root",
                builder.textNotStartingWith("answer", List.of("{", "<|python_tag|>"))).build();

        assertThat(grammar.accepts("It is sunny {really}")).isTrue();
        assertThat(grammar.accepts("<|python")).isTrue();
        assertThat(grammar.accepts("<|pythonic")).isTrue();
        assertThat(grammar.accepts("")).isTrue();
        assertThat(grammar.accepts("{\"name\": 1}")).isFalse();
        assertThat(grammar.accepts("<|python_tag|>x")).isFalse();
    }

    @Test
    void namesAreCheckedAndNeverDefinedTwice() {
        refusedAsInvalid(() -> GbnfGrammar.builder().rule("a_b", "\"x\""));
        refusedAsInvalid(() -> GbnfGrammar.builder().rule("a", "\"x\"").rule("a", "\"y\""));
        refusedAsInvalid(() -> {
            GbnfGrammar.Builder builder = GbnfGrammar.builder();
            builder.schema("args", CITY);
            builder.rule("args-ws", "\"x\"");
        });
        refusedAsInvalid(() -> GbnfGrammar.builder().textUntil("t", Map.of()));
        refusedAsInvalid(() -> GbnfGrammar.builder().textUntil("t", Map.of("", "\"x\"")));
        assertThatThrownBy(() -> GbnfGrammar.builder().rule("a", "\"x\"").build())
                .isInstanceOfSatisfying(PaganticException.class,
                        failure -> assertThat(failure.code()).isEqualTo(ErrorCode.CONFIG_GRAMMAR_INVALID));
    }

    @Test
    void literalsMatchTheirTextExactly() {
        String text = "say \"hi\"\\\n\t<|x|>";
        assertThat(GbnfGrammar.parse("root ::= " + GbnfGrammar.literal(text)).accepts(text)).isTrue();
        assertThat(GbnfGrammar.parse("root ::= " + GbnfGrammar.jsonStringLiteral("a\"b")).accepts("\"a\\\"b\""))
                .isTrue();
    }
}
