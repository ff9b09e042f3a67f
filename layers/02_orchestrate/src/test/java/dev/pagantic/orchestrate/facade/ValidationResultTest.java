package dev.pagantic.orchestrate.facade;

import static dev.pagantic.orchestrate.facade.FacadeAssertions.assertConfigInvalid;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

import dev.pagantic.constraint.ConstraintPipeline;
import dev.pagantic.constraint.PipelineStep;
import dev.pagantic.constraint.ValidationReport;
import dev.pagantic.constraint.Violation;
import dev.pagantic.core.Schema;
import dev.pagantic.inference.grammar.GbnfGrammar;
import java.util.List;
import java.util.OptionalDouble;
import org.junit.jupiter.api.Test;
import tools.jackson.databind.json.JsonMapper;

class ValidationResultTest {

    private static final Schema SCHEMA = Schema.object()
            .required("sentiment", Schema.enumOf("positive", "negative", "neutral"))
            .required("score", Schema.number())
            .build();

    private static ValidationReport process(String output) {
        return ConstraintPipeline.builder().schema(SCHEMA).build().process(output);
    }

    @Test
    void aConformingOutputPassesEveryCheckWithoutRepair() {
        ValidationResult result = ValidationResult.from(process("{\"sentiment\":\"positive\",\"score\":0.9}"));

        assertThat(result.valid()).isTrue();
        assertThat(result.failed()).isZero();
        assertThat(result.passed()).isEqualTo(2); // JSON check and schema validation
        assertThat(result.repairAttempts()).isZero();
        assertThat(result.repaired()).isFalse();
        assertThat(result.violations()).isEmpty();
        assertThat(result.stepsRun()).containsExactly("json_check", "enum_normalization", "schema_validation");
        assertThat(result.passRate()).isEqualTo(OptionalDouble.of(1.0));
    }

    @Test
    void aRepairedOutputCountsOneRepairAttempt() {
        ValidationResult result = ValidationResult.from(process("```json\n{\"sentiment\":\"positive\",\"score\":1,}\n```"));

        assertThat(result.repaired()).isTrue();
        assertThat(result.repairAttempts()).isEqualTo(1);
        assertThat(result.stepsRun()).contains("repair");
        assertThat(result.valid()).isTrue();
    }

    @Test
    void remainingSchemaViolationsAreReportedWithTheirPathAndMessage() {
        ValidationResult result = ValidationResult.from(process("{\"sentiment\":\"positive\"}"));

        assertThat(result.valid()).isFalse();
        assertThat(result.failed()).isEqualTo(1);
        assertThat(result.passed()).isEqualTo(1);
        assertThat(result.violations()).singleElement().satisfies(violation -> {
            assertThat(violation.path()).isNotEmpty();
            assertThat(violation.keyword()).isEqualTo("required");
            assertThat(violation.message()).contains("score");
        });
        assertThat(result.passRate()).isEqualTo(OptionalDouble.of(0.5));
    }

    @Test
    void aGrammarRejectionFailsTheGrammarCheck() {
        ValidationReport report = ConstraintPipeline.builder().schema(SCHEMA)
                .grammar(GbnfGrammar.parse("root ::= \"{\\\"sentiment\\\":\\\"neutral\\\",\\\"score\\\":0}\""))
                .build().process("{\"sentiment\":\"positive\",\"score\":1}");

        ValidationResult result = ValidationResult.from(report);

        assertThat(result.stepsRun()).startsWith("grammar_check");
        assertThat(result.failed()).isEqualTo(1);
        assertThat(result.passed()).isEqualTo(2);
        assertThat(result.violations()).singleElement()
                .satisfies(violation -> assertThat(violation.keyword()).isEqualTo(Violation.GRAMMAR));
    }

    @Test
    void aReportWithViolationsButNoCheckingStepStillCountsAFailure() {
        ValidationReport report = new ValidationReport("x", "{}", JsonMapper.shared().readTree("{}"),
                List.of(PipelineStep.JSON_CHECK), List.of(), List.of(), List.of(new Violation("$", "rule", "bad")));

        ValidationResult result = ValidationResult.from(report);

        assertThat(result.failed()).isEqualTo(1);
        assertThat(result.violations()).extracting(ValidationViolation::toString).containsExactly("$: bad");
    }

    @Test
    void resultsOfOneOutputCombine() {
        ValidationResult constraints = ValidationResult.from(process("{\"sentiment\":\"positive\",\"score\":1,}"));
        ValidationResult rules = new ValidationResult(1, 1, 0, false, List.of("no_profanity", "max_score"),
                List.of(new ValidationViolation("$.score", "max_score", "too high")));

        ValidationResult combined = constraints.plus(rules);

        assertThat(combined.passed()).isEqualTo(constraints.passed() + 1);
        assertThat(combined.failed()).isEqualTo(1);
        assertThat(combined.repairAttempts()).isEqualTo(1);
        assertThat(combined.repaired()).isTrue();
        assertThat(combined.stepsRun()).endsWith("no_profanity", "max_score");
        assertThat(combined.violations()).hasSize(1);
        assertThat(combined.passRate().getAsDouble()).isCloseTo(0.75, within(1e-9));
    }

    @Test
    void noChecksMeansNoPassRate() {
        assertThat(new ValidationResult(0, 0, 0, false, List.of(), List.of()).passRate()).isEmpty();
    }

    @Test
    void inconsistentCountsAreConfigurationErrors() {
        ValidationViolation violation = new ValidationViolation("$", "required", "missing");
        assertConfigInvalid(() -> new ValidationResult(-1, 0, 0, false, List.of(), List.of()));
        assertConfigInvalid(() -> new ValidationResult(1, 0, 0, false, List.of(), List.of(violation)));
        assertConfigInvalid(() -> new ValidationResult(0, 1, 0, false, List.of(), List.of()));
        assertConfigInvalid(() -> new ValidationResult(1, 0, 0, true, List.of(), List.of()));
        assertConfigInvalid(() -> new ValidationResult(1, 0, 0, false, List.of(" "), List.of()));
    }
}
