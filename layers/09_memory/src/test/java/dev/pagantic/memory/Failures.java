package dev.pagantic.memory;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowable;

import dev.pagantic.core.ErrorCode;
import dev.pagantic.core.PaganticException;
import org.assertj.core.api.ThrowableAssert.ThrowingCallable;

/** Assertions on the failures of pagantic: a {@link PaganticException} with a given code. */
final class Failures {

    private Failures() {
    }

    /** Asserts that the call fails with the given code, and returns the failure for further checks. */
    static PaganticException assertFailsWith(ErrorCode code, ThrowingCallable call) {
        Throwable thrown = catchThrowable(call);
        assertThat(thrown).isInstanceOf(PaganticException.class);
        PaganticException failure = (PaganticException) thrown;
        assertThat(failure.code()).as("error code of %s", failure.getMessage()).isEqualTo(code);
        return failure;
    }

    /** Asserts that the call fails with {@code CONFIG_INVALID}. */
    static PaganticException assertConfigInvalid(ThrowingCallable call) {
        return assertFailsWith(ErrorCode.CONFIG_INVALID, call);
    }
}
