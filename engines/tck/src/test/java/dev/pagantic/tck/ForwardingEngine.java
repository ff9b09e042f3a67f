package dev.pagantic.tck;

import dev.pagantic.core.CallContext;
import dev.pagantic.inference.Engine;
import dev.pagantic.inference.ModelInfo;
import dev.pagantic.inference.Request;
import dev.pagantic.inference.Result;
import dev.pagantic.inference.StreamHandler;
import dev.pagantic.inference.TokenCounter;

/** Passes everything to a delegate; the broken engines override the one thing each gets wrong. */
class ForwardingEngine implements Engine {

    final Engine delegate;

    ForwardingEngine(Engine delegate) {
        this.delegate = delegate;
    }

    @Override
    public Result infer(CallContext context, Request request) {
        return delegate.infer(context, request);
    }

    @Override
    public Result infer(CallContext context, Request request, StreamHandler handler) {
        return delegate.infer(context, request, handler);
    }

    @Override
    public ModelInfo modelInfo() {
        return delegate.modelInfo();
    }

    @Override
    public TokenCounter tokenCounter() {
        return delegate.tokenCounter();
    }

    @Override
    public void close() {
        delegate.close();
    }
}
