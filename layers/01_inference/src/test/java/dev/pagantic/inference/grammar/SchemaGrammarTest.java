package dev.pagantic.inference.grammar;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.pagantic.core.ErrorCode;
import dev.pagantic.core.PaganticException;
import dev.pagantic.core.Schema;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

class SchemaGrammarTest {

    private static final Schema SENTIMENT = Schema.object()
            .required("sentiment", Schema.enumOf("positive", "negative", "neutral"))
            .required("confidence", Schema.number())
            .build();

    @Test
    void sentimentGrammarAcceptsConformingDocumentsWithOrWithoutWhitespace() {
        GbnfGrammar grammar = GbnfGrammar.fromSchema(SENTIMENT);

        assertThat(grammar.accepts("{\"sentiment\":\"positive\",\"confidence\":0.95}")).isTrue();
        assertThat(grammar.accepts("{ \"sentiment\" : \"neutral\" ,\n  \"confidence\" : -1e-3 }")).isTrue();
    }

    @ParameterizedTest
    @ValueSource(strings = {
        "{\"sentiment\":\"Positive\",\"confidence\":0.9}",
        "{\"sentiment\":\"positive\"}",
        "{\"confidence\":0.9,\"sentiment\":\"positive\"}",
        "{\"sentiment\":\"positive\",\"confidence\":0.9,\"extra\":1}",
        "{\"sentiment\":\"positive\",\"confidence\":\"high\"}",
        "{\"sentiment\":\"positive\",\"confidence\":01}",
        "{\"sentiment\":\"positive\",\"confidence\":0.9",
        "{\"sentiment\":\"positive\",\"confidence\":0.9}{}"
    })
    void sentimentGrammarRejectsWhatTheSchemaForbids(String output) {
        assertThat(GbnfGrammar.fromSchema(SENTIMENT).accepts(output)).isFalse();
    }

    @Test
    void optionalPropertiesMayBeOmittedInAnyCombinationButKeepTheirOrder() {
        Schema schema = Schema.object()
                .optional("a", Schema.integer())
                .required("b", Schema.bool())
                .optional("c", Schema.nullValue())
                .optional("d", Schema.string())
                .build();
        GbnfGrammar grammar = GbnfGrammar.fromSchema(schema);

        assertThat(grammar.accepts("{\"b\":true}")).isTrue();
        assertThat(grammar.accepts("{\"a\":1,\"b\":false}")).isTrue();
        assertThat(grammar.accepts("{\"b\":true,\"d\":\"x\"}")).isTrue();
        assertThat(grammar.accepts("{\"a\":-7,\"b\":true,\"c\":null,\"d\":\"\"}")).isTrue();
        assertThat(grammar.accepts("{}")).as("b is required").isFalse();
        assertThat(grammar.accepts("{\"b\":true,}")).as("no trailing comma").isFalse();
        assertThat(grammar.accepts("{,\"b\":true}")).isFalse();
        assertThat(grammar.accepts("{\"b\":true,\"a\":1}")).as("declaration order").isFalse();
        assertThat(grammar.accepts("{\"a\":1.5,\"b\":true}")).as("integer").isFalse();
    }

    @Test
    void anObjectOfOnlyOptionalPropertiesMayBeEmpty() {
        GbnfGrammar grammar = GbnfGrammar.fromSchema(
                Schema.object().optional("x", Schema.string()).optional("y", Schema.string()).build());

        assertThat(grammar.accepts("{}")).isTrue();
        assertThat(grammar.accepts("{\"y\":\"1\"}")).isTrue();
        assertThat(grammar.accepts("{\"x\":\"1\",\"y\":\"2\"}")).isTrue();
    }

    @Test
    void arraysHonourTheirItemSchemaAndBounds() {
        GbnfGrammar tags = GbnfGrammar.fromSchema(Schema.arrayOf(Schema.enumOf("a", "b")).withItemCount(1, 3));
        GbnfGrammar any = GbnfGrammar.fromSchema(Schema.arrayOf(Schema.integer()));

        assertThat(tags.accepts("[\"a\"]")).isTrue();
        assertThat(tags.accepts("[\"a\", \"b\", \"a\"]")).isTrue();
        assertThat(tags.accepts("[]")).isFalse();
        assertThat(tags.accepts("[\"a\",\"b\",\"a\",\"b\"]")).isFalse();
        assertThat(tags.accepts("[\"c\"]")).isFalse();
        assertThat(any.accepts("[]")).isTrue();
        assertThat(any.accepts("[1,2,3,4,5,6,7,8,9,10]")).isTrue();
        assertThat(any.accepts("[1,]")).isFalse();
    }

    @Test
    void stringsHonourTheirMaximumLengthAndJsonEscapes() {
        GbnfGrammar shortText = GbnfGrammar.fromSchema(Schema.string().withMaxLength(3));
        GbnfGrammar text = GbnfGrammar.fromSchema(Schema.string());

        assertThat(shortText.accepts("\"abc\"")).isTrue();
        assertThat(shortText.accepts("\"abcd\"")).isFalse();
        assertThat(text.accepts("\"tab\\t quote\\\" \\u00e9 é\"")).isTrue();
        assertThat(text.accepts("\"raw\nnewline\"")).isFalse();
        assertThat(text.accepts("\"bad \\x escape\"")).isFalse();
    }

    @Test
    void nestedObjectsAndArraysOfObjectsAreConstrainedAtEveryDepth() {
        Schema person = Schema.object()
                .required("name", Schema.string())
                .required("tags", Schema.arrayOf(Schema.object().required("k", Schema.enumOf("x")).build()))
                .build();
        GbnfGrammar grammar = GbnfGrammar.fromSchema(Schema.object().required("people", Schema.arrayOf(person)).build());

        assertThat(grammar.accepts("{\"people\":[{\"name\":\"Ann\",\"tags\":[{\"k\":\"x\"}]},{\"name\":\"B\",\"tags\":[]}]}"))
                .isTrue();
        assertThat(grammar.accepts("{\"people\":[{\"name\":\"Ann\",\"tags\":[{\"k\":\"y\"}]}]}")).isFalse();
        assertThat(grammar.accepts("{\"people\":[{\"name\":\"Ann\"}]}")).isFalse();
    }

    @Test
    void propertyNamesAndEnumValuesWithSpecialCharactersAreEscapedExactly() {
        Schema schema = Schema.object()
                .required("weird key \"quoted\" \\ é", Schema.enumOf("say \"hi\"", "back\\slash", "tab\there"))
                .required("weird-key-quoted", Schema.bool())
                .build();
        GbnfGrammar grammar = GbnfGrammar.fromSchema(schema);

        assertThat(grammar.accepts("{\"weird key \\\"quoted\\\" \\\\ é\":\"say \\\"hi\\\"\",\"weird-key-quoted\":true}"))
                .isTrue();
        assertThat(grammar.accepts("{\"weird key \\\"quoted\\\" \\\\ é\":\"tab\\there\",\"weird-key-quoted\":false}"))
                .isTrue();
        assertThat(grammar.accepts("{\"weird key \\\"quoted\\\" \\\\ é\":\"say hi\",\"weird-key-quoted\":true}"))
                .isFalse();
    }

    @Test
    void aSchemaWithoutTypeAcceptsAnyJsonValue() {
        GbnfGrammar grammar = GbnfGrammar.fromSchema(Schema.object().required("payload", anyValue()).build());

        assertThat(grammar.accepts("{\"payload\":{\"a\":[1,true,null,\"s\",{}]}}")).isTrue();
        assertThat(grammar.accepts("{\"payload\":-0.5}")).isTrue();
        assertThat(grammar.accepts("{\"payload\":}")).isFalse();
    }

    @Test
    void primitiveTopLevelSchemasGetAGrammarToo() {
        assertThat(GbnfGrammar.fromSchema(Schema.bool()).accepts("false")).isTrue();
        assertThat(GbnfGrammar.fromSchema(Schema.integer()).accepts("-12")).isTrue();
        assertThat(GbnfGrammar.fromSchema(Schema.enumOf("on", "off")).accepts("\"off\"")).isTrue();
        assertThat(GbnfGrammar.fromSchema(Schema.nullValue()).accepts("nul")).isFalse();
    }

    @Test
    void generatedGrammarDefinesRootFirstAndOnlyThePrimitivesItUses() {
        String text = GbnfGrammar.fromSchema(SENTIMENT).text();

        assertThat(text).startsWith("root ::= ");
        assertThat(text).contains("number ::= ").doesNotContain("boolean ::= ").doesNotContain("value ::= ");
    }

    @Test
    void enumValuesLongerThanTheMaximumLengthAreLeftOutOfTheGrammar() {
        // Found by SchemaGrammarPropertiesTest (b): JSON Schema applies both enum and maxLength, so "abc" is invalid.
        GbnfGrammar grammar = GbnfGrammar.fromSchema(Schema.enumOf("", "a", "abc", "\u00e9").withMaxLength(1));

        assertThat(grammar.accepts("\"\"")).isTrue();
        assertThat(grammar.accepts("\"a\"")).isTrue();
        assertThat(grammar.accepts("\"\u00e9\"")).as("length in characters, not bytes").isTrue();
        assertThat(grammar.accepts("\"abc\"")).isFalse();
    }

    @Test
    void anOptionalPropertyWithNoPossibleValueIsNeverWrittenAndARequiredOneIsRefused() {
        Schema impossible = Schema.enumOf("abc", "de").withMaxLength(1);
        GbnfGrammar optional = GbnfGrammar.fromSchema(Schema.object().optional("e", impossible)
                .optional("f", Schema.bool()).build());

        assertThat(optional.accepts("{}")).isTrue();
        assertThat(optional.accepts("{\"f\":true}")).isTrue();
        assertThat(optional.accepts("{\"e\":\"de\"}")).isFalse();
        assertThatThrownBy(() -> GbnfGrammar.fromSchema(Schema.object().required("e", impossible).build()))
                .isInstanceOfSatisfying(PaganticException.class,
                        failure -> assertThat(failure.code()).isEqualTo(ErrorCode.CONFIG_INVALID))
                .hasMessageContaining("no JSON value satisfies it");
    }

    @Test
    void escapedSurrogatesMustPairAndAPairCountsAsOneCharacter() {
        // Found by SchemaGrammarPropertiesTest (b): a lone surrogate escape in a property name is refused by Jackson
        // (so by networknt and the constraint layer), and JSON Schema's maxLength counts an escaped pair as one.
        GbnfGrammar text = GbnfGrammar.fromSchema(Schema.string());
        GbnfGrammar oneCharacter = GbnfGrammar.fromSchema(Schema.string().withMaxLength(1));
        GbnfGrammar any = GbnfGrammar.fromSchema(anyValue());

        assertThat(any.accepts("{\"\\udc5bg\":1}")).as("lone low surrogate in a name").isFalse();
        assertThat(text.accepts("\"\\ud800\"")).as("lone high surrogate").isFalse();
        assertThat(text.accepts("\"\\udc00\\ud800\"")).as("pair in the wrong order").isFalse();
        assertThat(text.accepts("\"\\ud83d\\ude00 \\uD83D\\uDE00 \\u00e9 \\uFFFF \\ud7ff \\ue000\""))
                .isTrue();
        assertThat(oneCharacter.accepts("\"\\ud83d\\ude00\"")).as("one code point, as JSON Schema counts").isTrue();
        assertThat(oneCharacter.accepts("\"\\ud83d\\ude00a\"")).isFalse();
    }

    private static Schema anyValue() {
        return Schema.any();
    }
}
