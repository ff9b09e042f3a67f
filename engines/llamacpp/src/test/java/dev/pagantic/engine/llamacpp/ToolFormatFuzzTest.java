package dev.pagantic.engine.llamacpp;

import static java.nio.charset.StandardCharsets.UTF_8;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.code_intelligence.jazzer.junit.FuzzTest;
import dev.pagantic.core.CallContext;
import dev.pagantic.core.ErrorCode;
import dev.pagantic.core.PaganticException;
import dev.pagantic.core.Schema;
import dev.pagantic.core.ToolCall;
import dev.pagantic.core.ToolDefinition;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * Fuzzes the readers of every tool-call format (no model needed): whatever the model wrote, each format's
 * {@link ToolFormat#parse} returns calls with an id and a non-blank name, or fails with
 * {@code INFERENCE_MALFORMED_RESPONSE}, and {@link ToolFormat#partial} never fails; nothing else escapes. A plain
 * {@code mvn test} replays the seeds in
 * {@code src/test/resources/dev/pagantic/engine/llamacpp/ToolFormatFuzzTestInputs/}; to fuzz:
 * <pre>
 * JAZZER_FUZZ=1 mvn -B -o test -pl engines/llamacpp -Djazzer.hooks=true \
 *     -Djunit.jupiter.execution.timeout.mode=disabled \
 *     -Dtest=ToolFormatFuzzTest
 * </pre>
 */
class ToolFormatFuzzTest {

    private static final CallContext CTX = CallContext.background();
    private static final ToolSpec SPEC = new ToolSpec(List.of(ToolDefinition.of("lookup", "Looks up",
            Schema.object().required("q", Schema.string()).build())), false, ToolSpec.MAX_PARALLEL_CALLS);
    private static final List<ToolFormat> FORMATS = List.of(new GenericFormat(), new HermesFormat(),
            new Llama3xFormat(false), new Llama3xFormat(true), new MistralNemoFormat(), new FireFunctionFormat(),
            new CommandR7bFormat(), new DeepSeekR1Format(), new FunctionaryV31Format(), new FunctionaryV32Format());

    // Timeout: an input taking longer than 10 s is a hang (a finding in fuzzing mode, a failure in regression mode).
    @Timeout(10)
    @FuzzTest(maxDuration = "10m")
    void parsingAnyOutputYieldsNamedCallsOrMalformedResponse(byte[] input) {
        String output = new String(input, UTF_8);
        for (ToolFormat format : FORMATS) {
            format.partial(output);
            List<ToolCall> calls;
            try {
                calls = format.parse(output, SPEC, CTX).calls();
            } catch (PaganticException failure) {
                assertThat(failure.code()).as("%s: %s", format.name(), failure)
                        .isEqualTo(ErrorCode.INFERENCE_MALFORMED_RESPONSE);
                assertThat(failure.details()).containsEntry("output", output);
                continue;
            }
            for (ToolCall call : calls) {
                assertThat(call.id()).isNotBlank();
                assertThat(call.name()).isNotBlank();
            }
        }
    }

    @Test
    void argumentsNested100000DeepAreAMalformedResponseNotAStackOverflow() {
        String deep = "{\"tool_calls\":[{\"name\":\"n\",\"arguments\":{\"a\":" + "[".repeat(100_000);

        for (ToolFormat format : FORMATS) {
            String output = format instanceof HermesFormat ? "<tool_call>" + deep : deep;
            try {
                format.parse(output, SPEC, CTX);
            } catch (PaganticException failure) {
                assertThat(failure.code()).as(format.name()).isEqualTo(ErrorCode.INFERENCE_MALFORMED_RESPONSE);
            }
        }
        assertThatThrownBy(() -> new GenericFormat().parse(deep, SPEC, CTX))
                .isInstanceOfSatisfying(PaganticException.class, failure ->
                        assertThat(failure.code()).isEqualTo(ErrorCode.INFERENCE_MALFORMED_RESPONSE));
    }
}
