package dev.pagantic.testkit;

import dev.pagantic.core.CallContext;
import dev.pagantic.core.ErrorCode;
import dev.pagantic.core.FinishReason;
import dev.pagantic.core.PaganticException;
import dev.pagantic.core.TokenUsage;
import dev.pagantic.core.ToolCall;
import dev.pagantic.inference.Capability;
import dev.pagantic.inference.ModelInfo;
import dev.pagantic.inference.Request;
import dev.pagantic.inference.Result;
import dev.pagantic.inference.StreamHandler;
import java.time.Duration;
import java.util.List;
import java.util.Objects;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.function.Consumer;

/**
 * The fake decoder shared by {@link ScriptedEngine} and {@link EchoEngine}: it turns a reply that is already known into
 * what a real engine would have produced for the request (refusals, word-token accounting, {@code maxTokens} and
 * context-window truncation, streaming between cancellation checks), so both engines behave identically.
 */
final class WordModel {

    /** Simulated generation time: deterministic, and non-zero so that tokens per second is a finite rate. */
    private static final Duration TIME_PER_TOKEN = Duration.ofMillis(1);

    private final ModelInfo info;
    private final AtomicBoolean closed = new AtomicBoolean();

    WordModel(ModelInfo info) {
        this.info = info;
    }

    /** One turn of an engine, run once the call has been admitted. */
    @FunctionalInterface
    interface Turn {
        Result take(CallContext context, Request request, StreamHandler handler);
    }

    /** A reply before accounting: what the model "wants" to say, before limits cut it. */
    record Reply(String reasoning, String content, List<ToolCall> toolCalls) {
        Reply {
            Objects.requireNonNull(reasoning, "reasoning");
            Objects.requireNonNull(content, "content");
            toolCalls = List.copyOf(toolCalls);
        }
    }

    ModelInfo info() {
        return info;
    }

    void close() {
        closed.set(true);
    }

    /**
     * Runs one call: admits it, then takes the turn, streaming token by token if the engine declares
     * {@link Capability#STREAMING} and otherwise delivering the finished result once, as a non-streaming engine does.
     */
    Result call(CallContext context, Request request, StreamHandler handler, Turn turn) {
        Objects.requireNonNull(context, "context");
        Objects.requireNonNull(request, "request");
        Objects.requireNonNull(handler, "handler");
        admit(context, request);
        if (info.supports(Capability.STREAMING)) {
            return turn.take(context, request, handler);
        }
        return StreamHandler.deliverWhole(turn.take(context, request, StreamHandler.NOOP), handler);
    }

    /**
     * Generates the reply under the request's limits, with word-token usage: the content ends before the first of the
     * request's stop strings, and then the budget of {@code maxTokens} and the context window cuts it.
     */
    Result generate(CallContext context, Request request, Reply reply, StreamHandler handler) {
        int prompt = WordText.COUNTER.count(request.messages());
        int budget = budget(request, prompt);
        int stopAt = firstStop(reply.content(), request.settings().stop());
        WordText reasoning = WordText.of(reply.reasoning());
        WordText content = WordText.of(stopAt < 0 ? reply.content() : reply.content().substring(0, stopAt));
        WordText keptReasoning = reasoning.firstWords(budget);
        WordText keptContent = content.firstWords(budget - keptReasoning.words());
        boolean cut = keptReasoning.words() < reasoning.words() || keptContent.words() < content.words();
        // A cut or stopped generation never reached the tool calls, which a model emits after its text.
        List<ToolCall> calls = cut || stopAt >= 0 ? List.of() : reply.toolCalls();
        stream(context, keptReasoning, handler::onReasoning);
        stream(context, keptContent, handler::onContent);
        deliverToolCalls(context, calls, handler);
        Result.Builder result = Result.builder().reasoning(keptReasoning.text()).content(keptContent.text())
                .toolCalls(calls).usage(usage(prompt, keptReasoning.words(), keptContent.words()));
        if (cut) {
            result.finishReason(FinishReason.LENGTH);
        }
        return result.build();
    }

    /** Streams a result that was scripted as a whole and returns it unchanged: no limits, no accounting. */
    Result replay(CallContext context, Result result, StreamHandler handler) {
        stream(context, WordText.of(result.reasoning()), handler::onReasoning);
        stream(context, WordText.of(result.content()), handler::onContent);
        deliverToolCalls(context, result.toolCalls(), handler);
        return result;
    }

    private void admit(CallContext context, Request request) {
        if (closed.get()) {
            throw PaganticException.builder(ErrorCode.INFERENCE_ENGINE_CLOSED,
                    "engine for model '" + info.name() + "' is closed").detail("model", info.name()).build();
        }
        context.throwIfDone();
        info.requireSupported(request);
        int prompt = WordText.COUNTER.count(request.messages());
        if (info.contextWindow() > 0 && prompt > info.contextWindow()) {
            throw PaganticException.builder(ErrorCode.INFERENCE_CONTEXT_EXCEEDED,
                            "prompt of " + prompt + " tokens (words) exceeds the context window of "
                                    + info.contextWindow() + " tokens of model '" + info.name() + "'")
                    .detail("model", info.name()).detail("prompt_tokens", prompt)
                    .detail("context_window", info.contextWindow()).build();
        }
    }

    /** Where the first stop string starts in the text; -1 when none occurs. */
    private static int firstStop(String text, List<String> stop) {
        int first = -1;
        for (String string : stop) {
            int at = text.indexOf(string);
            if (at >= 0 && (first < 0 || at < first)) {
                first = at;
            }
        }
        return first;
    }

    private int budget(Request request, int prompt) {
        int maxTokens = request.settings().maxTokens();
        int budget = maxTokens > 0 ? maxTokens : Integer.MAX_VALUE;
        if (info.contextWindow() > 0) {
            budget = Math.min(budget, info.contextWindow() - prompt);
        }
        return budget;
    }

    private TokenUsage usage(int prompt, int reasoning, int output) {
        int generated = reasoning + output;
        return new TokenUsage(prompt, reasoning, output, prompt + generated, info.contextWindow(),
                TIME_PER_TOKEN.multipliedBy(generated));
    }

    private static void stream(CallContext context, WordText text, Consumer<String> sink) {
        for (String piece : text.pieces()) {
            context.throwIfDone();
            sink.accept(piece);
        }
    }

    private static void deliverToolCalls(CallContext context, List<ToolCall> calls, StreamHandler handler) {
        for (ToolCall call : calls) {
            context.throwIfDone();
            handler.onToolCall(call);
        }
    }
}
