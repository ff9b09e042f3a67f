package dev.pagantic.engine.openai;

import static dev.pagantic.engine.openai.TestEngines.failure;
import static dev.pagantic.engine.openai.TestEngines.on;
import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assertions.assertThrows;

import dev.pagantic.core.CallContext;
import dev.pagantic.core.ErrorCode;
import dev.pagantic.core.FinishReason;
import dev.pagantic.core.PaganticException;
import dev.pagantic.core.ToolCall;
import dev.pagantic.inference.Request;
import dev.pagantic.inference.Result;
import dev.pagantic.inference.StreamHandler;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CopyOnWriteArrayList;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

class StreamingTest {

    private StubServer server;

    @AfterEach
    void stop() {
        if (server != null) {
            server.close();
        }
    }

    /** Records every callback in order, each as "kind:value". */
    private static final class Recorder implements StreamHandler {
        final List<String> events = new CopyOnWriteArrayList<>();
        final List<ToolCall> toolCalls = new CopyOnWriteArrayList<>();

        @Override
        public void onContent(String delta) {
            events.add("content:" + delta);
        }

        @Override
        public void onReasoning(String delta) {
            events.add("reasoning:" + delta);
        }

        @Override
        public void onToolCall(ToolCall call) {
            events.add("tool:" + call.name());
            toolCalls.add(call);
        }
    }

    private Result stream(StubServer.Reply reply, StreamHandler handler) {
        server = StubServer.answering(reply);
        try (OpenAiCompatibleEngine engine = on(server).contextWindow(2048).build()) {
            return engine.infer(CallContext.background(), Request.of("Say hello."), handler);
        }
    }

    @Test
    void contentDeltasArriveInOrderAndConcatenateToTheResult() {
        Recorder recorder = new Recorder();
        Result result = stream(StubServer.sseData(Duration.ofMillis(5), List.of(
                "{\"choices\":[{\"index\":0,\"delta\":{\"role\":\"assistant\",\"content\":\"\"}}]}",
                Wire.contentChunk("Hello"), Wire.contentChunk(" there"), Wire.contentChunk(", friend!"),
                Wire.finishChunk("stop"), Wire.usageChunk(11, 4))), recorder);

        assertThat(recorder.events).containsExactly("content:Hello", "content: there", "content:, friend!");
        assertThat(result.content()).isEqualTo("Hello there, friend!");
        assertThat(result.finishReason()).isEqualTo(FinishReason.STOP);
        assertThat(result.usage().promptTokens()).isEqualTo(11);
        assertThat(result.usage().outputTokens()).isEqualTo(4);
        assertThat(result.usage().contextWindow()).isEqualTo(2048);
    }

    @Test
    void reasoningDeltasGoToTheReasoningCallbackBeforeTheContent() {
        Recorder recorder = new Recorder();
        Result result = stream(StubServer.sseData(Duration.ZERO, List.of(Wire.reasoningChunk("Greet"),
                Wire.reasoningChunk(" them."), Wire.contentChunk("Hi!"), Wire.finishChunk("stop"))), recorder);

        assertThat(recorder.events).containsExactly("reasoning:Greet", "reasoning: them.", "content:Hi!");
        assertThat(result.reasoning()).isEqualTo("Greet them.");
        assertThat(result.content()).isEqualTo("Hi!");
    }

    @Test
    void toolCallDeltasAreAssembledByIndexAndDeliveredWholeAtTheEnd() {
        Recorder recorder = new Recorder();
        Result result = stream(StubServer.sseData(Duration.ZERO, List.of(
                Wire.contentChunk("Checking."),
                Wire.toolCallChunk(0, "call_a", "get_weather", ""),
                Wire.toolCallChunk(0, null, null, "{\"ci"),
                Wire.toolCallChunk(1, "call_b", "get_time", "{\"zone\":"),
                Wire.toolCallChunk(0, null, null, "ty\": \"Paris\"}"),
                Wire.toolCallChunk(1, null, null, " \"CET\"}"),
                Wire.finishChunk("tool_calls"), Wire.usageChunk(30, 20))), recorder);

        List<ToolCall> expected = List.of(ToolCall.of("call_a", "get_weather", Map.of("city", "Paris")),
                ToolCall.of("call_b", "get_time", Map.of("zone", "CET")));
        assertThat(result.toolCalls()).isEqualTo(expected);
        assertThat(recorder.toolCalls).isEqualTo(expected);
        assertThat(recorder.events).containsExactly("content:Checking.", "tool:get_weather", "tool:get_time");
        assertThat(result.finishReason()).isEqualTo(FinishReason.TOOL_CALLS);
        assertThat(result.messages().get(0).toolCalls()).isEqualTo(expected);
    }

    @Test
    void aServerThatIgnoresStreamingAnswersWholeAndTheHandlerGetsItWhole() {
        Recorder recorder = new Recorder();
        Result result = stream(StubServer.json(200, Wire.completion("All at once.", "stop", 5, 3)), recorder);

        assertThat(recorder.events).containsExactly("content:All at once.");
        assertThat(result.content()).isEqualTo("All at once.");
    }

    @Test
    void commentsOtherFieldsAndCrlfLineEndingsAreUnderstood() {
        Recorder recorder = new Recorder();
        Result result = stream(StubServer.sse(Duration.ZERO, List.of(
                ": keep-alive\r\n\r\n",
                "event: message\r\nid: 1\r\ndata: " + Wire.contentChunk("one") + "\r\n\r\n",
                "data:" + Wire.contentChunk(" two") + "\n\n",
                "data: " + Wire.finishChunk("stop") + "\n\n",
                "data: [DONE]\n\n")), recorder);

        assertThat(result.content()).isEqualTo("one two");
        assertThat(recorder.events).containsExactly("content:one", "content: two");
    }

    @Test
    void aCharacterSplitAcrossNetworkWritesArrivesIntact() {
        byte[] event = ("data: " + Wire.contentChunk("café ☕") + "\n\n").getBytes(StandardCharsets.UTF_8);
        int split = new String(event, StandardCharsets.ISO_8859_1)
                .indexOf(new String("☕".getBytes(StandardCharsets.UTF_8), StandardCharsets.ISO_8859_1))
                + 1; // inside the character's three bytes
        String first = new String(event, 0, split, StandardCharsets.ISO_8859_1);
        String rest = new String(event, split, event.length - split, StandardCharsets.ISO_8859_1);
        StubServer.Reply bytes = (exchange, request, stub) -> {
            exchange.getResponseHeaders().set("Content-Type", "text/event-stream");
            exchange.sendResponseHeaders(200, 0);
            for (String piece : List.of(first, rest, "data: " + Wire.finishChunk("stop") + "\n\ndata: [DONE]\n\n")) {
                exchange.getResponseBody().write(piece.getBytes(StandardCharsets.ISO_8859_1));
                exchange.getResponseBody().flush();
                StubServer.sleep(Duration.ofMillis(20));
            }
        };

        assertThat(stream(bytes, new Recorder()).content()).isEqualTo("café ☕");
    }

    @Test
    void aStreamThatEndsAfterItsFinishReasonWithoutDoneIsComplete() {
        Result result = stream(StubServer.sse(Duration.ZERO, List.of(
                "data: " + Wire.contentChunk("Done.") + "\n\n", "data: " + Wire.finishChunk("length") + "\n\n")),
                new Recorder());

        assertThat(result.content()).isEqualTo("Done.");
        assertThat(result.finishReason()).isEqualTo(FinishReason.LENGTH);
    }

    @Test
    void anErrorEventInTheStreamFailsTheCall() {
        server = StubServer.answering(StubServer.sseData(Duration.ZERO, List.of(Wire.contentChunk("Hel"),
                Wire.error("out of memory"))));
        try (OpenAiCompatibleEngine engine = on(server).build()) {
            PaganticException failure = failure(() -> engine.infer(CallContext.background(), Request.of("hi"),
                    new Recorder()));
            assertThat(failure.code()).isEqualTo(ErrorCode.INFERENCE_ENGINE_ERROR);
            assertThat(failure.getMessage()).contains("out of memory");
            assertThat(failure.details()).containsEntry("endpoint", server.baseUrl() + "/v1/chat/completions");
        }
    }

    @Test
    void aContextErrorEventInTheStreamIsContextExceeded() {
        server = StubServer.answering(StubServer.sseData(Duration.ZERO,
                List.of(Wire.error("the request exceeds the available context size"))));
        try (OpenAiCompatibleEngine engine = on(server).build()) {
            assertThat(failure(() -> engine.infer(CallContext.background(), Request.of("hi"), new Recorder())).code())
                    .isEqualTo(ErrorCode.INFERENCE_CONTEXT_EXCEEDED);
        }
    }

    @Test
    void anExceptionFromTheHandlerEndsTheCallUnchangedAndClosesTheConnection() throws InterruptedException {
        server = StubServer.answering(StubModel.says("one two three four five six seven eight nine ten eleven twelve"
                + " thirteen fourteen fifteen sixteen seventeen eighteen nineteen twenty")
                .pausing(Duration.ofMillis(30)));
        IllegalStateException thrown = new IllegalStateException("the UI is gone");
        try (OpenAiCompatibleEngine engine = on(server).build()) {
            IllegalStateException failure = assertThrows(IllegalStateException.class, () -> engine.infer(
                    CallContext.background(), Request.of("count"), StreamHandler.onContent(delta -> {
                        throw thrown;
                    })));
            assertThat(failure).isSameAs(thrown);
        }
        assertThat(server.awaitClientGone(TestEngines.HANG_GUARD)).as("the server sees the connection closed").isTrue();
    }
}
