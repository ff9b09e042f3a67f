package dev.pagantic.engine.openai;

import static java.nio.charset.StandardCharsets.UTF_8;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.code_intelligence.jazzer.junit.FuzzTest;
import dev.pagantic.core.CallContext;
import dev.pagantic.core.FailureCategory;
import dev.pagantic.core.PaganticException;
import dev.pagantic.core.ToolCall;
import dev.pagantic.inference.Request;
import dev.pagantic.inference.Result;
import dev.pagantic.inference.StreamHandler;
import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import dev.pagantic.core.ErrorCode;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;

/**
 * Fuzzes the parsers of the OpenAI wire format with what a broken or hostile server could send: a whole
 * {@code chat.completion} body ({@link ChatResponseDecoder}), and an event stream ({@link SseReader} feeding
 * {@link ChatStreamDecoder}, wired as {@code ChatCall} wires them). Either a well-formed {@link Result} comes out, or
 * a {@link PaganticException} of the inference family ({@code INFERENCE_MALFORMED_RESPONSE}, or the server's own
 * in-band error as {@code INFERENCE_ENGINE_ERROR} / {@code INFERENCE_CONTEXT_EXCEEDED}); nothing else escapes.
 *
 * <p>A plain {@code mvn test} replays the seeds in
 * {@code src/test/resources/dev/pagantic/engine/openai/WireFormatFuzzTestInputs/<method>/}; to fuzz one target:
 * <pre>
 * JAZZER_FUZZ=1 mvn -B -o test -pl engines/openai -Djazzer.hooks=true \
 *     -Djunit.jupiter.execution.timeout.mode=disabled \
 *     -Dtest=WireFormatFuzzTest#decodingAnyAnswerBodyYieldsAResultOrAnInferenceFailure
 * </pre>
 */
class WireFormatFuzzTest {

    private static final JsonMapper JSON = JsonMapper.builder().build();
    private static final HttpFailures FAILURES = new HttpFailures("http://fuzz.invalid/v1", "fuzz-model", "", JSON);
    private static final ChatResponseDecoder DECODER = new ChatResponseDecoder(JSON, FAILURES, 4096);
    private static final Request REQUEST = Request.of("hello");

    // Timeout: an input taking longer than 10 s is a hang (a finding in fuzzing mode, a failure in regression mode).
    @Timeout(10)
    @FuzzTest(maxDuration = "10m")
    void decodingAnyAnswerBodyYieldsAResultOrAnInferenceFailure(byte[] input) {
        String body = new String(input, UTF_8);
        Result result;
        try {
            JsonNode root = DECODER.parseObject(body, "the answer");
            result = DECODER.decode(root, REQUEST, CallContext.background(), Duration.ofMillis(5));
        } catch (PaganticException failure) {
            assertInferenceFailure(failure);
            return;
        }
        assertWellFormed(result);
    }

    @Timeout(10)
    @FuzzTest(maxDuration = "10m")
    void decodingAnyEventStreamYieldsAResultOrAnInferenceFailure(byte[] input) throws IOException {
        List<String> delivered = new ArrayList<>();
        StreamHandler handler = StreamHandler.onContent(delivered::add);
        CallContext context = CallContext.background();
        ChatStreamDecoder stream = new ChatStreamDecoder(DECODER, new Delivery(handler, context), REQUEST, context);
        SseReader reader = new SseReader(new ByteArrayInputStream(input));
        Result result;
        try {
            SseReader.Event event;
            while ((event = reader.next()) != null) {
                if (event.data().strip().equals("[DONE]")) {
                    stream.done();
                    break;
                }
                for (JsonNode chunk : chunks(event)) {
                    stream.accept(chunk);
                }
            }
            if (!stream.complete()) {
                throw FAILURES.truncatedStream();
            }
            result = stream.finish(Duration.ofMillis(5));
        } catch (PaganticException failure) {
            assertInferenceFailure(failure);
            return;
        }
        assertWellFormed(result);
        assertThat(String.join("", delivered)).as("the result is what was delivered").isEqualTo(result.content());
    }

    @Test
    void anAnswerNested100000DeepIsMalformedNotAStackOverflow() {
        // Jackson 3's default StreamReadConstraints (the engine's mapper) refuse nesting deeper than 500 levels.
        String deep = "{\"choices\":" + "[".repeat(100_000) + "]".repeat(100_000) + "}";

        assertThatThrownBy(() -> DECODER.parseObject(deep, "the answer"))
                .isInstanceOfSatisfying(PaganticException.class, failure ->
                        assertThat(failure.code()).isEqualTo(ErrorCode.INFERENCE_MALFORMED_RESPONSE));
    }

    @Test
    void toolArgumentsNested100000DeepAreMalformedNotAStackOverflow() {
        String deep = "{\"a\":" + "[".repeat(100_000) + "]".repeat(100_000) + "}";

        assertThatThrownBy(() -> DECODER.arguments(deep, "tool"))
                .isInstanceOfSatisfying(PaganticException.class, failure ->
                        assertThat(failure.code()).isEqualTo(ErrorCode.INFERENCE_MALFORMED_RESPONSE));
    }

    /** As {@code ChatCall.chunks}: the event's data as one object, or leniently one object per data line. */
    private static List<JsonNode> chunks(SseReader.Event event) {
        try {
            return List.of(DECODER.parseObject(event.data(), "a stream chunk"));
        } catch (PaganticException malformed) {
            if (!event.complete()) {
                throw FAILURES.truncatedStream();
            }
            if (event.lines().size() < 2) {
                throw malformed;
            }
            List<JsonNode> chunks = new ArrayList<>();
            for (String line : event.lines()) {
                chunks.add(DECODER.parseObject(line, "a stream chunk"));
            }
            return chunks;
        }
    }

    private static void assertInferenceFailure(PaganticException failure) {
        assertThat(failure.code().category()).as("%s", failure).isEqualTo(FailureCategory.INFERENCE);
    }

    private static void assertWellFormed(Result result) {
        assertThat(result.content()).isNotNull();
        assertThat(result.finishReason()).isNotNull();
        assertThat(result.usage().promptTokens()).isNotNegative();
        assertThat(result.usage().contextTokens()).isNotNegative();
        assertThat(result.toolCalls()).extracting(ToolCall::id).doesNotHaveDuplicates();
        for (ToolCall call : result.toolCalls()) {
            assertThat(call.name()).isNotBlank();
        }
    }
}
