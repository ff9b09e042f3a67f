package dev.pagantic.core;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.ObjectInputStream;
import java.io.ObjectOutputStream;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

class PaganticExceptionTest {

    @Test
    void exceptionCarriesTheSystemErrorFields() {
        IllegalStateException cause = new IllegalStateException("socket closed");

        PaganticException failure = PaganticException.builder(ErrorCode.TOOL_NOT_FOUND, "no tool named 'weather'")
                .detail("tool", "weather")
                .cause(cause)
                .build();

        assertThat(failure.code()).isEqualTo(ErrorCode.TOOL_NOT_FOUND);
        assertThat(failure.category()).isEqualTo(FailureCategory.TOOL);
        assertThat(failure.retryable()).isFalse();
        assertThat(failure.details()).containsExactly(Map.entry("tool", "weather"));
        assertThat(failure.getCause()).isSameAs(cause);
        assertThat(failure.description()).isEqualTo("no tool named 'weather'");
        assertThat(failure.getMessage()).isEqualTo("TOOL_NOT_FOUND: no tool named 'weather'");
    }

    @ParameterizedTest
    @EnumSource(ErrorCode.class)
    void retryabilityDefaultsToTheCodes(ErrorCode code) {
        PaganticException failure = PaganticException.of(code, "x");

        assertThat(failure.retryable()).isEqualTo(code.retryable());
        assertThat(failure.category()).isEqualTo(code.category());
    }

    @Test
    void emitterMayOverrideRetryabilityEitherWay() {
        PaganticException idempotentTool = PaganticException.builder(ErrorCode.TOOL_EXECUTION_FAILED, "flaky")
                .retryable(true).build();
        PaganticException hopelessEngine = PaganticException.builder(ErrorCode.INFERENCE_ENGINE_ERROR, "bad key")
                .retryable(false).build();

        assertThat(idempotentTool.retryable()).isTrue();
        assertThat(hopelessEngine.retryable()).isFalse();
    }

    @Test
    void ofWithoutCauseHasNoCauseAndNoDetails() {
        PaganticException failure = PaganticException.of(ErrorCode.CONFIG_NO_ENGINE, "no engine");

        assertThat(failure.getCause()).isNull();
        assertThat(failure.details()).isEmpty();
        assertThat(failure.description()).isEqualTo("no engine");
    }

    @Test
    void ofWithCauseKeepsTheCause() {
        RuntimeException cause = new RuntimeException("HTTP 503");

        assertThat(PaganticException.of(ErrorCode.INFERENCE_ENGINE_ERROR, "engine failed", cause).getCause())
                .isSameAs(cause);
    }

    @Test
    void nullDetailValuesAreIgnored() {
        Map<String, Object> values = new HashMap<>();
        values.put("schema_path", "$.confidence");
        values.put("model", null);

        PaganticException failure = PaganticException.builder(ErrorCode.CONSTRAINT_SCHEMA_INVALID, "bad")
                .detail("tool", null)
                .details(values)
                .build();

        assertThat(failure.details()).containsOnlyKeys("schema_path");
    }

    @Test
    void detailsKeepTheirInsertionOrder() {
        PaganticException failure = PaganticException.builder(ErrorCode.VALIDATION_RULE_FAILED, "rules failed")
                .detail("z", 1).detail("a", 2).detail("m", 3).build();

        assertThat(failure.details().keySet()).containsExactly("z", "a", "m");
    }

    @Test
    void detailsAreImmutableAndNotSharedWithTheBuilder() {
        PaganticException.Builder builder = PaganticException.builder(ErrorCode.TOOL_TIMEOUT, "slow")
                .detail("tool", "search");
        PaganticException failure = builder.build();

        builder.detail("late", true);

        assertThat(failure.details()).containsOnlyKeys("tool");
        assertThatThrownBy(() -> failure.details().put("x", 1)).isInstanceOf(UnsupportedOperationException.class);
    }

    @Test
    void detailsFromAMapAreCopied() {
        Map<String, Object> values = new LinkedHashMap<>(Map.of("tool", "search"));
        PaganticException failure = PaganticException.builder(ErrorCode.TOOL_TIMEOUT, "slow").details(values).build();

        values.put("late", true);

        assertThat(failure.details()).containsOnlyKeys("tool");
    }

    @Test
    void detailsAreNeverNullEvenAfterJavaSerialization() throws IOException, ClassNotFoundException {
        PaganticException original = PaganticException.builder(ErrorCode.CANCELLED_SIGNAL, "cancelled")
                .detail("request_id", "r1").build();

        ByteArrayOutputStream bytes = new ByteArrayOutputStream();
        try (ObjectOutputStream out = new ObjectOutputStream(bytes)) {
            out.writeObject(original);
        }
        PaganticException copy;
        try (ObjectInputStream in = new ObjectInputStream(new ByteArrayInputStream(bytes.toByteArray()))) {
            copy = (PaganticException) in.readObject();
        }

        assertThat(copy.code()).isEqualTo(ErrorCode.CANCELLED_SIGNAL);
        assertThat(copy.description()).isEqualTo("cancelled");
        assertThat(copy.details()).isNotNull().isEmpty();
    }

    @Test
    void codeAndMessageAreRequired() {
        assertThatThrownBy(() -> PaganticException.of(null, "x")).isInstanceOf(NullPointerException.class);
        assertThatThrownBy(() -> PaganticException.of(ErrorCode.CONFIG_INVALID, null))
                .isInstanceOf(NullPointerException.class);
        assertThatThrownBy(() -> PaganticException.builder(ErrorCode.CONFIG_INVALID, "x").detail(null, 1))
                .isInstanceOf(NullPointerException.class);
    }
}
