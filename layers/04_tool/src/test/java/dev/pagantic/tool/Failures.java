package dev.pagantic.tool;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowable;

import dev.pagantic.core.ErrorCode;
import dev.pagantic.core.PaganticException;
import org.assertj.core.api.ThrowableAssert.ThrowingCallable;

/** Assertions on pagantic failures. */
final class Failures {

    private Failures() {
    }

    static PaganticException assertFailsWith(ErrorCode code, ThrowingCallable call) {
        Throwable thrown = catchThrowable(call);
        assertThat(thrown).isInstanceOf(PaganticException.class);
        PaganticException failure = (PaganticException) thrown;
        assertThat(failure.code()).as("error code of %s", failure.getMessage()).isEqualTo(code);
        return failure;
    }

    static PaganticException assertConfigInvalid(ThrowingCallable call) {
        return assertFailsWith(ErrorCode.CONFIG_INVALID, call);
    }
}
