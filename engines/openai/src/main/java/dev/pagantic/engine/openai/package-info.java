/**
 * An {@link dev.pagantic.inference.Engine} that talks to an OpenAI-compatible chat completions endpoint over HTTP:
 * llama.cpp's llama-server, vLLM, Ollama or a hosted API (planned; not yet implemented).
 *
 * <h2>What it will provide</h2>
 * <ul>
 *   <li>Mapping {@link dev.pagantic.inference.Request} to the chat completions wire format (messages, tools,
 *       sampling parameters, response format or grammar where the server supports it) and the response back to a
 *       {@link dev.pagantic.inference.Result}, including tool calls and usage.</li>
 *   <li>Streaming over server-sent events to a {@link dev.pagantic.inference.StreamHandler}; cancelling the
 *       {@link dev.pagantic.core.CallContext} aborts the HTTP exchange.</li>
 *   <li>Declared {@link dev.pagantic.inference.Capability}s configured to match the server, so that a grammar is
 *       never sent to a server that would ignore it.</li>
 * </ul>
 *
 * <h2>Contract</h2>
 * Depends on core and inference (plus its HTTP and JSON libraries), never on orchestrate or the band. HTTP and
 * protocol failures map to codes: server errors and refused connections to {@code INFERENCE_ENGINE_ERROR}, unknown
 * models to {@code INFERENCE_MODEL_UNAVAILABLE}, context overflows to {@code INFERENCE_CONTEXT_EXCEEDED},
 * unparseable bodies to {@code INFERENCE_MALFORMED_RESPONSE}, rate limiting to {@code INFERENCE_SATURATED}. The
 * engine passes the Engine contract kit of {@code pagantic-testkit}.
 */
package dev.pagantic.engine.openai;
