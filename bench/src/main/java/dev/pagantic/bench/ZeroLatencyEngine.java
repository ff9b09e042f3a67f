package dev.pagantic.bench;

import dev.pagantic.core.CallContext;
import dev.pagantic.core.TokenUsage;
import dev.pagantic.inference.Capability;
import dev.pagantic.inference.Engine;
import dev.pagantic.inference.ModelInfo;
import dev.pagantic.inference.Request;
import dev.pagantic.inference.Result;
import dev.pagantic.inference.StreamHandler;
import java.util.concurrent.atomic.AtomicLong;

/**
 * A chat engine without latency for the scaling benchmarks: every call answers a fixed sentence followed by a call
 * number, so that each reply is a distinct string (as a model's replies are, which matters when a benchmark counts
 * the memory that sessions retain), and when streamed delivers it word by word, as the testkit's ScriptedEngine does.
 * Unlike ScriptedEngine it never runs out of replies and records nothing, so a load test can run it indefinitely
 * without it growing.
 */
public final class ZeroLatencyEngine implements Engine {

    /** The reply before its call number: 12 words, 63 characters. */
    static final String REPLY = "Sure. Here is a short answer to your question, call number";

    private static final ModelInfo INFO = ModelInfo.of("zero-latency", 1 << 20, Capability.STREAMING);

    private final AtomicLong calls = new AtomicLong();

    @Override
    public Result infer(CallContext context, Request request) {
        context.throwIfDone();
        return Result.of(REPLY + " " + calls.incrementAndGet() + ".", usage(request));
    }

    @Override
    public Result infer(CallContext context, Request request, StreamHandler handler) {
        Result result = infer(context, request);
        String content = result.content();
        int start = 0;
        // One delta per word, a space leading every word but the first, checking for cancellation before each.
        for (int space = content.indexOf(' ', 1); start < content.length(); space = content.indexOf(' ', start + 1)) {
            int end = space < 0 ? content.length() : space;
            context.throwIfDone();
            handler.onContent(content.substring(start, end));
            start = end;
        }
        return result;
    }

    private static TokenUsage usage(Request request) {
        return TokenUsage.of(8 * request.messages().size(), 13);
    }

    /** The calls answered so far. */
    public long callCount() {
        return calls.get();
    }

    @Override
    public ModelInfo modelInfo() {
        return INFO;
    }
}
