package dev.pagantic.inference.grammar;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.pagantic.core.ErrorCode;
import dev.pagantic.core.PaganticException;
import dev.pagantic.core.Schema;
import dev.pagantic.core.ToolDefinition;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * Grammars that would hold llama.cpp in set-up are refused before decoding, with {@code CONFIG_GRAMMAR_INVALID} and
 * the budget they broke, while the grammars schemas usually give stay well within it. (How fast the refusals are is
 * measured, not asserted here: docs/performance.md; the timeouts only guard against a hang.)
 */
@Timeout(60)
class GrammarCostTest {

    private static List<String> values(int count) {
        List<String> values = new ArrayList<>();
        for (int i = 0; i < count; i++) {
            values.add("value-" + i);
        }
        return values;
    }

    private static void assertOverBudget(Runnable parse, String budget) {
        assertThatThrownBy(parse::run).isInstanceOfSatisfying(PaganticException.class, refused -> {
            assertThat(refused.code()).isEqualTo(ErrorCode.CONFIG_GRAMMAR_INVALID);
            assertThat(refused.details()).as("%s", refused).containsEntry("budget", budget)
                    .containsKeys("estimate", "limit");
        });
    }

    @Test
    void aHundredThousandValueEnumIsRefusedBeforeItsGrammarIsWritten() {
        Schema schema = Schema.fromJsonSchema(Map.of("enum", values(100_000)));

        assertOverBudget(() -> SchemaGrammar.of(schema), "characters");
    }

    @Test
    void enumsAreWrittenAsPrefixSharedRulesThatOpenFewAlternativesAtOnce() {
        GbnfGrammar grammar = SchemaGrammar.of(Schema.fromJsonSchema(Map.of("enum", values(5_000)))).grammar();

        assertThat(grammar.cost().entryWidth()).as("the widest node of the trie, not the number of values")
                .isLessThanOrEqualTo(11);
        assertThat(grammar.accepts("\"value-4999\"")).isTrue();
        assertThat(grammar.accepts("\"value-5000\"")).isFalse();
        assertThat(grammar.accepts("\"value-\"")).isFalse();
    }

    @Test
    void thousandsOfFlatAlternativesAreRefusedAsTooWide() {
        String flat = "root ::= " + String.join(" | ", values(5_000).stream().map(v -> "\"" + v + "\"").toList());

        assertOverBudget(() -> GbnfGrammar.parse(flat), "entry_width");
    }

    @Test
    void nestedRepetitionsAreRefusedAndSmallOnesAreNot() {
        assertOverBudget(() -> GbnfGrammar.parse("root ::= (\"a\"{0,1000}){0,1000}"), "leading_chain");
        assertOverBudget(() -> GbnfGrammar.parse("root ::= (\"a\"{0,100}){0,100}"), "stack_estimate");
        assertOverBudget(() -> GbnfGrammar.parse("root ::= \"x\" ((\"a\"{0,100}){0,100} \"y\")"), "stack_estimate");

        GrammarCost small = GbnfGrammar.parse("root ::= (\"a\"{0,20}){0,20}").cost();
        assertThat(small.stackEstimate()).isBetween(400L, GrammarCost.MAX_STACK_ESTIMATE);
    }

    @Test
    void aPatternWithNestedRepetitionIsRefusedWhenItsGrammarIsDerived() {
        Schema schema = Schema.fromJsonSchema(Map.of("type", "string", "pattern", "^(a{0,100}){0,100}$"));

        assertOverBudget(() -> SchemaGrammar.of(schema), "stack_estimate");
    }

    @Test
    void continuationsThatGrowWithEveryNestingLevelAreRefused() {
        // Neither rule needs a closing character, so after each character every enclosing level may end or go on.
        String grammar = "root ::= r\nr ::= \"a\" s \" \"?\ns ::= \"b\" r \" \"? | \"\"";

        assertOverBudget(() -> GbnfGrammar.parse(grammar), "stack_estimate");
    }

    @Test
    void grammarTextLongerThanTheBudgetIsRefusedBeforeItIsParsed() {
        String text = "root ::= \"" + "a".repeat(GrammarCost.MAX_CHARACTERS) + "\"";

        assertOverBudget(() -> GbnfGrammar.parse(text), "characters");
    }

    @Test
    void repetitionsExpandingPastTheElementBudgetAreRefused() {
        StringBuilder grammar = new StringBuilder("root ::= \"x\"");
        for (int i = 0; i < 100; i++) {
            grammar.append(" [a-z]{0,2000}");
        }

        assertOverBudget(() -> GbnfGrammar.parse(grammar.toString()), "elements");
    }

    @Test
    void theGrammarsOfEverydaySchemasAndToolsStayFarWithinTheBudget() {
        Schema invoice = Schema.fromJsonSchema(Map.of("$defs", Map.of("Line", Map.of("type", "object",
                        "properties", Map.of("sku", Map.of("type", "string", "pattern", "^[A-Z]{3}-[0-9]{4}$"),
                                "quantity", Map.of("type", "integer", "minimum", 1, "maximum", 999)),
                        "required", List.of("sku", "quantity"))),
                "type", "object",
                "properties", Map.of("issued", Map.of("type", "string", "format", "date"),
                        "customer", Map.of("anyOf", List.of(Map.of("type", "string", "maxLength", 60),
                                Map.of("type", "null"))),
                        "lines", Map.of("type", "array", "items", Map.of("$ref", "#/$defs/Line"), "maxItems", 50),
                        "extra", Map.of()),
                "required", List.of("issued", "lines")));
        List<ToolDefinition> tools = new ArrayList<>();
        for (int i = 0; i < 8; i++) {
            tools.add(ToolDefinition.of("tool_" + i, "", Schema.object().required("query", Schema.string())
                    .optional("limit", Schema.integer()).build()));
        }

        for (GbnfGrammar grammar : List.of(SchemaGrammar.of(invoice).grammar(), toolCalls(tools))) {
            GrammarCost cost = grammar.cost();
            assertThat(cost.stackEstimate()).as("%s", cost).isLessThan(GrammarCost.MAX_STACK_ESTIMATE / 8);
            assertThat(cost.entryWidth()).as("%s", cost).isLessThan(GrammarCost.MAX_ENTRY_WIDTH / 8);
            assertThat(cost.elements()).as("%s", cost).isLessThan(GrammarCost.MAX_ELEMENTS / 8);
        }
    }

    /** A call of any of the tools, as an engine's tool-call format composes it. */
    private static GbnfGrammar toolCalls(List<ToolDefinition> tools) {
        GbnfGrammar.Builder builder = GbnfGrammar.builder();
        List<String> calls = new ArrayList<>();
        for (int i = 0; i < tools.size(); i++) {
            String arguments = builder.schema("args" + i, tools.get(i).parameters());
            calls.add("\"{\\\"name\\\":\" " + GbnfGrammar.jsonStringLiteral(tools.get(i).name())
                    + " \",\\\"arguments\\\":\" " + arguments + " \"}\"");
        }
        return builder.rule("root", String.join(" | ", calls)).build();
    }
}
