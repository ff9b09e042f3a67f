package dev.pagantic.adapter.api;

import static java.nio.charset.StandardCharsets.UTF_8;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.code_intelligence.jazzer.junit.FuzzTest;
import dev.pagantic.core.FailureCategory;
import dev.pagantic.core.PaganticException;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import tools.jackson.core.JacksonException;
import tools.jackson.core.StreamReadConstraints;
import tools.jackson.core.exc.StreamConstraintsException;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;

/**
 * Fuzzes the parsing of an incoming OpenAI chat completions body, as {@code ApiServer} does it: the body read as JSON
 * (a failure is the server's 400), then {@link ChatCompletionRequestMapper#map}. Whatever the client sends, the
 * result is a call, an {@link ApiFailure} with a 4xx status, or a {@link PaganticException} of the configuration family
 * (a facade type refusing a value, which the server answers with a 4xx); never another exception, which the server
 * would answer with a 500.
 *
 * <p>A plain {@code mvn test} replays the seeds in
 * {@code src/test/resources/dev/pagantic/adapter/api/ChatCompletionRequestFuzzTestInputs/}; to fuzz:
 * <pre>
 * JAZZER_FUZZ=1 mvn -B -o test -pl adapters/api -Djazzer.hooks=true \
 *     -Djunit.jupiter.execution.timeout.mode=disabled \
 *     -Dtest=ChatCompletionRequestFuzzTest
 * </pre>
 */
class ChatCompletionRequestFuzzTest {

    /** As {@code ApiServer}'s mapper: Jackson's defaults, so nesting deeper than 500 levels is refused as not JSON. */
    private static final JsonMapper JSON = JsonMapper.builder().build();
    private static final ChatCompletionRequestMapper MAPPER = new ChatCompletionRequestMapper(ApiLimits.DEFAULTS);

    // Timeout: an input taking longer than 10 s is a hang (a finding in fuzzing mode, a failure in regression mode).
    @Timeout(10)
    @FuzzTest(maxDuration = "10m")
    void anyBodyMapsToACallOrAClientError(byte[] input) {
        JsonNode body;
        try {
            body = JSON.readTree(new String(input, UTF_8));
        } catch (JacksonException notJson) {
            return; // ApiServer answers 400 "the request body is not JSON"
        }
        ChatCompletionCall call;
        try {
            call = MAPPER.map(body, "req-1", "");
        } catch (ApiFailure failure) {
            assertThat(failure.status()).as("%s", failure.getMessage()).isBetween(400, 499);
            return;
        } catch (PaganticException refusal) {
            assertThat(refusal.code().category()).as("%s", refusal).isEqualTo(FailureCategory.CONFIGURATION);
            assertThat(HttpStatuses.of(refusal.code())).isBetween(400, 499);
            return;
        }
        assertThat(call.request().requestId()).isEqualTo("req-1");
        assertThat(call.request().messages().size()).isLessThanOrEqualTo(ApiLimits.DEFAULTS.maxMessages());
    }

    @Test
    void aBodyNested100000DeepIsRefusedByJacksonsDefaultNestingLimitOf500() {
        String deep = "{\"messages\":" + "[".repeat(100_000) + "]".repeat(100_000) + "}";

        assertThat(StreamReadConstraints.defaults().getMaxNestingDepth()).isEqualTo(500);
        assertThatThrownBy(() -> JSON.readTree(deep)).isInstanceOf(StreamConstraintsException.class)
                .hasMessageContaining("500");
    }
}
