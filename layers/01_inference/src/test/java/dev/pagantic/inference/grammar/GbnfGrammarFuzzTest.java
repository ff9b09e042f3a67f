package dev.pagantic.inference.grammar;

import static java.nio.charset.StandardCharsets.UTF_8;
import static org.assertj.core.api.Assertions.assertThat;

import com.code_intelligence.jazzer.junit.FuzzTest;
import dev.pagantic.core.ErrorCode;
import dev.pagantic.core.PaganticException;
import dev.pagantic.core.Schema;
import java.util.Arrays;
import java.util.List;
import org.junit.jupiter.api.Timeout;
import tools.jackson.core.JacksonException;
import tools.jackson.databind.json.JsonMapper;

/**
 * Jazzer fuzz tests of the GBNF parser and recogniser. A plain {@code mvn test} replays the seeds in
 * {@code src/test/resources/dev/pagantic/inference/grammar/GbnfGrammarFuzzTestInputs/<method>/}; fuzzing mode runs
 * one target per JVM for its {@code maxDuration}:
 * <pre>
 * JAZZER_FUZZ=1 mvn -B -o test -pl layers/01_inference -Djazzer.hooks=true \
 *     -Djunit.jupiter.execution.timeout.mode=disabled \
 *     -Dtest=GbnfGrammarFuzzTest#parsingArbitraryTextEitherCompilesOrFailsWithGrammarInvalid
 * </pre>
 * ({@code jazzer.hooks=true} turns on the coverage instrumentation that {@code junit-platform.properties} turns off
 * to keep regression mode fast; the timeout mode switch keeps JUnit from timing out the whole run, while Jazzer still
 * applies {@code @Timeout} to each input.) The generated corpus goes to {@code target/jazzer/.cifuzz-corpus}; a failing input is written to
 * {@code target/jazzer/crash-*}: fix the bug and copy it into the seed directory.
 */
class GbnfGrammarFuzzTest {

    private static final Schema PERSON = Schema.object()
            .required("name", Schema.string())
            .optional("age", Schema.integer())
            .optional("tags", Schema.arrayOf(Schema.enumOf("a", "b")))
            .build();

    /** The fixed grammars {@code accepts} is fuzzed against; the first input byte picks one. */
    private static final List<GbnfGrammar> GRAMMARS = List.of(
            GbnfGrammar.fromSchema(PERSON),
            GbnfGrammar.parse("root ::= \"yes\" | \"no\" | [0-9]{1,3} (\".\" [0-9]+)?"),
            toolCallGrammar(),
            GbnfGrammar.parse("root ::= value\nvalue ::= \"(\" value* \")\" | [a-z]+ | \"\\\"\" [^\"\\\\]* \"\\\"\""));

    /** Free text until {@code <call>}, then a call with the person's arguments: a composed tool-call grammar. */
    private static GbnfGrammar toolCallGrammar() {
        GbnfGrammar.Builder grammar = GbnfGrammar.builder();
        String args = grammar.schema("lookup-args", PERSON);
        grammar.rule("call", grammar.whitespace() + " " + args + " \"</call>\"");
        return grammar.rule("root", grammar.textUntil("text", java.util.Map.of("<call>", "call"))).build();
    }

    private static final JsonMapper JSON = JsonMapper.builder()
            .enable(tools.jackson.databind.DeserializationFeature.FAIL_ON_TRAILING_TOKENS).build();

    // Timeout: an input taking longer than 10 s is a hang (a finding in fuzzing mode, a failure in regression mode).
    @Timeout(10)
    @FuzzTest(maxDuration = "10m")
    void parsingArbitraryTextEitherCompilesOrFailsWithGrammarInvalid(byte[] input) {
        String text = new String(input, UTF_8);
        GbnfGrammar grammar;
        try {
            grammar = GbnfGrammar.parse(text);
        } catch (PaganticException failure) {
            assertThat(failure.code()).as("%s", failure).isEqualTo(ErrorCode.CONFIG_GRAMMAR_INVALID);
            return;
        }
        assertThat(grammar.ruleNames()).contains("root");
        // A grammar that parsed can be matched: against its own text, and against nothing.
        match(grammar, text);
        match(grammar, "");
    }

    @Timeout(10)
    @FuzzTest(maxDuration = "10m")
    void matchingArbitraryOutputAgainstFixedGrammarsNeverFails(byte[] input) {
        if (input.length == 0) {
            return;
        }
        int choice = Byte.toUnsignedInt(input[0]) % GRAMMARS.size();
        String output = new String(Arrays.copyOfRange(input, 1, input.length), UTF_8);
        GrammarMatch match = GRAMMARS.get(choice).match(output);
        if (match.accepted()) {
            assertThat(match.offset()).isEqualTo(-1);
            if (choice == 0) {
                assertThat(isJson(output)).as("the schema grammar accepted non-JSON: %s", output).isTrue();
            }
        } else {
            assertThat(match.offset()).isBetween(0, output.length());
            assertThat(match.reason()).isNotEmpty();
        }
        assertThat(GRAMMARS.get(choice).accepts(output)).isEqualTo(match.accepted());
    }

    private static void match(GbnfGrammar grammar, String output) {
        try {
            GrammarMatch match = grammar.match(output);
            assertThat(match.accepted() ? match.offset() : 0).isBetween(-1, output.length());
        } catch (PaganticException tooAmbiguous) {
            assertThat(tooAmbiguous.code()).as("%s", tooAmbiguous).isEqualTo(ErrorCode.CONFIG_GRAMMAR_INVALID);
        }
    }

    private static boolean isJson(String text) {
        try {
            JSON.readTree(text);
            return true;
        } catch (JacksonException invalid) {
            return false;
        }
    }
}
