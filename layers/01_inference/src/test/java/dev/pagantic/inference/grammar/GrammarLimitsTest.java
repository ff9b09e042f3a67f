package dev.pagantic.inference.grammar;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.pagantic.core.ErrorCode;
import dev.pagantic.core.PaganticException;
import dev.pagantic.core.Schema;
import org.junit.jupiter.api.Test;

/** Hostile grammars and schemas are refused with their documented error code, never with a StackOverflowError. */
class GrammarLimitsTest {

    private static final int HOSTILE_DEPTH = 100_000;

    @Test
    void groupsNested100000DeepAreRefusedAsAnInvalidGrammar() {
        String grammar = "root ::= " + "(".repeat(HOSTILE_DEPTH) + "\"a\"" + ")".repeat(HOSTILE_DEPTH);

        assertThatThrownBy(() -> GbnfGrammar.parse(grammar))
                .isInstanceOfSatisfying(PaganticException.class, failure -> {
                    assertThat(failure.code()).isEqualTo(ErrorCode.CONFIG_GRAMMAR_INVALID);
                    assertThat(failure.getMessage()).contains("nested deeper than " + GbnfParser.MAX_NESTING);
                    assertThat(failure.details()).containsEntry("line", 1)
                            .containsEntry("column", 10 + GbnfParser.MAX_NESTING);
                });
    }

    @Test
    void groupsNestedUpToTheLimitStillParseAndMatch() {
        int depth = GbnfParser.MAX_NESTING;
        GbnfGrammar grammar = GbnfGrammar.parse("root ::= " + "(".repeat(depth) + "\"a\"" + ")".repeat(depth));

        assertThat(grammar.accepts("a")).isTrue();
    }

    @Test
    void aChainOfRulesReferencedAtTheStartLongerThanTheLimitIsRefusedAsAnInvalidGrammar() {
        int length = CompiledGrammar.MAX_LEADING_CHAIN + 10;
        StringBuilder grammar = new StringBuilder("root ::= r0\n");
        for (int i = 0; i < length; i++) {
            grammar.append('r').append(i).append(" ::= r").append(i + 1).append('\n');
        }
        grammar.append('r').append(length).append(" ::= \"x\"\n");

        assertThatThrownBy(() -> GbnfGrammar.parse(grammar.toString()))
                .isInstanceOfSatisfying(PaganticException.class, failure -> {
                    assertThat(failure.code()).isEqualTo(ErrorCode.CONFIG_GRAMMAR_INVALID);
                    assertThat(failure.getMessage()).contains("more than " + CompiledGrammar.MAX_LEADING_CHAIN);
                });
    }

    @Test
    void aChainOf100000RulesIsRefusedForItsSizeBeforeItIsParsed() {
        StringBuilder grammar = new StringBuilder("root ::= r0\n");
        for (int i = 0; i < HOSTILE_DEPTH; i++) {
            grammar.append('r').append(i).append(" ::= r").append(i + 1).append('\n');
        }
        grammar.append('r').append(HOSTILE_DEPTH).append(" ::= \"x\"\n");

        assertThatThrownBy(() -> GbnfGrammar.parse(grammar.toString()))
                .isInstanceOfSatisfying(PaganticException.class, failure -> {
                    assertThat(failure.code()).isEqualTo(ErrorCode.CONFIG_GRAMMAR_INVALID);
                    assertThat(failure.details()).containsEntry("budget", "characters");
                });
    }

    @Test
    void matching100000NullableReferencesInARowNeedsNoDeepStack() {
        // Each "a" matches nothing, so the recogniser expands through all of them to reach the "!".
        String grammar = "root ::= " + "a ".repeat(HOSTILE_DEPTH) + "\"!\"\na ::= \"\"\n";

        GbnfGrammar parsed = GbnfGrammar.parse(grammar);

        assertThat(parsed.accepts("!")).isTrue();
        assertThat(parsed.accepts("x")).isFalse();
    }

    @Test
    void chainedRepetitionsThatWouldExpandPastTheLimitAreRefused() {
        assertThatThrownBy(() -> GbnfGrammar.parse("root ::= \"a\"{2000}{2000}{2000}"))
                .isInstanceOfSatisfying(PaganticException.class, failure -> {
                    assertThat(failure.code()).isEqualTo(ErrorCode.CONFIG_GRAMMAR_INVALID);
                    assertThat(failure.getMessage()).contains("beyond " + GbnfParser.MAX_ELEMENTS + " elements");
                });
        assertThat(GbnfGrammar.parse("root ::= \"a\"{2000}").accepts("a".repeat(2000))).isTrue();
    }

    @Test
    void aSchemaNested100000DeepIsRefusedAsInvalidConfig() {
        assertThatThrownBy(() -> {
            Schema schema = Schema.string();
            for (int i = 0; i < HOSTILE_DEPTH; i++) {
                schema = i % 2 == 0 ? Schema.arrayOf(schema) : Schema.object().required("a", schema).build();
            }
        }).isInstanceOfSatisfying(PaganticException.class, failure -> {
                    assertThat(failure.code()).isEqualTo(ErrorCode.CONFIG_INVALID);
            assertThat(failure.getMessage()).contains("nested deeper than "
                    + SchemaGbnfGenerator.MAX_SCHEMA_DEPTH);
        });
    }

    @Test
    void aSchemaNestedUpToTheLimitYieldsAGrammar() {
        Schema schema = Schema.integer();
        for (int i = 0; i < SchemaGbnfGenerator.MAX_SCHEMA_DEPTH; i++) {
            schema = Schema.arrayOf(schema);
        }

        GbnfGrammar grammar = GbnfGrammar.fromSchema(schema);

        int depth = SchemaGbnfGenerator.MAX_SCHEMA_DEPTH;
        assertThat(grammar.accepts("[".repeat(depth) + "1" + "]".repeat(depth))).isTrue();
    }
}
