package dev.pagantic.constraint;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.pagantic.core.ErrorCode;
import dev.pagantic.core.PaganticException;
import dev.pagantic.core.Schema;
import dev.pagantic.inference.grammar.GbnfGrammar;
import java.math.BigDecimal;
import java.util.List;
import org.junit.jupiter.api.Test;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.node.ObjectNode;

class ConstraintPipelineTest {

    private static final Schema SENTIMENT = Schema.object()
            .required("sentiment", Schema.enumOf("positive", "negative", "neutral"))
            .required("confidence", Schema.number())
            .build();

    /** The shape the captured truncated outputs were generated for (see repair-corpus/cases.jsonl). */
    private static final Schema PERSON_NAME_ONLY_REQUIRED = Schema.object()
            .required("name", Schema.string())
            .optional("age", Schema.integer())
            .optional("tags", Schema.arrayOf(Schema.string()))
            .build();

    private static final Schema PERSON = Schema.object()
            .required("name", Schema.string())
            .required("age", Schema.integer())
            .required("tags", Schema.arrayOf(Schema.string()))
            .build();

    private final ConstraintPipeline sentiment = ConstraintPipeline.builder().schema(SENTIMENT).build();

    @Test
    void validConformingOutputPassesThroughByteForByte() {
        String output = "{\"sentiment\":   \"positive\", \"confidence\": 0.950}";

        ValidationReport report = sentiment.process(output);

        assertThat(report.json()).isSameAs(output);
        assertThat(report.valid()).isTrue();
        assertThat(report.steps()).containsExactly(PipelineStep.JSON_CHECK, PipelineStep.ENUM_NORMALIZATION,
                PipelineStep.SCHEMA_VALIDATION);
        assertThat(report.repairs()).isEmpty();
        assertThat(report.enumChanges()).isEmpty();
        assertThat(report.errorCode()).isEmpty();
    }

    @Test
    void enumNormalisationIsSkippedWhenTheSchemaHasNoEnums() {
        ConstraintPipeline pipeline = ConstraintPipeline.builder().schema(PERSON).build();

        ValidationReport report = pipeline.process("{\"name\": \"Ada\", \"age\": 36, \"tags\": []}");

        assertThat(report.steps()).containsExactly(PipelineStep.JSON_CHECK, PipelineStep.SCHEMA_VALIDATION);
    }

    @Test
    void invalidOutputIsRepairedThenNormalisedThenValidatedAndEveryStepIsRecorded() {
        String output = "Sure!\n```json\n{'sentiment': 'Positive', 'confidence': 0.9,}\n```";

        ValidationReport report = sentiment.process(output);

        assertThat(report.json()).isEqualTo("{\"sentiment\": \"positive\", \"confidence\": 0.9}");
        assertThat(report.steps()).containsExactly(PipelineStep.JSON_CHECK, PipelineStep.REPAIR,
                PipelineStep.ENUM_NORMALIZATION, PipelineStep.SCHEMA_VALIDATION);
        assertThat(report.repairs()).extracting(RepairFix::kind).contains(RepairKind.REMOVED_CODE_FENCE,
                RepairKind.CONVERTED_SINGLE_QUOTES, RepairKind.REMOVED_TRAILING_COMMA);
        assertThat(report.enumChanges()).containsExactly(new EnumChange("$.sentiment", "Positive", "positive"));
        assertThat(report.repaired()).isTrue();
        assertThat(report.valid()).isTrue();
        assertThat(report.output()).isEqualTo(output);
    }

    @Test
    void aTruncatedCapturedOutputIsClosedAndPassesASchemaWhoseMissingFieldsAreOptional() {
        // stories260K.gguf, seed 44, temperature 0.8, n_predict 24 (corpus case model_truncated_s44_n24)
        ConstraintPipeline pipeline = ConstraintPipeline.builder().schema(PERSON_NAME_ONLY_REQUIRED).build();

        ValidationReport report = pipeline.process("{\"name\": \"ries you can make a make\", ");

        assertThat(report.json()).isEqualTo("{\"name\": \"ries you can make a make\"}");
        assertThat(report.valid()).isTrue();
        assertThat(report.repairs()).extracting(RepairFix::kind)
                .containsExactly(RepairKind.REMOVED_DANGLING_COMMA, RepairKind.CLOSED_STRUCTURE);
    }

    @Test
    void aTruncatedCapturedOutputIsClosedAndFailsWithSchemaInvalidNamingTheMissingField() {
        // llama-2-tiny-random.gguf, seed 8, temperature 0.8, n_predict 20 (corpus case model_truncated_random_n20)
        ConstraintPipeline pipeline = ConstraintPipeline.builder().schema(PERSON).strict(true).build();

        assertThatThrownBy(() -> pipeline.process("{\"name\": \"nontoolstek stronger cin\", \"age\": "))
                .isInstanceOfSatisfying(PaganticException.class, error -> {
                    assertThat(error.code()).isEqualTo(ErrorCode.CONSTRAINT_SCHEMA_INVALID);
                    assertThat(error.details().get("paths")).isEqualTo(List.of("$.age", "$.tags"));
                    assertThat(error.getMessage()).contains("'age'", "'tags'");
                });
    }

    @Test
    void inLenientModeTheRemainingViolationsAreReportedWithTheirCode() {
        ConstraintPipeline pipeline = ConstraintPipeline.builder().schema(PERSON).build();

        ValidationReport report = pipeline.process("{\"name\": \"t");

        assertThat(report.json()).isEqualTo("{\"name\": \"t\"}");
        assertThat(report.valid()).isFalse();
        assertThat(report.violations()).extracting(Violation::path).containsExactlyInAnyOrder("$.age", "$.tags");
        assertThat(report.errorCode()).contains(ErrorCode.CONSTRAINT_SCHEMA_INVALID);
        assertThatThrownBy(report::requireValid).isInstanceOf(PaganticException.class);
        assertThat(report.failure()).get().extracting(PaganticException::code)
                .isEqualTo(ErrorCode.CONSTRAINT_SCHEMA_INVALID);
    }

    @Test
    void anEnumValueThatCannotBeNormalisedIsReportedAsEnumUnrecognized() {
        ValidationReport report = sentiment.process("{\"sentiment\": \"great\", \"confidence\": 1}");

        assertThat(report.errorCode()).contains(ErrorCode.CONSTRAINT_ENUM_UNRECOGNIZED);
        assertThat(report.violations()).singleElement().extracting(Violation::path).isEqualTo("$.sentiment");

        ConstraintPipeline strict = ConstraintPipeline.builder().schema(SENTIMENT).strict(true).build();
        assertThatThrownBy(() -> strict.process("{\"sentiment\": \"great\", \"confidence\": 1}"))
                .isInstanceOfSatisfying(PaganticException.class,
                        error -> assertThat(error.code()).isEqualTo(ErrorCode.CONSTRAINT_ENUM_UNRECOGNIZED));
    }

    @Test
    void withRepairDisallowedInvalidJsonFailsWithJsonInvalid() {
        ConstraintPipeline pipeline = ConstraintPipeline.builder().schema(SENTIMENT).repairAllowed(false).build();

        assertThatThrownBy(() -> pipeline.process("{\"sentiment\": \"positive\", \"confidence\": 0.9,}"))
                .isInstanceOfSatisfying(PaganticException.class, error -> {
                    assertThat(error.code()).isEqualTo(ErrorCode.CONSTRAINT_JSON_INVALID);
                    assertThat(error.details()).containsKeys("offset", "line", "column");
                    assertThat(error.retryable()).as("with repair off a structural error is terminal (seed 001)")
                            .isFalse();
                });
        assertThat(pipeline.process("{\"sentiment\": \"positive\", \"confidence\": 0.9}").valid()).isTrue();
    }

    @Test
    void anUnrepairableOutputFailsWithJsonInvalid() {
        assertThatThrownBy(() -> sentiment.process("I cannot answer that."))
                .isInstanceOfSatisfying(PaganticException.class,
                        error -> assertThat(error.code()).isEqualTo(ErrorCode.CONSTRAINT_JSON_INVALID));
    }

    @Test
    void theParsedValueKeepsNumbersExactAndIsACopy() {
        ValidationReport report = sentiment.process("{\"sentiment\": \"neutral\", \"confidence\": 0.950}");

        JsonNode value = report.value();
        assertThat(value.get("confidence").decimalValue()).isEqualTo(new BigDecimal("0.950"));
        ((ObjectNode) value).put("sentiment", "changed");
        assertThat(report.value().get("sentiment").asString()).isEqualTo("neutral");
    }

    @Test
    void aConformingOutputUnderTheGrammarHasNoGrammarViolation() {
        ConstraintPipeline pipeline = ConstraintPipeline.builder().schema(SENTIMENT)
                .grammar(GbnfGrammar.fromSchema(SENTIMENT)).build();

        ValidationReport report = pipeline.process("{\"sentiment\": \"negative\", \"confidence\": 0.1}");

        assertThat(report.steps()).startsWith(PipelineStep.GRAMMAR_CHECK, PipelineStep.JSON_CHECK);
        assertThat(report.valid()).isTrue();
    }

    @Test
    void aTruncatedGrammarOutputWhoseRepairConformsHasNoGrammarViolation() {
        ConstraintPipeline pipeline = ConstraintPipeline.builder().schema(SENTIMENT)
                .grammar(GbnfGrammar.fromSchema(SENTIMENT)).build();

        ValidationReport report = pipeline.process("{\"sentiment\": \"negative\", \"confidence\": 0.1");

        assertThat(report.json()).isEqualTo("{\"sentiment\": \"negative\", \"confidence\": 0.1}");
        assertThat(report.valid()).isTrue();
    }

    @Test
    void anOutputThatDoesNotConformToItsGrammarIsReportedAsGrammarRejected() {
        GbnfGrammar compact = GbnfGrammar.parse("root ::= \"{\\\"sentiment\\\":\\\"\" [a-z]+ \"\\\",\\\"confidence\\\":\" [0-9] \"}\"");
        ConstraintPipeline pipeline = ConstraintPipeline.builder().schema(SENTIMENT).grammar(compact).build();

        ValidationReport report = pipeline.process("{\"sentiment\": \"positive\", \"confidence\": 1}");

        assertThat(report.violations()).singleElement().extracting(Violation::keyword).isEqualTo(Violation.GRAMMAR);
        assertThat(report.errorCode()).contains(ErrorCode.CONSTRAINT_GRAMMAR_REJECTED);
        assertThat(pipeline.process("{\"sentiment\":\"positive\",\"confidence\":1}").valid()).isTrue();
    }

    @Test
    void aPipelineWithoutASchemaIsAConfigurationError() {
        assertThatThrownBy(() -> ConstraintPipeline.builder().build())
                .isInstanceOfSatisfying(PaganticException.class,
                        error -> assertThat(error.code()).isEqualTo(ErrorCode.CONFIG_SCHEMA_REQUIRED));
    }

    @Test
    void theBuilderDefaultsAllowRepairAndReportLeniently() {
        assertThat(sentiment.repairAllowed()).isTrue();
        assertThat(sentiment.strict()).isFalse();
        assertThat(sentiment.grammar()).isEmpty();
        assertThat(sentiment.schema()).isEqualTo(SENTIMENT);
    }
}
