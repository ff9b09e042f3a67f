package dev.pagantic.orchestrate.facade;

import static dev.pagantic.orchestrate.facade.FacadeAssertions.assertConfigInvalid;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.pagantic.core.ErrorCode;
import dev.pagantic.core.FailureCategory;
import dev.pagantic.core.PaganticException;
import java.io.IOException;
import java.time.Duration;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.junit.jupiter.api.Test;

class SystemErrorTest {

    @Test
    void anErrorFromAnExceptionCarriesItsCodeCategoryRetryabilityMessageDetailsAndCause() {
        IOException cause = new IOException("connection refused");
        PaganticException exception = PaganticException.builder(ErrorCode.INFERENCE_ENGINE_ERROR, "engine down")
                .detail("model", "qwen").detail("attempt", 2).cause(cause).build();

        SystemError error = SystemError.from(exception);

        assertThat(error.code()).isEqualTo(ErrorCode.INFERENCE_ENGINE_ERROR);
        assertThat(error.category()).isEqualTo(FailureCategory.INFERENCE);
        assertThat(error.retryable()).isTrue();
        assertThat(error.message()).isEqualTo("engine down");
        assertThat(error.details()).containsExactly(Map.entry("model", "qwen"), Map.entry("attempt", 2));
        assertThat(error.causedBy()).containsSame(cause);
    }

    @Test
    void anOverriddenRetryableFlagIsKept() {
        PaganticException idempotentToolFailure = PaganticException
                .builder(ErrorCode.TOOL_EXECUTION_FAILED, "flaky").retryable(true).build();

        assertThat(SystemError.from(idempotentToolFailure).retryable()).isTrue();
    }

    @Test
    void anErrorBornAtTheBoundaryHasNoCause() {
        SystemError error = SystemError.from(PaganticException.of(ErrorCode.CONFIG_SCHEMA_REQUIRED, "no schema"));

        assertThat(error.causedBy()).isEmpty();
        assertThat(error.details()).isEmpty();
        assertThat(error.retryable()).isFalse();
    }

    @Test
    void anErrorOfACodeTakesTheCodesCategoryAndRetryability() {
        SystemError error = SystemError.of(ErrorCode.ORCHESTRATION_NO_CONSENSUS, "no majority");

        assertThat(error.category()).isEqualTo(FailureCategory.ORCHESTRATION);
        assertThat(error.retryable()).isFalse();
        assertThat(error.message()).isEqualTo("no majority");
    }

    @Test
    void aCategoryThatContradictsTheCodeIsRejected() {
        assertConfigInvalid(() -> new SystemError(ErrorCode.TOOL_TIMEOUT, FailureCategory.INFERENCE, false, "x",
                Map.of(), Optional.empty()));
    }

    @Test
    void detailsThatAreNotJsonAreKeptAsText() {
        PaganticException exception = PaganticException.builder(ErrorCode.TOOL_TIMEOUT, "slow")
                .detail("limit", Duration.ofSeconds(5)).detail("code", ErrorCode.TOOL_TIMEOUT)
                .detail("paths", List.of("$.a", Duration.ofMillis(1))).build();

        SystemError error = SystemError.from(exception);

        assertThat(error.details()).containsEntry("limit", "PT5S").containsEntry("code", "TOOL_TIMEOUT")
                .containsEntry("paths", List.of("$.a", "PT0.001S"));
    }

    @Test
    void detailsAreAnImmutableCopy() {
        Map<String, Object> details = new HashMap<>(Map.of("k", "v"));
        SystemError error = new SystemError(ErrorCode.TOOL_NOT_FOUND, FailureCategory.TOOL, false, "missing",
                details, Optional.empty());

        details.put("other", 1);

        assertThat(error.details()).containsOnlyKeys("k");
        assertThatThrownBy(() -> error.details().put("x", 1)).isInstanceOf(UnsupportedOperationException.class);
    }

    @Test
    void anErrorTurnsBackIntoAnEquivalentException() {
        IllegalStateException cause = new IllegalStateException("boom");
        SystemError error = SystemError.from(PaganticException.builder(ErrorCode.TOOL_UNAVAILABLE, "down")
                .retryable(false).detail("tool", "search").cause(cause).build());

        PaganticException exception = error.toException();

        assertThat(exception.code()).isEqualTo(ErrorCode.TOOL_UNAVAILABLE);
        assertThat(exception.retryable()).isFalse();
        assertThat(exception.getCause()).isSameAs(cause);
        assertThat(SystemError.from(exception)).isEqualTo(error);
    }

    @Test
    void nullPartsAreConfigurationErrors() {
        assertConfigInvalid(() -> SystemError.from(null));
        assertConfigInvalid(() -> SystemError.of(null, "x"));
        assertConfigInvalid(() -> SystemError.of(ErrorCode.TOOL_TIMEOUT, null));
    }
}
