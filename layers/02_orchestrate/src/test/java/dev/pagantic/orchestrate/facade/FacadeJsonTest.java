package dev.pagantic.orchestrate.facade;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.pagantic.core.ErrorCode;
import dev.pagantic.core.Message;
import dev.pagantic.core.PaganticException;
import dev.pagantic.core.Schema;
import dev.pagantic.core.TokenUsage;
import dev.pagantic.core.ToolCall;
import dev.pagantic.core.ToolDefinition;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

class FacadeJsonTest {

    private static final Schema SENTIMENT = Schema.object()
            .required("sentiment", Schema.enumOf("positive", "negative")).build();

    @Test
    void aRequestSurvivesTheRoundTripThroughItsJsonForm() {
        SystemRequest request = SystemRequest.builder().requestId("r").sessionId("s").traceId("t")
                .mode(Mode.STRUCTURED)
                .system("Be brief.").user("Analyze")
                .message(Message.assistant("", List.of(ToolCall.of("c1", "lookup", Map.of("q", "x")))))
                .message(Message.toolResult("c1", "lookup", "found"))
                .hints(ExecutionHints.builder().maxTokens(64).timeout(Duration.ofSeconds(5)).temperature(0.0)
                        .topP(0.9).option("top_k", 40).build())
                .output(OutputContract.builder().schema(SENTIMENT).grammar("root ::= \"a\"").repairAllowed(false)
                        .strictValidation(false).build())
                .tools("lookup")
                .callerTool(ToolDefinition.of("get_time", "The time", Schema.object().build()))
                .build();

        assertThat(FacadeJson.requestFromJson(FacadeJson.toJson(request))).isEqualTo(request);
    }

    @Test
    void onlyMessagesAreNeededAndTheModeDefaultsToChat() {
        SystemRequest request = FacadeJson.requestFromJson(
                "{\"messages\":[{\"role\":\"user\",\"content\":\"hi\"}]}");

        assertThat(request.mode()).isEqualTo(Mode.CHAT);
        assertThat(request.messages()).containsExactly(Message.user("hi"));
        assertThat(request.output()).isEqualTo(OutputContract.none());
    }

    @Test
    void malformedRequestsAreConfigurationErrors() {
        for (String json : List.of("not json", "[]", "{\"messages\":[{\"role\":\"robot\",\"content\":\"x\"}]}",
                "{\"mode\":\"dance\",\"messages\":[]}",
                "{\"messages\":[],\"output\":{\"grammar_file\":\"/etc/passwd\"}}",
                "{\"messages\":[],\"output\":{\"schema\":{\"type\":\"string\",\"nullable\":true}}}")) {
            assertThatThrownBy(() -> FacadeJson.requestFromJson(json)).as(json)
                    .isInstanceOfSatisfying(PaganticException.class,
                            e -> assertThat(e.code()).isEqualTo(ErrorCode.CONFIG_INVALID));
        }
    }

    @Test
    void aResponseHasTheSeedsSnakeCaseFields() {
        SystemResponse response = SystemResponse.builder().requestId("r").sessionId("s").content("{\"a\":1}")
                .structuredOutput(Map.of("a", 1)).confidence(0.5, ConfidenceSource.VOTING)
                .tokenUsage(TokenUsage.of(10, 5))
                .build();

        Map<String, Object> json = FacadeJson.toMap(response);

        assertThat(json).containsEntry("request_id", "r").containsEntry("structured_output", Map.of("a", 1L))
                .containsEntry("confidence", 0.5).containsEntry("confidence_source", "voting")
                .containsEntry("finish_reason", "stop").doesNotContainKey("error");
        assertThat((Map<String, Object>) json.get("token_usage")).containsEntry("total_tokens", 15);
    }

    @Test
    void aFailedResponseCarriesItsErrorCodeCategoryAndRetryability() {
        SystemResponse failed = SystemResponse.failure(SystemRequest.builder().requestId("r").user("x").build(),
                SystemError.of(ErrorCode.CONSTRAINT_SCHEMA_INVALID, "bad"));

        Map<String, Object> error = (Map<String, Object>) FacadeJson.toMap(failed).get("error");

        assertThat(error).containsEntry("code", "CONSTRAINT_SCHEMA_INVALID")
                .containsEntry("category", "ConstraintFailure").containsEntry("retryable", true);
    }

    @Test
    void messagesSurviveTheRoundTrip() {
        List<Message> messages = List.of(Message.user("a"), Message.assistant("b",
                List.of(ToolCall.of("1", "t", Map.of()))), Message.toolResult("1", "t", "c"));

        assertThat(FacadeJson.messagesFromJson(FacadeJson.messagesToJson(messages))).isEqualTo(messages);
    }
}
