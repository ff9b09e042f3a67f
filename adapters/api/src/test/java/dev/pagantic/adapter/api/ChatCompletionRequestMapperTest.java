package dev.pagantic.adapter.api;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.pagantic.core.Message;
import dev.pagantic.core.PaganticException;
import dev.pagantic.core.Role;
import dev.pagantic.orchestrate.facade.Mode;
import dev.pagantic.orchestrate.facade.SystemRequest;
import java.util.Map;
import org.junit.jupiter.api.Test;

class ChatCompletionRequestMapperTest {

    private final ChatCompletionRequestMapper mapper = new ChatCompletionRequestMapper(ApiLimits.DEFAULTS);

    private ChatCompletionCall map(String json) {
        return mapper.map(TestServer.JSON.readTree(json), "r-1", "trace-1");
    }

    @Test
    void idsModelAndStreamFlagsAreCarriedOver() {
        ChatCompletionCall call = map("{\"model\":\"m\",\"stream\":true,\"stream_options\":{\"include_usage\":true},"
                + "\"messages\":[{\"role\":\"user\",\"content\":\"hi\"}]}");

        assertThat(call.request().requestId()).isEqualTo("r-1");
        assertThat(call.request().traceId()).isEqualTo("trace-1");
        assertThat(call.request().sessionId()).as("OpenAI requests carry their whole history").isEmpty();
        assertThat(call.model()).isEqualTo("m");
        assertThat(call.stream()).isTrue();
        assertThat(call.includeUsage()).isTrue();
        assertThat(call.structured()).isFalse();
        assertThat(call.request().mode()).isEqualTo(Mode.CHAT);
    }

    @Test
    void developerMessagesAreSystemMessagesAndTextPartsAreJoined() {
        SystemRequest request = map("{\"messages\":[{\"role\":\"developer\",\"content\":\"Be kind.\"},"
                + "{\"role\":\"user\",\"content\":[{\"type\":\"text\",\"text\":\"one\"},{\"type\":\"text\","
                + "\"text\":\"two\"}]},{\"role\":\"assistant\",\"content\":null,\"tool_calls\":[]},"
                + "{\"role\":\"user\",\"content\":\"three\"}]}").request();

        assertThat(request.messages()).extracting(Message::role)
                .containsExactly(Role.SYSTEM, Role.USER, Role.ASSISTANT, Role.USER);
        assertThat(request.messages().get(1).content()).isEqualTo("one\ntwo");
        assertThat(request.messages().get(2).content()).isEmpty();
    }

    @Test
    void aToolResultTakesTheNameOfTheCallItAnswers() {
        SystemRequest request = map("{\"messages\":[{\"role\":\"user\",\"content\":\"?\"},"
                + "{\"role\":\"assistant\",\"tool_calls\":[{\"id\":\"c1\",\"type\":\"function\",\"function\":"
                + "{\"name\":\"lookup\",\"arguments\":\"{\\\"q\\\":\\\"x\\\",\\\"n\\\":2}\"}}]},"
                + "{\"role\":\"tool\",\"tool_call_id\":\"c1\",\"content\":\"found\"}]}").request();

        Message assistant = request.messages().get(1);
        assertThat(assistant.toolCalls()).singleElement().satisfies(call -> {
            assertThat(call.name()).isEqualTo("lookup");
            assertThat(call.arguments()).isEqualTo(Map.of("q", "x", "n", 2));
        });
        Message tool = request.messages().get(2);
        assertThat(tool.role()).isEqualTo(Role.TOOL);
        assertThat(tool.name()).isEqualTo("lookup");
        assertThat(tool.toolCallId()).isEqualTo("c1");
    }

    @Test
    void aToolResultForACallNobodyMadeIsRefused() {
        assertThatThrownBy(() -> map("{\"messages\":[{\"role\":\"tool\",\"tool_call_id\":\"c9\",\"content\":\"x\"}]}"))
                .isInstanceOf(ApiFailure.class).hasMessageContaining("c9");
    }

    @Test
    void toolsBecomeCallerToolsWithTheirSchemas() {
        SystemRequest request = map("{\"messages\":[{\"role\":\"user\",\"content\":\"?\"}],\"tools\":[{\"type\":"
                + "\"function\",\"function\":{\"name\":\"get_time\",\"description\":\"Now\",\"parameters\":{\"type\":"
                + "\"object\",\"properties\":{\"zone\":{\"type\":\"string\"}},\"required\":[\"zone\"]}}},"
                + "{\"type\":\"function\",\"function\":{\"name\":\"ping\"}}],\"tool_choice\":\"required\"}").request();

        assertThat(request.callerTools()).extracting(t -> t.name()).containsExactly("get_time", "ping");
        assertThat(request.callerTools().get(0).description()).isEqualTo("Now");
        assertThat(request.callerTools().get(0).parameters().toJsonSchema()).containsKey("properties");
        assertThat(request.hints().settings().options()).containsEntry("tool_choice", "required");
    }

    @Test
    void samplingAndLengthBecomeHintsPreferringMaxCompletionTokens() {
        SystemRequest request = map("{\"messages\":[{\"role\":\"user\",\"content\":\"?\"}],\"temperature\":0.3,"
                + "\"top_p\":0.8,\"max_tokens\":10,\"max_completion_tokens\":20,\"presence_penalty\":0.5}").request();

        assertThat(request.hints().settings().temperature()).hasValue(0.3);
        assertThat(request.hints().settings().topP()).hasValue(0.8);
        assertThat(request.hints().settings().maxTokens()).isEqualTo(20);
        assertThat(request.hints().settings().options()).containsEntry("presence_penalty", 0.5);
    }

    @Test
    void seedAndStopBecomeTheRequestsInferenceSettings() {
        SystemRequest array = map("{\"messages\":[{\"role\":\"user\",\"content\":\"?\"}],\"seed\":42,"
                + "\"stop\":[\"\\n\\n\",\"END\"]}").request();
        SystemRequest single = map("{\"messages\":[{\"role\":\"user\",\"content\":\"?\"}],\"stop\":\"###\"}")
                .request();

        assertThat(array.hints().settings().seed()).hasValue(42L);
        assertThat(array.hints().settings().stop()).containsExactly("\n\n", "END");
        assertThat(single.hints().settings().stop()).containsExactly("###");
        assertThat(single.hints().settings().seed()).isEmpty();
    }

    @Test
    void aMalformedSeedOrStopIsABadRequest() {
        for (String body : new String[] {"\"seed\":1.5", "\"seed\":\"42\"", "\"stop\":\"\"", "\"stop\":[1]",
                "\"stop\":[\"a\",\"b\",\"c\",\"d\",\"e\"]"}) {
            assertThatThrownBy(() -> map("{\"messages\":[{\"role\":\"user\",\"content\":\"?\"}]," + body + "}"))
                    .as(body).isInstanceOf(ApiFailure.class);
        }
    }

    @Test
    void aJsonSchemaResponseFormatIsStructuredModeWithThatSchema() {
        ChatCompletionCall call = map("{\"messages\":[{\"role\":\"user\",\"content\":\"?\"}],\"response_format\":"
                + "{\"type\":\"json_schema\",\"json_schema\":{\"name\":\"x\",\"strict\":true,\"schema\":{\"type\":"
                + "\"object\",\"properties\":{\"a\":{\"type\":\"integer\"}},\"required\":[\"a\"],"
                + "\"additionalProperties\":false}}}}");

        assertThat(call.structured()).isTrue();
        assertThat(call.request().mode()).isEqualTo(Mode.STRUCTURED);
        assertThat(call.request().output().schema()).hasValueSatisfying(schema ->
                assertThat(schema.toJsonSchema()).containsEntry("type", "object"));
    }

    @Test
    void toolsAndAJsonSchemaCannotBeCombined() {
        assertThatThrownBy(() -> map("{\"messages\":[{\"role\":\"user\",\"content\":\"?\"}],"
                + "\"tools\":[{\"type\":\"function\",\"function\":{\"name\":\"t\"}}],"
                + "\"response_format\":{\"type\":\"json_schema\",\"json_schema\":{\"schema\":{\"type\":\"object\"}}}}"))
                .isInstanceOf(ApiFailure.class).hasMessageContaining("cannot be combined");
    }

    @Test
    void aSchemaKeywordTheFacadeCannotHonourIsRefusedByTheFacadesType() {
        assertThatThrownBy(() -> map("{\"messages\":[{\"role\":\"user\",\"content\":\"?\"}],\"tools\":[{\"type\":"
                + "\"function\",\"function\":{\"name\":\"t\",\"parameters\":{\"type\":\"object\",\"oneOf\":[]}}}]}"))
                .isInstanceOf(PaganticException.class).hasMessageContaining("oneOf");
    }

    @Test
    void limitsOnMessagesAreChecked() {
        ChatCompletionRequestMapper strict = new ChatCompletionRequestMapper(new ApiLimits(10_000, 1, 5));

        assertThatThrownBy(() -> strict.map(TestServer.JSON.readTree("{\"messages\":[{\"role\":\"user\","
                + "\"content\":\"a\"},{\"role\":\"user\",\"content\":\"b\"}]}"), "r", ""))
                .isInstanceOf(ApiFailure.class).hasMessageContaining("too many messages");
        assertThatThrownBy(() -> strict.map(TestServer.JSON.readTree("{\"messages\":[{\"role\":\"user\","
                + "\"content\":\"abcdef\"}]}"), "r", ""))
                .isInstanceOf(ApiFailure.class).hasMessageContaining("too long");
    }

    @Test
    void aDraft07SchemaAsZodStampsItIsReadAndAnUnknownDialectIsRefused() {
        SystemRequest request = map("{\"messages\":[{\"role\":\"user\",\"content\":\"?\"}],\"response_format\":"
                + "{\"type\":\"json_schema\",\"json_schema\":{\"name\":\"m\",\"schema\":{\"$schema\":"
                + "\"http://json-schema.org/draft-07/schema#\",\"type\":\"object\",\"properties\":{\"ok\":"
                + "{\"type\":\"boolean\"}},\"required\":[\"ok\"],\"additionalProperties\":false}}}}").request();

        assertThat(request.mode()).isEqualTo(Mode.STRUCTURED);
        assertThat(request.output().schema().orElseThrow().toJsonSchema()).containsKey("properties");
        assertThatThrownBy(() -> map("{\"messages\":[{\"role\":\"user\",\"content\":\"?\"}],\"response_format\":"
                + "{\"type\":\"json_schema\",\"json_schema\":{\"name\":\"m\",\"schema\":{\"$schema\":"
                + "\"https://example.com/my-draft\",\"type\":\"object\"}}}}")).isInstanceOf(PaganticException.class);
    }

    @Test
    void llamaServersSamplingExtensionsBecomeEngineOptionsAndTheOthersAreRefused() {
        SystemRequest request = map("{\"messages\":[{\"role\":\"user\",\"content\":\"?\"}],\"top_k\":40,"
                + "\"min_p\":0.05,\"repeat_penalty\":1.1,\"repeat_last_n\":64,\"cache_prompt\":false}").request();

        assertThat(request.hints().settings().options()).containsEntry("top_k", 40).containsEntry("min_p", 0.05)
                .containsEntry("repeat_penalty", 1.1).containsEntry("repeat_last_n", 64)
                .containsEntry("cache_prompt", false);
        assertThatThrownBy(() -> map("{\"messages\":[{\"role\":\"user\",\"content\":\"?\"}],\"mirostat\":2}"))
                .isInstanceOfSatisfying(ApiFailure.class, failure -> {
                    assertThat(failure.param()).isEqualTo("mirostat");
                    assertThat(failure.openAiCode()).isEqualTo("unsupported_parameter");
                });
    }

    @Test
    void logitBiasBecomesTheEngineOptionAndLogprobsAreRefused() {
        SystemRequest request = map("{\"messages\":[{\"role\":\"user\",\"content\":\"?\"}],"
                + "\"logit_bias\":{\"0042\":-100,\"7\":2.5}}").request();

        assertThat(request.hints().settings().options()).containsEntry("logit_bias", Map.of("42", -100.0, "7", 2.5));
        for (String field : new String[] {"\"logprobs\":true", "\"top_logprobs\":3"}) {
            assertThatThrownBy(() -> map("{\"messages\":[{\"role\":\"user\",\"content\":\"?\"}]," + field + "}"))
                    .isInstanceOfSatisfying(ApiFailure.class, failure -> {
                        assertThat(failure.param()).isIn("logprobs", "top_logprobs");
                        assertThat(failure.openAiCode()).isEqualTo("unsupported_parameter");
                    });
        }
    }
}
