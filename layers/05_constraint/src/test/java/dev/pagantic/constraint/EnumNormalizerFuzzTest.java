package dev.pagantic.constraint;

import static java.nio.charset.StandardCharsets.UTF_8;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.code_intelligence.jazzer.junit.FuzzTest;
import dev.pagantic.core.ErrorCode;
import dev.pagantic.core.PaganticException;
import dev.pagantic.core.Schema;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * Fuzzes {@link EnumNormalizer} on arbitrary documents against a fixed schema with enums at every depth (a property,
 * array items, objects in an array, an ambiguous enum): it either fails with {@code CONSTRAINT_JSON_INVALID} (the
 * document is not JSON) or returns valid JSON in which every change is to a declared enum value, and normalising
 * again changes nothing. See {@link FuzzChecks} for how to run it.
 */
class EnumNormalizerFuzzTest {

    static final Schema SCHEMA = Schema.object()
            .required("sentiment", Schema.enumOf("positive", "negative", "neutral"))
            .optional("answer", Schema.enumOf("Yes", "yes", "No"))
            .optional("tags", Schema.arrayOf(Schema.enumOf("red", "GREEN", "Blue")))
            .optional("items", Schema.arrayOf(Schema.object()
                    .required("kind", Schema.enumOf("a", "b"))
                    .optional("nested", Schema.object().optional("level", Schema.enumOf("low", "high")).build())
                    .build()))
            .build();

    // Timeout: an input taking longer than 10 s is a hang (a finding in fuzzing mode, a failure in regression mode).
    @Timeout(10)
    @FuzzTest(maxDuration = "10m")
    void normalisationRewritesOnlyToDeclaredValuesAndIsIdempotent(byte[] input) {
        String json = new String(input, UTF_8);
        EnumNormalization result;
        try {
            result = EnumNormalizer.normalize(json, SCHEMA);
        } catch (PaganticException failure) {
            FuzzChecks.assertLocatedJsonInvalid(failure, json);
            assertThat(JsonRepair.isValidJson(json)).as("only invalid JSON is refused").isFalse();
            return;
        }
        assertThat(JsonRepair.isValidJson(result.json())).isTrue();
        if (result.changes().isEmpty()) {
            assertThat(result.json()).isSameAs(json);
        }
        for (EnumChange change : result.changes()) {
            assertThat(declared()).contains(change.to());
            assertThat(change.to()).isNotEqualTo(change.from());
        }
        assertThat(EnumNormalizer.normalize(result.json(), SCHEMA).changes()).as("idempotent").isEmpty();
    }

    private static List<String> declared() {
        return List.of("positive", "negative", "neutral", "Yes", "yes", "No", "red", "GREEN", "Blue", "a", "b",
                "low", "high");
    }

    @Test
    void inputNested100000DeepFailsWithJsonInvalidNotAStackOverflow() {
        // Closed or truncated: the strict check (nesting limit 512) and repair (depth limit 512) both refuse it.
        for (String deep : new String[] {"[".repeat(100_000) + "]".repeat(100_000), "{\"a\":[".repeat(100_000)}) {
            assertThatThrownBy(() -> EnumNormalizer.normalize(deep, SCHEMA))
                    .isInstanceOfSatisfying(PaganticException.class, failure ->
                            assertThat(failure.code()).isEqualTo(ErrorCode.CONSTRAINT_JSON_INVALID));
        }
    }
}
