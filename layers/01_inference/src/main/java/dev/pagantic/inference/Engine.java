package dev.pagantic.inference;

import dev.pagantic.core.CallContext;

/**
 * The inference SPI: the one abstraction between pagantic and any model runtime (in-process llama.cpp, an
 * OpenAI-compatible server, a fake for tests). Everything above it works with {@code Engine} only.
 *
 * <h2>Contract</h2>
 * Every implementation passes the Engine contract kit of {@code pagantic-engine-tck}. In short:
 * <ul>
 *   <li>Failures are {@link dev.pagantic.core.PaganticException}s with an {@code INFERENCE_*} code (or
 *       {@code CANCELLED_*}, {@code CONFIG_*}); backend exceptions are wrapped, never leaked raw.</li>
 *   <li>A cancelled or expired {@link CallContext} fails the call with {@code CANCELLED_SIGNAL} /
 *       {@code CANCELLED_TIMEOUT}: checked before starting and, while generating, between tokens.</li>
 *   <li>{@code Request.settings().maxTokens()} bounds the generated tokens; {@link Result#usage()} reports what was used.</li>
 *   <li>A request for a capability the engine does not declare in {@link ModelInfo#capabilities()} (grammar, schema,
 *       tools) fails with {@code CONFIG_UNSUPPORTED_CAPABILITY} rather than being silently ignored.</li>
 *   <li>Implementations are thread-safe; an engine may serialise calls internally.</li>
 * </ul>
 */
public interface Engine extends AutoCloseable {

    /** Runs one inference call. */
    Result infer(CallContext context, Request request);

    /**
     * Runs one inference call and reports output to the handler as it is generated. Engines that declare
     * {@link Capability#STREAMING} override this; the default runs {@link #infer(CallContext, Request)} and then
     * delivers the whole reasoning, content and each tool call once, so that callers can always pass a handler.
     */
    default Result infer(CallContext context, Request request, StreamHandler handler) {
        return StreamHandler.deliverWhole(infer(context, request), handler);
    }

    /** Runs one inference call in a {@linkplain CallContext#background() background context}. */
    default Result infer(Request request) {
        return infer(CallContext.background(), request);
    }

    /** The served model and what the engine supports. */
    ModelInfo modelInfo();

    /** Counts tokens as this engine's model does, or estimates them (see {@link Capability#TOKEN_COUNTING}). */
    default TokenCounter tokenCounter() {
        return TokenCounter.estimate();
    }

    /**
     * Releases the engine's resources (a loaded model, connections). Later calls fail with
     * {@code INFERENCE_ENGINE_CLOSED}. Closing twice is harmless. The default does nothing.
     */
    @Override
    default void close() {
    }
}
