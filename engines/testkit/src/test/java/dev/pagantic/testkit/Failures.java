package dev.pagantic.testkit;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowable;

import dev.pagantic.core.PaganticException;
import org.assertj.core.api.ThrowableAssert.ThrowingCallable;

/** The PaganticException a call throws; the test fails if it throws nothing or something else. */
final class Failures {

    private Failures() {
    }

    static PaganticException failureOf(ThrowingCallable call) {
        Throwable thrown = catchThrowable(call);
        assertThat(thrown).as("the call should fail with a PaganticException").isInstanceOf(PaganticException.class);
        return (PaganticException) thrown;
    }
}
