package dev.pagantic.constraint;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.pagantic.core.ErrorCode;
import dev.pagantic.core.PaganticException;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

class JsonRepairTest {

    private final JsonRepair repair = JsonRepair.standard();

    @ParameterizedTest
    @ValueSource(strings = {"{\"a\": 1.10, \"b\": 1e2, \"c\": 12345678901234567890}", "  [ 1 ,2 ]\n", "\"text\"",
            "42", "null", "{\"s\": \"\\u00e9\\n\\\"\"}", "{\"dup\": 1, \"dup\": 2}"})
    void validJsonIsReturnedByteForByteWithoutFixes(String json) {
        RepairResult result = repair.repair(json);

        assertThat(result.json()).isSameAs(json);
        assertThat(result.repaired()).isFalse();
        assertThat(result.kinds()).isEmpty();
    }

    @Test
    void aTruncatedObjectIsClosedWithoutInventingValues() {
        RepairResult result = repair.repair("{\"name\": \"Ada\", \"age\": 36, \"email\": \"ada@exa");

        assertThat(result.json()).isEqualTo("{\"name\": \"Ada\", \"age\": 36, \"email\": \"ada@exa\"}");
        assertThat(result.kinds()).containsExactly(RepairKind.CLOSED_STRING, RepairKind.CLOSED_STRUCTURE);
    }

    @Test
    void aPropertyWhoseValueNeverStartedIsDroppedWithItsComma() {
        assertThat(repair.repair("{\"name\": \"Ada\", \"age\":").json()).isEqualTo("{\"name\": \"Ada\"}");
        assertThat(repair.repair("{\"name\": \"Ada\", \"age\"").json()).isEqualTo("{\"name\": \"Ada\"}");
        assertThat(repair.repair("{\"name\": \"Ada\", \"ag").json()).isEqualTo("{\"name\": \"Ada\"}");
        assertThat(repair.repair("{\"name\": \"Ada\",").json()).isEqualTo("{\"name\": \"Ada\"}");
    }

    @Test
    void anIncompleteNumberOrLiteralAtTheEndIsDroppedRatherThanCompleted() {
        assertThat(repair.repair("[1, 2, -").json()).isEqualTo("[1, 2]");
        assertThat(repair.repair("[1, 2.").json()).isEqualTo("[1]");
        assertThat(repair.repair("[1, 3e+").json()).isEqualTo("[1]");
        assertThat(repair.repair("{\"ok\": tru").json()).isEqualTo("{}");
        assertThat(repair.repair("{\"ok\": Fals").json()).isEqualTo("{}");
    }

    @Test
    void everyFixIsReportedWithItsOffsetInTheOriginalOutput() {
        String output = "\uFEFF{'a': True,}";

        RepairResult result = repair.repair(output);

        assertThat(result.json()).isEqualTo("{\"a\": true}");
        assertThat(result.fixes()).containsExactly(
                new RepairFix(RepairKind.REMOVED_BYTE_ORDER_MARK, 0),
                new RepairFix(RepairKind.CONVERTED_SINGLE_QUOTES, 2),
                new RepairFix(RepairKind.CONVERTED_PYTHON_LITERAL, 7),
                new RepairFix(RepairKind.REMOVED_TRAILING_COMMA, 11));
    }

    @Test
    void anUnrepairableOutputNamesTheLineAndColumnOfTheProblem() {
        assertThatThrownBy(() -> repair.repair("{\n  \"a\": 1\n  \"b\": 2\n}"))
                .isInstanceOfSatisfying(PaganticException.class, error -> {
                    assertThat(error.code()).isEqualTo(ErrorCode.CONSTRAINT_JSON_INVALID);
                    assertThat(error.details()).containsEntry("line", 3).containsEntry("column", 3)
                            .containsEntry("offset", 13).containsKey("reason");
                    assertThat(error.retryable()).isTrue();
                });
    }

    @Test
    void proseWithBracketsBeforeTheJsonIsSkipped() {
        RepairResult result = repair.repair("Answer [draft 2] {see below}: {\"ok\": true}");

        assertThat(result.json()).isEqualTo("{\"ok\": true}");
        assertThat(result.kinds()).containsExactly(RepairKind.REMOVED_SURROUNDING_TEXT);
    }

    @Test
    void aBrokenValueAtTheStartIsNotReplacedByAValueFoundInsideIt() {
        assertThatThrownBy(() -> repair.repair("{\"a\" 1, \"b\": {\"c\": 2}}"))
                .isInstanceOf(PaganticException.class);
        assertThatThrownBy(() -> repair.repair("Result: {\"a\" 1, \"b\": {\"c\": 2}}"))
                .isInstanceOf(PaganticException.class);
    }

    @Test
    void nestingDeeperThanTheLimitFailsWithJsonInvalidAndNeverOverflowsTheStack() {
        String deep = "[".repeat(200_000);

        assertThatThrownBy(() -> repair.repair(deep))
                .isInstanceOfSatisfying(PaganticException.class,
                        error -> assertThat(error.code()).isEqualTo(ErrorCode.CONSTRAINT_JSON_INVALID));
        assertThatThrownBy(() -> repair.repair("{\"a\":".repeat(100_000)))
                .isInstanceOf(PaganticException.class);
    }

    @Test
    void nestingUpToTheLimitIsRepaired() {
        String open = "[".repeat(JsonRepair.DEFAULT_MAX_DEPTH);

        assertThat(repair.repair(open).json()).isEqualTo(open + "]".repeat(JsonRepair.DEFAULT_MAX_DEPTH));
        assertThatThrownBy(() -> repair.repair("[" + open)).isInstanceOf(PaganticException.class);
    }

    @Test
    void aConfiguredDepthLimitIsEnforced() {
        JsonRepair shallow = JsonRepair.withMaxDepth(2);

        assertThat(shallow.repair("[[1,]]").json()).isEqualTo("[[1]]");
        assertThatThrownBy(() -> shallow.repair("[[[1,]]]")).isInstanceOf(PaganticException.class);
        assertThatThrownBy(() -> JsonRepair.withMaxDepth(0))
                .isInstanceOfSatisfying(PaganticException.class,
                        error -> assertThat(error.code()).isEqualTo(ErrorCode.CONFIG_INVALID));
    }

    @Test
    void strictValidityRejectsWhatLenientParsersAccept() {
        assertThat(JsonRepair.isValidJson("{\"a\": 1}")).isTrue();
        assertThat(JsonRepair.isValidJson("\uFEFF{\"a\": 1}")).isFalse();
        assertThat(JsonRepair.isValidJson("{\"a\": 1} trailing")).isFalse();
        assertThat(JsonRepair.isValidJson("{'a': 1}")).isFalse();
        assertThat(JsonRepair.isValidJson("[1,]")).isFalse();
        assertThat(JsonRepair.isValidJson("{\"a\": 01}")).isFalse();
        assertThat(JsonRepair.isValidJson("")).isFalse();
    }

    @Test
    void aScalarSurroundedByProseIsNotGuessed() {
        assertThatThrownBy(() -> repair.repair("\"yes\" is my answer")).isInstanceOf(PaganticException.class);
        assertThat(repair.repair("'yes'").json()).isEqualTo("\"yes\"");
    }

    @Test
    void aNumberBeyondTheRangeOfBigDecimalIsRefusedAsInvalidJsonWithItsOffset() {
        // Found by JsonRepairFuzzTest: Jackson threw NumberFormatException, which escaped JsonRepair.
        String output = "[1, 1E33333333333333]";

        assertThat(JsonRepair.isValidJson(output)).isFalse();
        assertThatThrownBy(() -> repair.repair(output))
                .isInstanceOfSatisfying(PaganticException.class, failure -> {
                    assertThat(failure.code()).isEqualTo(ErrorCode.CONSTRAINT_JSON_INVALID);
                    assertThat(failure.details()).containsKeys("offset", "line", "column");
                });
    }
}
