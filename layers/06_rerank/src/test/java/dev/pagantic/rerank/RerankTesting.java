package dev.pagantic.rerank;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.pagantic.core.CallContext;
import dev.pagantic.core.Cancellation;
import dev.pagantic.core.Candidate;
import dev.pagantic.core.ErrorCode;
import dev.pagantic.core.PaganticException;
import java.util.List;

/** Shared test helpers: error-code assertions, cancelled contexts, candidate lists. */
final class RerankTesting {

    private RerankTesting() {
    }

    static void assertCode(ErrorCode code, Runnable action) {
        assertThatThrownBy(action::run).isInstanceOfSatisfying(PaganticException.class,
                e -> assertThat(e.code()).isEqualTo(code));
    }

    static CallContext cancelled(Cancellation cancellation) {
        return CallContext.builder().cancellation(cancellation).build();
    }

    static List<String> sources(List<Candidate> candidates) {
        return candidates.stream().map(Candidate::source).toList();
    }
}
