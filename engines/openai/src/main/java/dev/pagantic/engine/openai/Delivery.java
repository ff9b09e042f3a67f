package dev.pagantic.engine.openai;

import dev.pagantic.core.CallContext;
import dev.pagantic.core.ToolCall;
import dev.pagantic.inference.Result;
import dev.pagantic.inference.StreamHandler;

/**
 * Hands output to the caller's {@link StreamHandler} and checks the call context after every piece, so that a
 * cancellation or a passing deadline stops the call between deltas. An exception the handler throws is wrapped in a
 * {@link HandlerFailure}, so that the call tells it apart from its own failures and rethrows it unchanged.
 */
final class Delivery {

    private final StreamHandler handler;
    private final CallContext context;

    Delivery(StreamHandler handler, CallContext context) {
        this.handler = handler;
        this.context = context;
    }

    void content(String delta) {
        if (!delta.isEmpty()) {
            deliver(() -> handler.onContent(delta));
        }
    }

    void reasoning(String delta) {
        if (!delta.isEmpty()) {
            deliver(() -> handler.onReasoning(delta));
        }
    }

    void toolCall(ToolCall call) {
        deliver(() -> handler.onToolCall(call));
    }

    /** Runs one handler callback, wrapping what it throws, then checks the context. */
    private void deliver(Runnable callback) {
        try {
            callback.run();
        } catch (RuntimeException failure) {
            throw new HandlerFailure(failure);
        }
        context.throwIfDone();
    }

    /** Delivers a result that arrived whole: reasoning, content, then each tool call. */
    Result whole(Result result) {
        reasoning(result.reasoning());
        content(result.content());
        result.toolCalls().forEach(this::toolCall);
        return result;
    }

    /** An exception thrown by the caller's handler, carried out of the call to be rethrown as it was. */
    static final class HandlerFailure extends RuntimeException {
        private static final long serialVersionUID = 1L;

        HandlerFailure(RuntimeException cause) {
            super(cause);
        }

        /** The handler's own exception. */
        RuntimeException unwrap() {
            return (RuntimeException) getCause();
        }
    }
}
