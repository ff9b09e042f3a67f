package dev.pagantic.inference;

import dev.pagantic.core.ToolCall;
import java.util.Objects;
import java.util.function.Consumer;

/**
 * Receives output while it is generated. Concatenating the content deltas gives the final {@link Result#content()},
 * and the reasoning deltas give {@link Result#reasoning()}. Callbacks run on the generating thread, in order; a
 * callback that throws aborts the call with its exception. Every method has a no-op default, so implement only what
 * you need, or use the factories.
 */
public interface StreamHandler {

    /** A handler that ignores everything. */
    StreamHandler NOOP = new StreamHandler() {
    };

    /** A piece of the answer. */
    default void onContent(String delta) {
    }

    /** A piece of the reasoning ("thinking") section. */
    default void onReasoning(String delta) {
    }

    /** A complete tool call, as soon as it has been parsed. */
    default void onToolCall(ToolCall call) {
    }

    /** A handler that passes content deltas to the consumer and ignores the rest. */
    static StreamHandler onContent(Consumer<String> consumer) {
        Objects.requireNonNull(consumer, "consumer");
        return new StreamHandler() {
            @Override
            public void onContent(String delta) {
                consumer.accept(delta);
            }
        };
    }

    /**
     * Delivers a finished result to the handler at once: its reasoning, its content, then each tool call. This is
     * what an engine without incremental streaming does, so that callers can always pass a handler.
     *
     * @return the result, for chaining
     */
    static Result deliverWhole(Result result, StreamHandler handler) {
        if (!result.reasoning().isEmpty()) {
            handler.onReasoning(result.reasoning());
        }
        if (!result.content().isEmpty()) {
            handler.onContent(result.content());
        }
        for (ToolCall call : result.toolCalls()) {
            handler.onToolCall(call);
        }
        return result;
    }
}
