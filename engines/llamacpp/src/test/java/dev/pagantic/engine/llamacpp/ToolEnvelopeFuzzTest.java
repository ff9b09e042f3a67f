package dev.pagantic.engine.llamacpp;

import static java.nio.charset.StandardCharsets.UTF_8;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.code_intelligence.jazzer.junit.FuzzTest;
import dev.pagantic.core.CallContext;
import dev.pagantic.core.ErrorCode;
import dev.pagantic.core.PaganticException;
import dev.pagantic.core.ToolCall;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * Fuzzes the tool-call envelope parser (no model needed): whatever the model wrote, {@link ToolEnvelope#parse} returns
 * calls with an id and a non-blank name, or fails with {@code INFERENCE_MALFORMED_RESPONSE}; nothing else escapes.
 * A plain {@code mvn test} replays the seeds in
 * {@code src/test/resources/dev/pagantic/engine/llamacpp/ToolEnvelopeFuzzTestInputs/}; to fuzz:
 * <pre>
 * JAZZER_FUZZ=1 mvn -B -o test -pl engines/llamacpp -Djazzer.hooks=true \
 *     -Djunit.jupiter.execution.timeout.mode=disabled \
 *     -Dtest=ToolEnvelopeFuzzTest
 * </pre>
 */
class ToolEnvelopeFuzzTest {

    private static final CallContext CTX = CallContext.background();

    // Timeout: an input taking longer than 10 s is a hang (a finding in fuzzing mode, a failure in regression mode).
    @Timeout(10)
    @FuzzTest(maxDuration = "10m")
    void parsingAnyOutputYieldsNamedCallsOrMalformedResponse(byte[] input) {
        String output = new String(input, UTF_8);
        List<ToolCall> calls;
        try {
            calls = ToolEnvelope.parse(output, CTX);
        } catch (PaganticException failure) {
            assertThat(failure.code()).as("%s", failure).isEqualTo(ErrorCode.INFERENCE_MALFORMED_RESPONSE);
            assertThat(failure.details()).containsEntry("output", output);
            return;
        }
        assertThat(calls).isNotEmpty();
        for (ToolCall call : calls) {
            assertThat(call.id()).startsWith("call_");
            assertThat(call.name()).isNotBlank();
        }
        assertThat(calls).extracting(ToolCall::id).doesNotHaveDuplicates();
    }

    @Test
    void argumentsNested100000DeepAreAMalformedResponseNotAStackOverflow() {
        // Jackson 3's default StreamReadConstraints refuse nesting deeper than 500 levels.
        String deep = "{\"tool_calls\":[{\"name\":\"n\",\"arguments\":{\"a\":" + "[".repeat(100_000);

        assertThatThrownBy(() -> ToolEnvelope.parse(deep, CTX))
                .isInstanceOfSatisfying(PaganticException.class, failure ->
                        assertThat(failure.code()).isEqualTo(ErrorCode.INFERENCE_MALFORMED_RESPONSE));
    }
}
