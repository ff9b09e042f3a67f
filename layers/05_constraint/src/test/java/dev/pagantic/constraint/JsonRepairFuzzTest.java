package dev.pagantic.constraint;

import static java.nio.charset.StandardCharsets.UTF_8;
import static org.assertj.core.api.Assertions.assertThat;

import com.code_intelligence.jazzer.junit.FuzzTest;
import dev.pagantic.core.PaganticException;
import org.junit.jupiter.api.Timeout;

/**
 * Fuzzes {@link JsonRepair}: whatever the model output (bytes decoded as UTF-8), repair either returns strictly valid
 * JSON that repairs to itself, or fails with {@code CONSTRAINT_JSON_INVALID} naming where; nothing else escapes, and
 * deep nesting never overflows the stack.
 *
 * <p>A plain {@code mvn test} replays the seeds in {@code JsonRepairFuzzTestInputs/}; {@code JAZZER_FUZZ=1} fuzzes
 * (see the package's fuzzing notes in {@code FuzzChecks}).
 */
class JsonRepairFuzzTest {

    private static final JsonRepair REPAIR = JsonRepair.standard();
    private static final JsonRepair SHALLOW = JsonRepair.withMaxDepth(4);

    // Timeout: an input taking longer than 10 s is a hang (a finding in fuzzing mode, a failure in regression mode).
    @Timeout(10)
    @FuzzTest(maxDuration = "10m")
    void repairReturnsValidIdempotentJsonOrFailsWithJsonInvalid(byte[] input) {
        String output = new String(input, UTF_8);
        check(REPAIR, output);
        check(SHALLOW, output);
    }

    private static void check(JsonRepair repair, String output) {
        RepairResult result;
        try {
            result = repair.repair(output);
        } catch (PaganticException failure) {
            FuzzChecks.assertLocatedJsonInvalid(failure, output);
            return;
        }
        assertThat(JsonRepair.isValidJson(result.json())).as("repaired JSON is valid").isTrue();
        if (JsonRepair.isValidJson(output)) {
            assertThat(result.json()).isSameAs(output);
            assertThat(result.fixes()).isEmpty();
        }
        RepairResult again = repair.repair(result.json());
        assertThat(again.json()).as("repair is idempotent").isEqualTo(result.json());
        assertThat(again.fixes()).isEmpty();
    }
}
