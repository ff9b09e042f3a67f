package dev.pagantic.testkit;

import dev.pagantic.core.CallContext;
import dev.pagantic.core.ErrorCode;
import dev.pagantic.core.PaganticException;
import dev.pagantic.inference.Engine;
import dev.pagantic.inference.ModelInfo;
import dev.pagantic.inference.Request;
import dev.pagantic.inference.Result;
import dev.pagantic.inference.StreamHandler;
import dev.pagantic.inference.TokenCounter;
import java.util.Objects;
import java.util.concurrent.atomic.AtomicBoolean;

/**
 * What the engines that wrap another one share: the delegate's model info and token counter, the non-streaming call
 * as a streaming one to nothing, and a close that closes the delegate once, after which calls are refused.
 */
abstract class DecoratingEngine implements Engine {

    /** The wrapped engine. */
    final Engine delegate;
    private final AtomicBoolean closed = new AtomicBoolean();

    DecoratingEngine(Engine delegate) {
        this.delegate = Objects.requireNonNull(delegate, "delegate");
    }

    /** Runs the call streaming to nothing. */
    @Override
    public Result infer(CallContext context, Request request) {
        return infer(context, request, StreamHandler.NOOP);
    }

    /** The delegate's model info. */
    @Override
    public final ModelInfo modelInfo() {
        return delegate.modelInfo();
    }

    /** The delegate's token counter. */
    @Override
    public final TokenCounter tokenCounter() {
        return delegate.tokenCounter();
    }

    /** Closes the delegate; later calls fail with {@code INFERENCE_ENGINE_CLOSED}. Idempotent. */
    @Override
    public final void close() {
        if (closed.compareAndSet(false, true)) {
            delegate.close();
        }
    }

    /** Checks the call's arguments and that the engine is open ({@code INFERENCE_ENGINE_CLOSED} otherwise). */
    final void requireOpen(CallContext context, Request request, StreamHandler handler) {
        Objects.requireNonNull(context, "context");
        Objects.requireNonNull(request, "request");
        Objects.requireNonNull(handler, "handler");
        if (closed.get()) {
            throw PaganticException.builder(ErrorCode.INFERENCE_ENGINE_CLOSED,
                    "engine for model '" + modelInfo().name() + "' is closed").detail("model", modelInfo().name())
                    .build();
        }
    }
}
