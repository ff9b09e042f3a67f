package dev.pagantic.inference;

import static dev.pagantic.inference.Failures.assertFailsWith;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.pagantic.core.CallContext;
import dev.pagantic.core.ErrorCode;
import dev.pagantic.core.PaganticException;
import dev.pagantic.core.TokenUsage;
import dev.pagantic.core.ToolCall;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.Consumer;
import org.junit.jupiter.api.Nested;
import org.junit.jupiter.api.Test;

class EngineTest {

    private static final ToolCall FIRST = ToolCall.of("call_1", "get_weather", Map.of("city", "Paris"));
    private static final ToolCall SECOND = ToolCall.of("call_2", "get_time", Map.of("zone", "CET"));
    private static final Request REQUEST = Request.of("Weather and time in Paris?");

    /** An engine that answers every call with a fixed result and records the contexts it was given. */
    private static final class FixedEngine implements Engine {
        final List<CallContext> contexts = new ArrayList<>();
        final List<Request> requests = new ArrayList<>();
        private final Result answer;

        FixedEngine(Result answer) {
            this.answer = answer;
        }

        @Override
        public Result infer(CallContext context, Request request) {
            contexts.add(context);
            requests.add(request);
            return answer;
        }

        @Override
        public ModelInfo modelInfo() {
            return ModelInfo.of("fixed", 4096);
        }
    }

    /** Records every callback as "kind:value", in order. */
    private static final class RecordingHandler implements StreamHandler {
        final List<String> events = new ArrayList<>();

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
            events.add("tool:" + call.id());
        }
    }

    @Nested
    class StreamingDefault {

        @Test
        void replaysReasoningContentAndEachToolCallOnceInOrder() {
            Result answer = Result.builder().reasoning("Two tools needed.").content("Checking.")
                    .toolCalls(List.of(FIRST, SECOND)).usage(TokenUsage.of(10, 20)).build();
            FixedEngine engine = new FixedEngine(answer);
            RecordingHandler handler = new RecordingHandler();

            Result result = engine.infer(CallContext.background(), REQUEST, handler);

            assertThat(result).isSameAs(answer);
            assertThat(handler.events).containsExactly("reasoning:Two tools needed.", "content:Checking.",
                    "tool:call_1", "tool:call_2");
        }

        @Test
        void emptyReasoningAndContentAreNotDelivered() {
            FixedEngine engine = new FixedEngine(Result.builder().toolCalls(List.of(FIRST)).build());
            RecordingHandler handler = new RecordingHandler();

            engine.infer(CallContext.background(), REQUEST, handler);

            assertThat(handler.events).containsExactly("tool:call_1");
        }

        @Test
        void concatenatedContentDeltasEqualTheFinalContent() {
            FixedEngine engine = new FixedEngine(Result.of("It is sunny in Paris.", TokenUsage.ZERO));
            StringBuilder streamed = new StringBuilder();

            Result result = engine.infer(CallContext.background(), REQUEST, StreamHandler.onContent(streamed::append));

            assertThat(streamed).hasToString(result.content());
        }

        @Test
        void callersContextAndRequestReachTheEngine() {
            FixedEngine engine = new FixedEngine(Result.of("ok", TokenUsage.ZERO));
            CallContext ctx = CallContext.builder().requestId("req-1").build();

            engine.infer(ctx, REQUEST, StreamHandler.NOOP);

            assertThat(engine.contexts).containsExactly(ctx);
            assertThat(engine.requests).containsExactly(REQUEST);
        }

        @Test
        void failureOfTheCallReachesTheCallerAndNothingIsDelivered() {
            Engine failing = new Engine() {
                @Override
                public Result infer(CallContext context, Request request) {
                    throw PaganticException.of(ErrorCode.INFERENCE_ENGINE_ERROR, "HTTP 503");
                }

                @Override
                public ModelInfo modelInfo() {
                    return ModelInfo.of("failing", 0);
                }
            };
            RecordingHandler handler = new RecordingHandler();

            assertFailsWith(ErrorCode.INFERENCE_ENGINE_ERROR,
                    () -> failing.infer(CallContext.background(), REQUEST, handler));
            assertThat(handler.events).isEmpty();
        }

        @Test
        void throwingHandlerAbortsTheCallWithItsException() {
            FixedEngine engine = new FixedEngine(Result.of("ok", TokenUsage.ZERO));
            IllegalStateException stop = new IllegalStateException("client went away");

            assertThatThrownBy(() -> engine.infer(CallContext.background(), REQUEST,
                    StreamHandler.onContent(delta -> {
                        throw stop;
                    }))).isSameAs(stop);
        }
    }

    @Nested
    class OtherDefaults {

        @Test
        void inferWithoutContextUsesAFreshBackgroundContext() {
            FixedEngine engine = new FixedEngine(Result.of("ok", TokenUsage.ZERO));

            engine.infer(REQUEST);
            engine.infer(REQUEST);

            assertThat(engine.contexts).hasSize(2).allSatisfy(ctx -> {
                assertThat(ctx.isDone()).isFalse();
                assertThat(ctx.deadline()).isEmpty();
                assertThat(ctx.requestId()).isNotBlank();
            });
            assertThat(engine.contexts.get(0).requestId()).isNotEqualTo(engine.contexts.get(1).requestId());
            assertThat(engine.requests).containsExactly(REQUEST, REQUEST);
        }

        @Test
        void defaultTokenCounterIsTheEstimate() {
            TokenCounter counter = new FixedEngine(Result.builder().build()).tokenCounter();

            assertThat(counter.count("abcdefgh")).isEqualTo(TokenCounter.estimate().count("abcdefgh")).isEqualTo(2);
        }

        @Test
        void defaultCloseIsHarmlessAndRepeatable() {
            FixedEngine engine = new FixedEngine(Result.of("ok", TokenUsage.ZERO));

            engine.close();
            engine.close();

            assertThat(engine.infer(REQUEST).content()).isEqualTo("ok");
        }
    }

    @Nested
    class Handlers {

        @Test
        void contentHandlerPassesContentAndIgnoresTheRest() {
            List<String> received = new ArrayList<>();
            StreamHandler handler = StreamHandler.onContent(received::add);

            handler.onReasoning("thinking");
            handler.onContent("Hel");
            handler.onToolCall(FIRST);
            handler.onContent("lo");

            assertThat(received).containsExactly("Hel", "lo");
        }

        @Test
        void contentHandlerNeedsAConsumer() {
            assertThatThrownBy(() -> StreamHandler.onContent((Consumer<String>) null)).isInstanceOf(NullPointerException.class);
        }

        @Test
        void handlerImplementingOneCallbackIgnoresTheOthers() {
            AtomicInteger calls = new AtomicInteger();
            StreamHandler toolsOnly = new StreamHandler() {
                @Override
                public void onToolCall(ToolCall call) {
                    calls.incrementAndGet();
                }
            };

            toolsOnly.onContent("x");
            toolsOnly.onReasoning("y");
            toolsOnly.onToolCall(FIRST);

            assertThat(calls).hasValue(1);
        }
    }
}
