/**
 * An {@link dev.pagantic.inference.Engine} that talks to an OpenAI-compatible chat completions endpoint over HTTP:
 * {@link dev.pagantic.engine.openai.OpenAiCompatibleEngine}, for llama.cpp's llama-server, vLLM, Ollama, LM Studio,
 * hosted APIs and pagantic's own HTTP adapter. It is also an {@link dev.pagantic.inference.EmbeddingModel} against the
 * same server's {@code /v1/embeddings}.
 *
 * <pre>{@code
 * try (OpenAiCompatibleEngine engine = OpenAiCompatibleEngine.builder()
 *         .baseUrl("http://localhost:8080")              // POSTs to http://localhost:8080/v1/chat/completions
 *         .modelName("qwen2.5-1.5b-instruct")
 *         .constraintMode(ConstraintMode.GRAMMAR)        // what the server enforces: GRAMMAR, JSON_SCHEMA, PROMPT_ONLY
 *         .build()) {
 *     Result result = engine.infer(ctx, request);
 * }
 * }</pre>
 *
 * <h2>Design decisions</h2>
 * <ul>
 *   <li><b>Declared capabilities match the server.</b> A server that does not know a field ignores it and generates
 *       unconstrained text, so the {@link dev.pagantic.engine.openai.ConstraintMode} says what the server enforces:
 *       {@code GRAMMAR} (llama-server's {@code grammar} field, and {@code response_format} for schemas),
 *       {@code JSON_SCHEMA} ({@code response_format} only) or {@code PROMPT_ONLY} (neither). The engine declares
 *       exactly that, and a request needing more is refused with {@code CONFIG_UNSUPPORTED_CAPABILITY} before
 *       anything is sent; orchestration then falls back to prompting, repair and validation.</li>
 *   <li><b>Cancellation closes the connection.</b> The JDK's {@link java.net.http.HttpClient} reads the answer
 *       through an input stream; cancelling the call context closes that stream (or cancels the pending
 *       {@code sendAsync}) from the cancelling thread, which fails a blocked read at once and drops the connection,
 *       so the server stops generating. Server-sent events are read through a small byte buffer of the engine's own,
 *       not a {@code BufferedReader}, whose lock would make the cancelling thread wait for the blocked read.</li>
 *   <li><b>One clock for the whole call.</b> The earlier of the context's deadline ({@code CANCELLED_TIMEOUT}) and
 *       the engine's request timeout ({@code INFERENCE_ENGINE_ERROR}: the server is slow or hung, a retry may help)
 *       aborts the exchange by a timer, whether it is waiting for headers or in the middle of a stream; the context
 *       is also checked after every delta, so a deadline on an injected clock is honoured too.</li>
 *   <li><b>Streams are faithful.</b> Content and reasoning deltas reach the handler as they arrive; tool calls are
 *       assembled from their fragments by index and delivered complete at the end. The result is built from exactly
 *       what was delivered. A stream that ends without a finish reason or {@code [DONE]} is a dropped connection, not
 *       a short answer.</li>
 *   <li><b>Lenient where servers differ harmlessly, strict where the answer would be wrong.</b> Reasoning as
 *       {@code reasoning_content} or {@code reasoning}, content as text parts, tool calls without ids, arguments as an
 *       object, a server that ignores {@code stream: true}, missing usage (estimated) are all accepted; missing
 *       choices or tool arguments that are not a JSON object are {@code INFERENCE_MALFORMED_RESPONSE}.</li>
 *   <li><b>One exchange, two endpoints.</b> Chat and embeddings share the exchange under the call context
 *       ({@code HttpCall}: cancellation, the one clock, closing, the error mapping); only what is sent and how the
 *       answer is read differ. Embeddings are asked for as base64, a quarter of the JSON numbers' size, and read as
 *       float arrays too, for a server that ignores {@code encoding_format}; a batch is one request.</li>
 *   <li><b>Secrets stay out of errors.</b> The API key is never put in a message or a detail, and is scrubbed from
 *       server messages that echo it; credentials in the base URL are refused at build time.</li>
 * </ul>
 *
 * <h2>Contract</h2>
 * Depends on core and inference, the JDK's HTTP client, Jackson and SLF4J; never on orchestrate, the band, an adapter
 * or another engine. HTTP and protocol failures map to codes: refused connections, I/O failures, dropped streams and
 * HTTP 5xx to {@code INFERENCE_ENGINE_ERROR}, 404 to {@code INFERENCE_MODEL_UNAVAILABLE}, a 4xx about the context
 * length to {@code INFERENCE_CONTEXT_EXCEEDED}, 429 to {@code INFERENCE_SATURATED} (with {@code retry_after_ms}),
 * other 4xx to {@code CONFIG_INVALID}, unparseable bodies to {@code INFERENCE_MALFORMED_RESPONSE}; every failure
 * carries {@code endpoint} and {@code model}, and {@code status} when the server answered. The engine passes the
 * Engine contract kit of {@code pagantic-testkit} against a scripted stub server, in {@code GRAMMAR} mode (every
 * capability declared) and in {@code PROMPT_ONLY} mode (so that the refusal of undeclared capabilities is checked).
 */
@NullMarked
package dev.pagantic.engine.openai;

import org.jspecify.annotations.NullMarked;
