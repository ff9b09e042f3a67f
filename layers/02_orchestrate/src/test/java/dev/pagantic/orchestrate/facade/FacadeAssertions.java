package dev.pagantic.orchestrate.facade;

import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.pagantic.core.ErrorCode;
import dev.pagantic.core.PaganticException;
import org.assertj.core.api.ThrowableAssert.ThrowingCallable;

/** Shared assertions of the facade tests. */
final class FacadeAssertions {

    private FacadeAssertions() {
    }

    static void assertFailsWith(ErrorCode code, ThrowingCallable call) {
        assertThatThrownBy(call).isInstanceOfSatisfying(PaganticException.class,
                failure -> org.assertj.core.api.Assertions.assertThat(failure.code()).isEqualTo(code));
    }

    static void assertConfigInvalid(ThrowingCallable call) {
        assertFailsWith(ErrorCode.CONFIG_INVALID, call);
    }
}
