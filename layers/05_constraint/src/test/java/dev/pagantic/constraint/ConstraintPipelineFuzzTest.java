package dev.pagantic.constraint;

import static java.nio.charset.StandardCharsets.UTF_8;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.code_intelligence.jazzer.junit.FuzzTest;
import dev.pagantic.core.ErrorCode;
import dev.pagantic.core.PaganticException;
import dev.pagantic.core.Schema;
import dev.pagantic.inference.grammar.GbnfGrammar;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * Fuzzes the whole {@link ConstraintPipeline} (grammar check, repair, enum normalisation, schema validation) on
 * arbitrary model output against a fixed schema: the lenient pipeline returns a consistent report or fails with
 * {@code CONSTRAINT_JSON_INVALID}; the strict one fails only with a constraint error code. See {@link FuzzChecks}
 * for how to run it.
 */
class ConstraintPipelineFuzzTest {

    private static final Schema SCHEMA = Schema.object()
            .required("sentiment", Schema.enumOf("positive", "negative", "neutral"))
            .required("confidence", Schema.number())
            .optional("tags", Schema.arrayOf(Schema.string()))
            .optional("author", Schema.object().required("name", Schema.string())
                    .optional("age", Schema.integer()).build())
            .build();

    private static final ConstraintPipeline LENIENT = ConstraintPipeline.builder()
            .schema(SCHEMA).grammar(GbnfGrammar.fromSchema(SCHEMA)).build();
    private static final ConstraintPipeline STRICT = ConstraintPipeline.builder()
            .schema(SCHEMA).grammar(GbnfGrammar.fromSchema(SCHEMA)).strict(true).build();

    // Timeout: an input taking longer than 10 s is a hang (a finding in fuzzing mode, a failure in regression mode).
    @Timeout(10)
    @FuzzTest(maxDuration = "10m")
    void pipelineReportsConsistentlyOrFailsWithAConstraintCode(byte[] input) {
        String output = new String(input, UTF_8);
        ValidationReport report;
        try {
            report = LENIENT.process(output);
        } catch (PaganticException failure) {
            FuzzChecks.assertLocatedJsonInvalid(failure, output);
            assertStrictFailsWith(output, ErrorCode.CONSTRAINT_JSON_INVALID);
            return;
        }
        assertThat(report.output()).isSameAs(output);
        assertThat(JsonRepair.isValidJson(report.json())).isTrue();
        assertThat(report.valid()).isEqualTo(report.violations().isEmpty());
        assertThat(report.ran(PipelineStep.SCHEMA_VALIDATION)).isTrue();
        assertThat(report.repaired()).isEqualTo(report.ran(PipelineStep.REPAIR));
        if (report.valid()) {
            assertThat(STRICT.process(output).json()).isEqualTo(report.json());
        } else {
            assertStrictFailsWith(output, report.errorCode().orElseThrow());
        }
    }

    private static void assertStrictFailsWith(String output, ErrorCode expected) {
        try {
            STRICT.process(output);
        } catch (PaganticException failure) {
            FuzzChecks.assertConstraintFailure(failure);
            assertThat(failure.code()).isEqualTo(expected);
            return;
        }
        throw new AssertionError("the strict pipeline accepted what the lenient one refused: " + output);
    }

    @Test
    void inputNested100000DeepFailsWithJsonInvalidNotAStackOverflow() {
        // Closed or truncated: the strict check (nesting limit 512) and repair (depth limit 512) both refuse it.
        for (String deep : new String[] {"[".repeat(100_000) + "]".repeat(100_000), "{\"a\":[".repeat(100_000)}) {
            assertThatThrownBy(() -> LENIENT.process(deep))
                    .isInstanceOfSatisfying(PaganticException.class, failure ->
                            assertThat(failure.code()).isEqualTo(ErrorCode.CONSTRAINT_JSON_INVALID));
        }
    }
}
