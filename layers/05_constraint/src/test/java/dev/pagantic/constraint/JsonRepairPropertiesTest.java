package dev.pagantic.constraint;

import static org.assertj.core.api.Assertions.assertThat;

import dev.pagantic.core.ErrorCode;
import dev.pagantic.core.PaganticException;
import java.util.Random;
import java.util.function.Function;
import org.junit.jupiter.api.Test;

/**
 * Properties of {@link JsonRepair} over random JSON, mangled JSON and arbitrary text ({@link RandomJson}), each over
 * a few hundred seeded tries; a failure names its seed and input.
 */
class JsonRepairPropertiesTest {

    private static final long SEED = 7_771L;
    private static final JsonRepair REPAIR = JsonRepair.standard();

    @Test
    void repairOfValidJsonIsTheIdentity() {
        forEach(300, RandomJson::json, (seed, json) -> {
            RepairResult result = REPAIR.repair(json);

            assertThat(result.json()).as("seed %d: %s", seed, json).isSameAs(json);
            assertThat(result.fixes()).as("seed %d: %s", seed, json).isEmpty();
        });
    }

    @Test
    void repairIsIdempotent() {
        forEach(400, RandomJson::malformed, (seed, output) -> {
            RepairResult once = repairOrNull(output);
            if (once != null) {
                RepairResult twice = REPAIR.repair(once.json());
                assertThat(twice.json()).as("seed %d: %s", seed, output).isEqualTo(once.json());
                assertThat(twice.fixes()).as("seed %d: %s", seed, output).isEmpty();
            }
        });
    }

    @Test
    void repairOfMalformedJsonYieldsValidJsonOrFailsWithJsonInvalidOnly() {
        forEach(400, RandomJson::malformed, (seed, output) -> assertRepairsToValidJsonOrRefuses(seed, output));
    }

    @Test
    void repairOfArbitraryTextYieldsValidJsonOrFailsWithJsonInvalidOnly() {
        forEach(300, RandomJson::text, (seed, output) -> assertRepairsToValidJsonOrRefuses(seed, output));
    }

    @Test
    void deepNestingFailsWithJsonInvalidInsteadOfOverflowingTheStack() {
        Random random = new Random(SEED);
        for (int i = 0; i < 30; i++) {
            int depth = 513 + random.nextInt(50_000 - 513);
            String open = "[{\"a\":".repeat(depth / 2) + "[";
            String output = random.nextBoolean() ? open + "]" + "}]".repeat(depth / 2) : open;

            assertThat(repairOrNull(output)).as("depth %d", depth).isNull(); // deeper than 512: refused
        }
    }

    @Test
    void everyPrefixOfValidJsonRepairsToValidJsonOrFailsWithJsonInvalid() {
        forEach(100, random -> {
            String json = RandomJson.json(random);
            return json.substring(0, Math.min(random.nextInt(1001), json.length()));
        }, (seed, prefix) -> assertRepairsToValidJsonOrRefuses(seed, prefix));
    }

    private static void assertRepairsToValidJsonOrRefuses(long seed, String output) {
        RepairResult result = repairOrNull(output);
        if (result != null) {
            assertThat(JsonRepair.isValidJson(result.json())).as("seed %d: %s", seed, output).isTrue();
        }
    }

    /** Runs the check on {@code tries} inputs, each from its own seed. */
    private static void forEach(int tries, Function<Random, String> input, Check check) {
        for (int i = 0; i < tries; i++) {
            long seed = SEED + i;
            check.run(seed, input.apply(new Random(seed)));
        }
    }

    private interface Check {
        void run(long seed, String input);
    }

    /** Repairs, allowing only {@code CONSTRAINT_JSON_INVALID} as a failure (null then). */
    private static RepairResult repairOrNull(String output) {
        try {
            return REPAIR.repair(output);
        } catch (PaganticException failure) {
            assertThat(failure.code()).isEqualTo(ErrorCode.CONSTRAINT_JSON_INVALID);
            assertThat(failure.details()).containsKeys("offset", "line", "column", "reason");
            return null;
        }
    }
}
