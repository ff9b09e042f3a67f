package dev.pagantic.inference.grammar;

import static java.nio.charset.StandardCharsets.UTF_8;
import static org.assertj.core.api.Assertions.assertThat;

import com.code_intelligence.jazzer.junit.FuzzTest;
import dev.pagantic.core.ErrorCode;
import dev.pagantic.core.PaganticException;
import dev.pagantic.core.Schema;
import java.util.Map;
import org.junit.jupiter.api.Timeout;
import tools.jackson.core.JacksonException;
import tools.jackson.databind.json.JsonMapper;

/**
 * Fuzzes schema-to-GBNF generation on arbitrary JSON Schema documents (the input bytes as JSON, read with Jackson's
 * default limits, then {@link Schema#fromJsonSchema}): a document is either refused with {@code CONFIG_INVALID}, or
 * yields a grammar that always parses (never {@code CONFIG_GRAMMAR_INVALID} for malformed GBNF: the generator must only
 * write valid GBNF; only the cost budget may refuse it) and that can be matched. See {@link GbnfGrammarFuzzTest} for how to run it in fuzzing mode.
 */
class SchemaGbnfFuzzTest {

    private static final JsonMapper JSON = JsonMapper.builder().build();

    // Timeout: an input taking longer than 10 s is a hang (a finding in fuzzing mode, a failure in regression mode).
    @Timeout(10)
    @FuzzTest(maxDuration = "10m")
    void anyJsonSchemaEitherYieldsAValidGrammarOrIsRefusedAsInvalidConfig(byte[] input) {
        Map<String, Object> document;
        try {
            document = JSON.readValue(new String(input, UTF_8), JSON.getTypeFactory()
                    .constructMapType(Map.class, String.class, Object.class));
        } catch (JacksonException notAJsonObject) {
            return; // not a schema document at all: nothing to generate from
        }
        if (document == null) {
            return;
        }
        GbnfGrammar grammar;
        try {
            grammar = GbnfGrammar.fromSchema(Schema.fromJsonSchema(document));
        } catch (PaganticException refused) {
            if (refused.code() == ErrorCode.CONFIG_GRAMMAR_INVALID) { // over the cost budget: refused before decoding
                assertThat(refused.details()).as("%s", refused).containsKey("budget");
            } else {
                assertThat(refused.code()).as("%s", refused).isEqualTo(ErrorCode.CONFIG_INVALID);
            }
            return;
        }
        assertThat(grammar.ruleNames()).contains("root");
        assertThat(GbnfGrammar.parse(grammar.text()).text()).isEqualTo(grammar.text());
        for (String output : new String[] {"", "{}", "[]", "\"a\"", "0", "null", "{\"a\": [1, \"x\"]}"}) {
            GrammarMatch match = grammar.match(output);
            assertThat(match.accepted() || match.offset() >= 0).isTrue();
        }
    }
}
