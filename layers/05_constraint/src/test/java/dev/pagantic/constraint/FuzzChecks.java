package dev.pagantic.constraint;

import static org.assertj.core.api.Assertions.assertThat;

import dev.pagantic.core.ErrorCode;
import dev.pagantic.core.FailureCategory;
import dev.pagantic.core.PaganticException;

/**
 * Assertions shared by this layer's Jazzer fuzz tests ({@code *FuzzTest}).
 *
 * <p>Each fuzz test runs two ways. A plain {@code mvn test} is regression mode: every {@code @FuzzTest} replays the
 * seed files in {@code src/test/resources/dev/pagantic/constraint/<TestClass>Inputs/<method>/} (hand-picked inputs
 * and any input a fuzzing run found to fail), in well under a second. Fuzzing mode runs one target per JVM for its
 * {@code maxDuration}:
 * <pre>
 * JAZZER_FUZZ=1 mvn -B -o test -pl layers/05_constraint -Djazzer.hooks=true \
 *     -Djunit.jupiter.execution.timeout.mode=disabled \
 *     -Dtest=JsonRepairFuzzTest#repairReturnsValidIdempotentJsonOrFailsWithJsonInvalid
 * </pre>
 * {@code jazzer.hooks=true} turns on the coverage instrumentation that {@code junit-platform.properties} turns off to
 * keep regression mode fast; the timeout mode switch keeps JUnit from timing out the whole run, while Jazzer still
 * applies each test's {@code @Timeout} to every input. The corpus it generates goes under {@code target/jazzer/.cifuzz-corpus} ({@code jazzer.internal.basedir} in
 * {@code junit-platform.properties}), never into the source tree; a failing input is written there as
 * {@code crash-<sha1>}: fix the bug, then copy the input into the seed directory as a regression seed.
 */
final class FuzzChecks {

    private FuzzChecks() {
    }

    /** A {@code CONSTRAINT_JSON_INVALID} failure whose details locate the problem within {@code text}. */
    static void assertLocatedJsonInvalid(PaganticException failure, String text) {
        assertThat(failure.code()).as("error code of %s", failure).isEqualTo(ErrorCode.CONSTRAINT_JSON_INVALID);
        Object offset = failure.details().get("offset");
        assertThat(offset).isInstanceOf(Integer.class);
        assertThat((Integer) offset).isBetween(0, text.length());
        assertThat(failure.details()).containsKeys("line", "column", "reason");
    }

    /** A failure of the constraint family (grammar, schema, JSON or enum). */
    static void assertConstraintFailure(PaganticException failure) {
        assertThat(failure.code().category()).as("category of %s", failure).isEqualTo(FailureCategory.CONSTRAINT);
    }
}
