package dev.pagantic.inference.grammar;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.pagantic.core.ErrorCode;
import dev.pagantic.core.PaganticException;
import org.junit.jupiter.api.Nested;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

class GbnfGrammarTest {

    private static GbnfGrammar grammar(String... lines) {
        return GbnfGrammar.parse(String.join("\n", lines) + "\n");
    }

    @Nested
    class Constructs {

        @Test
        void alternativesOfLiteralsAcceptExactlyTheirStrings() {
            GbnfGrammar yesNo = GbnfGrammar.parse("root ::= \"yes\" | \"no\"");

            assertThat(yesNo.accepts("yes")).isTrue();
            assertThat(yesNo.accepts("no")).isTrue();
            assertThat(yesNo.accepts("maybe")).isFalse();
            assertThat(yesNo.accepts("yes ")).isFalse();
            assertThat(yesNo.accepts("")).isFalse();
        }

        @Test
        void arithmeticStyleGrammarWithClassesGroupsAndStarsIsRecognised() {
            GbnfGrammar arithmetic = grammar(
                    "root  ::= (expr \"=\" ws term \"\\n\")+",
                    "expr  ::= term ([-+*/] term)*",
                    "term  ::= ident | num | \"(\" ws expr \")\" ws",
                    "ident ::= [a-z] [a-z0-9_]* ws",
                    "num   ::= [0-9]+ ws",
                    "ws    ::= [ \\t\\n]*");

            assertThat(arithmetic.accepts("1+2=3\n")).isTrue();
            assertThat(arithmetic.accepts("(a_1 *20)-b=x\ny/2=1\n")).isTrue();
            assertThat(arithmetic.accepts("1+=3\n")).isFalse();
            assertThat(arithmetic.accepts("1+2=3")).isFalse();
        }

        @Test
        void chessStyleGrammarWithOptionalsAndAlternativeGroupsIsRecognised() {
            GbnfGrammar chess = grammar(
                    "# a move list",
                    "root   ::= \"1. \" move \" \" move (\" \" [1-9] [0-9]? \". \" move \" \" move)*",
                    "move   ::= (pawn | nonpawn | castle) [+#]?",
                    "nonpawn ::= [NBKQR] [a-h]? [1-8]? \"x\"? [a-h] [1-8]",
                    "pawn   ::= ([a-h] \"x\")? [a-h] [1-8] (\"=\" [NBKQR])?",
                    "castle ::= \"O-O\" \"-O\"?");

            assertThat(chess.accepts("1. e4 e5 2. Nf3 Nc6 3. O-O-O exd8=Q#")).isTrue();
            assertThat(chess.accepts("1. e4 e9")).isFalse();
        }

        @Test
        void negatedClassesAndCommentsAsInTheCGrammarAreRecognised() {
            GbnfGrammar c = grammar(
                    "root ::= (declaration)*   # zero or more",
                    "declaration ::= dataType identifier \"(\" \")\" \" {\" [^}]* \"}\" \"\\n\"",
                    "dataType  ::= \"int \" | \"float \"",
                    "identifier ::= [a-zA-Z_] [a-zA-Z_0-9]*");

            assertThat(c.accepts("int main() { return 0; }\nfloat f() {}\n")).isTrue();
            assertThat(c.accepts("int main() { } }\n")).isFalse();
        }

        @Test
        void anyCharacterAndUnicodeRangesAsInTheJapaneseGrammarAreRecognised() {
            GbnfGrammar japanese = grammar(
                    "root ::= jp-char+ ([ \\t\\n] jp-char+)*",
                    "jp-char ::= hiragana | katakana | punctuation | cjk",
                    "hiragana ::= [ぁ-ゟ]",
                    "katakana ::= [ァ-ヿ]",
                    "punctuation ::= [、-〾]",
                    "cjk ::= [\\u4E00-\\u9FFF] | [\\U00020000-\\U0002A6DF]");
            GbnfGrammar anything = GbnfGrammar.parse("root ::= \"<\" . . \">\"");

            assertThat(japanese.accepts("こんにちは、世界")).isTrue();
            assertThat(japanese.accepts("\uD840\uDC00カ")).as("a supplementary-plane character").isTrue();
            assertThat(japanese.accepts("hello")).isFalse();
            assertThat(anything.accepts("<é😀>")).isTrue();
            assertThat(anything.accepts("<é>")).isFalse();
        }

        @Test
        void englishStyleGrammarWithEscapedBracketsAndAnImplicitRangeInAClassIsRecognised() {
            // [ ... ,-. ... ] is the range ',' to '.', which includes '-'; \\ and \] are escaped, [ and " are not.
            GbnfGrammar english = grammar(
                    "root ::= en-char+ ([ \\t\\n] en-char+)*",
                    "en-char ::= letter | digit | punctuation",
                    "letter ::= [a-zA-Z]",
                    "digit ::= [0-9]",
                    "punctuation ::= [!\"#$%&'()*+,-./:;<=>?@[\\\\\\]^_`{|}~]");

            assertThat(english.accepts("Hello, world! [x] \\ {a-b} \"q\"")).isTrue();
            assertThat(english.accepts("caf\u00e9")).isFalse();
        }

        @Test
        void listStyleGrammarWithHexEscapesInNegatedClassesIsRecognised() {
            GbnfGrammar list = grammar(
                    "root ::= item+",
                    "item ::= \"- \" [^\\r\\n\\x0b\\x0c\\x85\\u2028\\u2029]+ \"\\n\"");

            assertThat(list.accepts("- milk\n- eggs\n")).isTrue();
            assertThat(list.accepts("- milk\u2028\n")).isFalse();
            assertThat(list.accepts("- \n")).isFalse();
        }

        @Test
        void boundedRepetitionsAsInTheJsonGrammarsAreRecognised() {
            GbnfGrammar counts = grammar(
                    "root ::= exactly \" \" atLeast \" \" between",
                    "exactly ::= [0-9a-fA-F]{4}",
                    "atLeast ::= \"a\"{2,}",
                    "between ::= \"b\"{0,3}");

            assertThat(counts.accepts("00fF aa ")).isTrue();
            assertThat(counts.accepts("1234 aaaaa bbb")).isTrue();
            assertThat(counts.accepts("123 aa b")).isFalse();
            assertThat(counts.accepts("1234 a b")).isFalse();
            assertThat(counts.accepts("1234 aa bbbb")).isFalse();
        }

        @Test
        void jsonGrammarAcceptsNestedDocumentsAndRejectsBrokenOnes() {
            GbnfGrammar json = grammar(
                    "root   ::= object",
                    "value  ::= object | array | string | number | (\"true\" | \"false\" | \"null\") ws",
                    "object ::=",
                    "  \"{\" ws (",
                    "            string \":\" ws value",
                    "    (\",\" ws string \":\" ws value)*",
                    "  )? \"}\" ws",
                    "array  ::= \"[\" ws ( value (\",\" ws value)* )? \"]\" ws",
                    "string ::= \"\\\"\" ( [^\"\\\\\\x7F\\x00-\\x1F] | \"\\\\\" ([\"\\\\/bfnrt] | \"u\" [0-9a-fA-F]{4}) )* \"\\\"\" ws",
                    "number ::= (\"-\"? ([0-9] | [1-9] [0-9]{0,15})) (\".\" [0-9]+)? ([eE] [-+]? [0-9]+)? ws",
                    "ws ::= | \" \" | \"\\n\" [ \\t]{0,20}");

            assertThat(json.accepts("{\"a\": [1, -2.5e3, \"x\\u00e9\\n\"], \"b\": {\"c\": null}}")).isTrue();
            assertThat(json.accepts("{}")).isTrue();
            assertThat(json.accepts("{\"a\": }")).isFalse();
            assertThat(json.accepts("[1]")).isFalse();
        }

        @Test
        void aLaterDefinitionOfARuleReplacesTheEarlierOneAsInLlamaCpp() {
            GbnfGrammar redefined = grammar("root ::= x", "x ::= \"a\"", "x ::= \"b\"");

            assertThat(redefined.accepts("b")).isTrue();
            assertThat(redefined.accepts("a")).isFalse();
        }

        @Test
        void newlinesAreAllowedInsideGroupsAndAfterTheRuleOperator() {
            GbnfGrammar multiline = grammar("root ::=", "  (", "    \"a\"", "  | \"b\"", "  )");

            assertThat(multiline.accepts("b")).isTrue();
        }

        @Test
        void ruleNamesExcludeSynthesizedRules() {
            GbnfGrammar grammar = grammar("root ::= (item \",\")* item?", "item ::= [a-z]+");

            assertThat(grammar.ruleNames()).containsExactly("root", "item");
        }
    }

    @Nested
    class Conformance {

        private final GbnfGrammar digits = GbnfGrammar.parse("root ::= [0-9]+ \"!\"");

        @Test
        void rejectionReportsTheOffsetOfTheFirstCharacterNoParseCouldTake() {
            GrammarMatch match = digits.match("12x!");

            assertThat(match.accepted()).isFalse();
            assertThat(match.offset()).isEqualTo(2);
            assertThat(match.reason()).contains("'x'");
        }

        @Test
        void outputThatEndsTooEarlyIsRejectedAtItsEnd() {
            GrammarMatch match = digits.match("123");

            assertThat(match.accepted()).isFalse();
            assertThat(match.offset()).isEqualTo(3);
            assertThat(match.reason()).contains("ended");
        }

        @Test
        void requireAcceptedRaisesGrammarRejectedWithDetails() {
            assertThatThrownBy(() -> digits.requireAccepted("12x!"))
                    .isInstanceOfSatisfying(PaganticException.class, e -> {
                        assertThat(e.code()).isEqualTo(ErrorCode.CONSTRAINT_GRAMMAR_REJECTED);
                        assertThat(e.retryable()).isTrue();
                        assertThat(e.details()).containsEntry("offset", 2);
                    });
        }

        @Test
        void requireAcceptedPassesConformingOutput() {
            digits.requireAccepted("007!");
        }

        @Test
        void longOutputsAreCheckedWithoutStackGrowth() {
            String output = "7".repeat(200_000) + "!";

            assertThat(digits.accepts(output)).isTrue();
        }
    }

    @Nested
    class MalformedGrammars {

        @ParameterizedTest(name = "{0}")
        @CsvSource(delimiter = '|', textBlock = """
                root ::= foo                    | 1 | 10 | undefined rule 'foo'
                rot ::= "a"                     | 1 | 1  | no 'root' rule
                root ::= [a-                    | 1 | 13 | unterminated character class
                root ::= "abc                   | 1 | 14 | unterminated string literal
                root ::= "\\q"                  | 1 | 11 | unknown escape
                root ::= "\\x4"                 | 1 | 14 | hex digits
                root ::= "a"{3,1}               | 1 | 13 | maximum below its minimum
                root ::= "a"{5000}              | 1 | 14 | exceeds 2000
                root ::= "a"{x}                 | 1 | 14 | expecting an integer
                root ::= "a"{1;2}               | 1 | 15 | expecting ',' or '}'
                root ::= *                      | 1 | 10 | needs a preceding item
                root ::= ("a"                   | 1 | 14 | expecting ')'
                root := "a"                     | 1 | 6  | expecting '::='
                root ::= [z-a]                  | 1 | 13 | reversed
                root ::= "a" )                  | 1 | 14 | expecting newline or end
                """)
        void isRefusedWithLineAndColumn(String grammar, int line, int column, String message) {
            assertThatThrownBy(() -> GbnfGrammar.parse(grammar))
                    .isInstanceOfSatisfying(PaganticException.class, e -> {
                        assertThat(e.code()).isEqualTo(ErrorCode.CONFIG_GRAMMAR_INVALID);
                        assertThat(e.getMessage()).contains(message);
                        assertThat(e.details()).containsEntry("line", line).containsEntry("column", column);
                    });
        }

        @Test
        void anAlternativeOnTheNextLineOutsideParenthesesIsRefusedAsLlamaCppDoes() {
            assertThatThrownBy(() -> GbnfGrammar.parse("root ::= \"a\"\n| \"b\"\n"))
                    .isInstanceOfSatisfying(PaganticException.class,
                            e -> assertThat(e.details()).containsEntry("line", 2).containsEntry("column", 1));
        }

        @Test
        void anUndefinedRuleIsReportedWhereItIsFirstUsed() {
            assertThatThrownBy(() -> GbnfGrammar.parse("root ::= a\na ::= \"x\" b\n"))
                    .isInstanceOfSatisfying(PaganticException.class, e -> {
                        assertThat(e.getMessage()).contains("undefined rule 'b'");
                        assertThat(e.details()).containsEntry("line", 2).containsEntry("column", 11);
                    });
        }

        @Test
        void leftRecursionIsRefusedBecauseLlamaCppCannotRunIt() {
            assertThatThrownBy(() -> GbnfGrammar.parse("root ::= expr\nexpr ::= opt expr \"+\" | \"1\"\nopt ::= \"-\"?\n"))
                    .isInstanceOfSatisfying(PaganticException.class, e -> {
                        assertThat(e.code()).isEqualTo(ErrorCode.CONFIG_GRAMMAR_INVALID);
                        assertThat(e.getMessage()).contains("left recursion");
                    });
        }

        @Test
        void anEmptyGrammarHasNoRoot() {
            assertThatThrownBy(() -> GbnfGrammar.parse("  # nothing here\n"))
                    .hasMessageContaining("no 'root' rule");
        }
    }
}
