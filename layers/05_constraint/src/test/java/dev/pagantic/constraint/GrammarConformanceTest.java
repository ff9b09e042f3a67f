package dev.pagantic.constraint;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatCode;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.pagantic.core.ErrorCode;
import dev.pagantic.core.PaganticException;
import dev.pagantic.core.Schema;
import dev.pagantic.inference.grammar.GbnfGrammar;
import org.junit.jupiter.api.Test;

class GrammarConformanceTest {

    private static final Schema SENTIMENT = Schema.object()
            .required("sentiment", Schema.enumOf("positive", "negative", "neutral"))
            .required("confidence", Schema.number())
            .build();

    @Test
    void anOutputOfTheSchemaGrammarConforms() {
        GrammarConformance conformance = GrammarConformance.ofSchema(SENTIMENT);

        assertThat(conformance.conforms("{\"sentiment\": \"positive\", \"confidence\": 0.95}")).isTrue();
        assertThatCode(() -> conformance.require("{\"sentiment\":\"neutral\",\"confidence\":1}"))
                .doesNotThrowAnyException();
    }

    @Test
    void aTruncatedOutputIsRejectedAtItsEnd() {
        GrammarConformance conformance = GrammarConformance.ofSchema(SENTIMENT);
        String truncated = "{\"sentiment\": \"positive\", \"confidence\": 0.9";

        assertThat(conformance.check(truncated).accepted()).isFalse();
        assertThat(conformance.check(truncated).offset()).isEqualTo(truncated.length());
    }

    @Test
    void aNonConformingOutputFailsWithGrammarRejectedAndItsOffset() {
        GrammarConformance conformance = GrammarConformance.of(GbnfGrammar.parse("root ::= \"yes\" | \"no\""));

        assertThat(conformance.conforms("no")).isTrue();
        assertThatThrownBy(() -> conformance.require("maybe"))
                .isInstanceOfSatisfying(PaganticException.class, error -> {
                    assertThat(error.code()).isEqualTo(ErrorCode.CONSTRAINT_GRAMMAR_REJECTED);
                    assertThat(error.details()).containsEntry("offset", 0).containsKey("reason");
                });
    }

    @Test
    void aWrongEnumSpellingDoesNotConformToTheSchemaGrammar() {
        assertThat(GrammarConformance.ofSchema(SENTIMENT)
                .conforms("{\"sentiment\": \"Positive\", \"confidence\": 0.95}")).isFalse();
    }

    @Test
    void aCapturedModelOutputConformsToTheGrammarItWasGeneratedUnder() {
        // stories260K.gguf, seed 42, temperature 0.8 (see repair-corpus/cases.jsonl, model_unquoted_keys_stories)
        GbnfGrammar grammar = GbnfGrammar.parse(
                "root ::= \"{name: \\\"\" [a-z ]{1,12} \"\\\", count: \" num \"}\"\nnum ::= [1-9] [0-9]{0,3}\n");

        assertThat(GrammarConformance.of(grammar).conforms("{name: \" said  namea\", count: 3000}")).isTrue();
    }
}
