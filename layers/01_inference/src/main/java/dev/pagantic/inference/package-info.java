/**
 * Layer 01, the inference SPI: the one abstraction between pagantic and any model runtime. It depends on core only.
 *
 * <p>LLM output is probabilistic; pagantic contains that inside {@link dev.pagantic.inference.Engine#infer}. Everything
 * above this layer (orchestration, adapters) works with {@code Engine} and never sees a vendor type, so a model
 * runtime can be swapped (in-process llama.cpp, an OpenAI-compatible server, a scripted fake in tests) without
 * touching orchestration code.
 *
 * <h2>Domain concepts</h2>
 * <ul>
 *   <li>{@link dev.pagantic.inference.Request}: one call: the messages, the tools the model may call, an optional
 *       {@link dev.pagantic.core.Schema} and GBNF grammar for the output, and sampling parameters (unset means the
 *       engine's default; temperature 0 means greedy).</li>
 *   <li>{@link dev.pagantic.inference.Result}: the content, separate reasoning text, the tool calls, the messages the
 *       call adds to the conversation, the {@link dev.pagantic.core.TokenUsage} and the
 *       {@link dev.pagantic.core.FinishReason}.</li>
 *   <li>{@link dev.pagantic.inference.StreamHandler}: receives content deltas, reasoning deltas and complete tool
 *       calls while the model generates; the concatenated content deltas equal the final content.</li>
 *   <li>{@link dev.pagantic.inference.ModelInfo} and {@link dev.pagantic.inference.Capability}: what the engine serves
 *       and supports (grammar, schema, tools, streaming, embeddings, exact token counting).</li>
 *   <li>{@link dev.pagantic.inference.TokenCounter}: counts tokens to fit a prompt into the context window, exactly
 *       where the engine has a tokenizer, by estimate otherwise.</li>
 * </ul>
 *
 * <h2>The engine contract</h2>
 * Failures are {@link dev.pagantic.core.PaganticException}s with an {@code INFERENCE_*}, {@code CANCELLED_*} or
 * {@code CONFIG_*} code, never raw backend exceptions; a cancelled or expired {@link dev.pagantic.core.CallContext}
 * stops the call before it starts and between tokens; a request that needs an undeclared capability fails with
 * {@code CONFIG_UNSUPPORTED_CAPABILITY} instead of being silently ignored; engines are thread-safe and
 * {@link java.lang.AutoCloseable}. The contract test kit in {@code pagantic-engine-tck} checks all of this for any
 * implementation (see {@code docs/engine-contract.md}).
 *
 * <h2>Design decisions</h2>
 * <ul>
 *   <li>Streaming is an overload of {@code infer}, not a separate interface: the default implementation delivers the
 *       whole result once, so callers can always pass a handler whatever the engine.</li>
 *   <li>Capabilities are declared, not discovered by trial: orchestration derives a grammar from a schema only for an
 *       engine that honours grammars.</li>
 *   <li>An engine is an object the application creates, passes in and closes; a loaded native model is never held in
 *       static state.</li>
 * </ul>
 *
 * <p>The GBNF grammar language that {@link dev.pagantic.inference.Request#grammar()} carries lives in the
 * subpackage {@link dev.pagantic.inference.grammar}: parsing and checking grammars, deciding whether an output
 * conforms, and deriving a grammar from a {@link dev.pagantic.core.Schema}. It has this one owner, so that engines,
 * the constraint layer and orchestration all use the same grammar code.
 */
@NullMarked
package dev.pagantic.inference;

import org.jspecify.annotations.NullMarked;
