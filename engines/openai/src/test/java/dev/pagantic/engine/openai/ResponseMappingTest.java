package dev.pagantic.engine.openai;

import static dev.pagantic.engine.openai.TestEngines.failure;
import static dev.pagantic.engine.openai.TestEngines.on;
import static org.assertj.core.api.Assertions.assertThat;

import dev.pagantic.core.CallContext;
import dev.pagantic.core.ErrorCode;
import dev.pagantic.core.FinishReason;
import dev.pagantic.core.Message;
import dev.pagantic.core.PaganticException;
import dev.pagantic.core.Role;
import dev.pagantic.core.TokenUsage;
import dev.pagantic.core.ToolCall;
import dev.pagantic.inference.Request;
import dev.pagantic.inference.Result;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

class ResponseMappingTest {

    private StubServer server;

    @AfterEach
    void stop() {
        if (server != null) {
            server.close();
        }
    }

    private Result answer(String body) {
        server = StubServer.answering(StubServer.json(200, body));
        try (OpenAiCompatibleEngine engine = on(server).contextWindow(4096).build()) {
            return engine.infer(CallContext.background(), Request.of("What is the capital of France?"));
        }
    }

    private PaganticException failureOf(String body) {
        server = StubServer.answering(StubServer.json(200, body));
        try (OpenAiCompatibleEngine engine = on(server).build()) {
            return failure(() -> engine.infer(Request.of("hi")));
        }
    }

    @Test
    void contentFinishReasonAndUsageAreMapped() {
        Result result = answer(Wire.completion("Paris.", "stop", 23, 3));

        assertThat(result.content()).isEqualTo("Paris.");
        assertThat(result.reasoning()).isEmpty();
        assertThat(result.toolCalls()).isEmpty();
        assertThat(result.finishReason()).isEqualTo(FinishReason.STOP);
        assertThat(result.messages()).containsExactly(Message.assistant("Paris."));
        TokenUsage usage = result.usage();
        assertThat(usage.promptTokens()).isEqualTo(23);
        assertThat(usage.outputTokens()).isEqualTo(3);
        assertThat(usage.contextTokens()).isEqualTo(26);
        assertThat(usage.contextWindow()).isEqualTo(4096);
        assertThat(usage.generationTime()).isPositive();
    }

    @ParameterizedTest
    @CsvSource({"stop, STOP", "length, LENGTH", "content_filter, STOP", "eos, STOP"})
    void finishReasonsAreMapped(String wire, FinishReason expected) {
        assertThat(answer(Wire.completion("text", wire, 5, 1)).finishReason()).isEqualTo(expected);
    }

    @Test
    void toolCallsAreMappedWithTheirArgumentsParsed() {
        Result result = answer("""
                {"choices": [{"index": 0, "finish_reason": "tool_calls", "message": {"role": "assistant",
                  "content": null, "tool_calls": [
                    {"id": "call_a", "type": "function",
                     "function": {"name": "get_weather",
                                  "arguments": "{\\"city\\": \\"Paris\\", \\"units\\": {\\"t\\": \\"C\\"}}"}},
                    {"id": "call_b", "type": "function", "function": {"name": "get_time", "arguments": ""}}]}}],
                 "usage": {"prompt_tokens": 40, "completion_tokens": 12}}
                """);

        assertThat(result.content()).isEmpty();
        assertThat(result.toolCalls()).containsExactly(
                ToolCall.of("call_a", "get_weather", Map.of("city", "Paris", "units", Map.of("t", "C"))),
                ToolCall.of("call_b", "get_time", Map.of()));
        assertThat(result.finishReason()).isEqualTo(FinishReason.TOOL_CALLS);
        Message assistant = result.messages().get(0);
        assertThat(assistant.role()).isEqualTo(Role.ASSISTANT);
        assertThat(assistant.toolCalls()).isEqualTo(result.toolCalls());
    }

    @Test
    void toolCallsFinishWithToolCallsEvenWhenTheServerSaysStop() {
        Result result = answer("""
                {"choices": [{"finish_reason": "stop", "message": {"content": "", "tool_calls": [
                  {"id": "c1", "type": "function", "function": {"name": "ping", "arguments": "{}"}}]}}]}
                """);

        assertThat(result.finishReason()).isEqualTo(FinishReason.TOOL_CALLS);
    }

    @Test
    void toolCallsWithoutIdsOrWithRepeatedIdsGetUniqueOnes() {
        Result result = answer("""
                {"choices": [{"finish_reason": "tool_calls", "message": {"tool_calls": [
                  {"function": {"name": "ping", "arguments": "{}"}},
                  {"id": "same", "function": {"name": "ping", "arguments": "{}"}},
                  {"id": "same", "function": {"name": "ping", "arguments": {"host": "a"}}}]}}]}
                """);

        List<String> ids = result.toolCalls().stream().map(ToolCall::id).toList();
        assertThat(ids).doesNotHaveDuplicates().allSatisfy(id -> assertThat(id).isNotBlank());
        assertThat(ids.get(1)).isEqualTo("same");
        assertThat(result.toolCalls().get(2).arguments()).isEqualTo(Map.of("host", "a"));
    }

    @Test
    void reasoningContentIsMappedToReasoning() {
        Result result = answer("""
                {"choices": [{"finish_reason": "stop", "message": {"content": "42",
                  "reasoning_content": "Six times seven."}}],
                 "usage": {"prompt_tokens": 9, "completion_tokens": 10,
                           "completion_tokens_details": {"reasoning_tokens": 8}}}
                """);

        assertThat(result.reasoning()).isEqualTo("Six times seven.");
        assertThat(result.content()).isEqualTo("42");
        assertThat(result.usage().reasoningTokens()).isEqualTo(8);
        assertThat(result.usage().outputTokens()).isEqualTo(2);
    }

    @Test
    void reasoningUnderTheShorterNameIsMappedToo() {
        Result result = answer("""
                {"choices": [{"finish_reason": "stop", "message": {"content": "42", "reasoning": "Hmm."}}]}
                """);

        assertThat(result.reasoning()).isEqualTo("Hmm.");
    }

    @Test
    void contentAsTextPartsIsJoined() {
        Result result = answer("""
                {"choices": [{"finish_reason": "stop", "message": {"content": [
                  {"type": "text", "text": "Hello, "}, {"type": "text", "text": "world."}]}}]}
                """);

        assertThat(result.content()).isEqualTo("Hello, world.");
    }

    @Test
    void missingUsageIsEstimated() {
        Result result = answer("""
                {"choices": [{"finish_reason": "stop", "message": {"content": "Paris is the capital of France."}}]}
                """);

        assertThat(result.usage().promptTokens()).isPositive();
        assertThat(result.usage().outputTokens()).isPositive();
    }

    @Test
    void llamaServerTimingsGiveTheGenerationTime() {
        Result result = answer("""
                {"choices": [{"finish_reason": "stop", "message": {"content": "ok"}}],
                 "usage": {"prompt_tokens": 5, "completion_tokens": 50},
                 "timings": {"prompt_ms": 12.5, "predicted_ms": 250.0}}
                """);

        assertThat(result.usage().generationTime()).isEqualTo(Duration.ofMillis(250));
        assertThat(result.usage().tokensPerSecond()).isEqualTo(200.0);
    }

    @Test
    void toolArgumentsThatAreNotJsonAreAMalformedResponse() {
        PaganticException failure = failureOf("""
                {"choices": [{"finish_reason": "tool_calls", "message": {"tool_calls": [
                  {"id": "c1", "function": {"name": "get_weather", "arguments": "{\\"city\\": Par"}}]}}]}
                """);

        assertThat(failure.code()).isEqualTo(ErrorCode.INFERENCE_MALFORMED_RESPONSE);
        assertThat(failure.getMessage()).contains("get_weather");
        assertThat(failure.details()).containsKey("endpoint");
    }

    @Test
    void toolArgumentsThatAreNotAnObjectAreAMalformedResponse() {
        PaganticException failure = failureOf("""
                {"choices": [{"finish_reason": "tool_calls", "message": {"tool_calls": [
                  {"id": "c1", "function": {"name": "get_weather", "arguments": "[1, 2]"}}]}}]}
                """);

        assertThat(failure.code()).isEqualTo(ErrorCode.INFERENCE_MALFORMED_RESPONSE);
    }

    @Test
    void aToolCallWithoutANameIsAMalformedResponse() {
        PaganticException failure = failureOf("""
                {"choices": [{"message": {"tool_calls": [{"id": "c1", "function": {"arguments": "{}"}}]}}]}
                """);

        assertThat(failure.code()).isEqualTo(ErrorCode.INFERENCE_MALFORMED_RESPONSE);
    }
}
