/**
 * The HTTP adapter: a server ({@link dev.pagantic.adapter.api.ApiServer}, Javalin on Jetty) that serves an
 * {@code Orchestrator} to OpenAI-protocol clients and to clients of pagantic's own request format, and
 * {@link dev.pagantic.adapter.api.ApiServerMain}, which runs it from the command line on a llama.cpp model
 * ({@code --model file.gguf}, repeatable) or a scripted engine ({@code --scripted reply...}, to try the API without a model):
 * the {@code pagantic serve} command of the distribution.
 *
 * <h2>Endpoints</h2>
 * <ul>
 *   <li>{@code POST /v1/chat/completions}: OpenAI's chat completions, so that the official OpenAI SDKs work unchanged
 *       with {@code <server>/v1} as their base URL; whole, or streamed as server-sent events.</li>
 *   <li>{@code POST /v1/embeddings}: OpenAI's embeddings (a string or a batch of strings, {@code float} or
 *       {@code base64}), computed by the {@code TextEmbedder} wired in ({@code ApiServerMain} wires the llama.cpp
 *       engine's); 404 {@code model_not_found} without one. Its {@code usage} is an estimate (a token per four
 *       characters): the embedder does not report the tokens it read.</li>
 *   <li>{@code POST /v1/requests}: the native endpoint. The body is a {@code SystemRequest} in
 *       {@code FacadeJson}'s wire form, the answer the {@code SystemResponse} in the same form, for every mode (chat
 *       with sessions, structured, plan, redundant). With {@code "stream": true} or {@code Accept: text/event-stream}
 *       a chat turn's agent events (seed 004) come first as server-sent events, then a {@code response} event
 *       ({@code RequestEventStream}).</li>
 *   <li>{@code GET /v1/requests/{id}/events}: the request's event timeline from the facade's
 *       {@code RequestTimelines} that the orchestrator writes to (timestamp, {@code offset_ms} since the first event, layer, action, data,
 *       {@code duration_ms}, error, correlation ids): lifecycle transitions, inference, tool, context and vote
 *       events; 404 when nothing is recorded for the id.</li>
 *   <li>{@code GET /v1/models} (and {@code /v1/models/{id}}): OpenAI's model list with the models served and the
 *       default model's aliases. A request naming none (or a blank name) is served by the default model; one naming
 *       another served model by that model, loaded on its first request ({@code ApiServer.Builder.model}: a server
 *       that offers several models starts as fast as with one and holds only those asked for; one that cannot load
 *       is 400 {@code model_not_available} with the reason, kept for later requests); one naming a model not served
 *       is 404 {@code model_not_found}.</li>
 *   <li>{@code GET /health}: {@code {"status": "ok", "queue": {...}}}, or 503 {@code draining} during a graceful
 *       shutdown; {@code GET /metrics}: the queue in Prometheus' text format. Both open without a token.</li>
 *   <li>{@code GET /}: the playground page, a chat with the served model through the native endpoint's event
 *       stream that draws each agent event in the request's timeline as it arrives.</li>
 * </ul>
 * Every inference response carries {@code X-Request-Id} (the client may choose it by sending that header; when a
 * request with that id is in flight or has recorded events, the request gets {@code <id>.<8 hex digits>} instead, so
 * that two requests never share a timeline; the header says which); a W3C
 * {@code traceparent} header's trace id becomes the request's trace id, so its events join the caller's trace.
 *
 * <h2>The OpenAI mapping</h2>
 * {@code ChatCompletionRequestMapper} maps the request to a {@code SystemRequest}, and
 * {@code ChatCompletionResponseMapper} the {@code SystemResponse} back; nothing else knows
 * OpenAI's vocabulary.
 * <ul>
 *   <li>OpenAI requests are stateless: the messages are the whole conversation (no session). {@code system} and
 *       {@code developer}, {@code user}, {@code assistant} with {@code tool_calls}, and {@code tool} messages map to
 *       the facade's messages; content is a string or text parts.</li>
 *   <li>{@code tools} become caller tools: when the model calls one, the answer is an assistant message with
 *       {@code tool_calls} and {@code finish_reason: "tool_calls"}, and the client's next request carries the
 *       results. The server executes nothing on the client's behalf (tools registered in the orchestrator still run
 *       server-side, invisibly to the client).</li>
 *   <li>{@code response_format: json_schema} is structured mode with that schema: the content is the validated (and
 *       if need be repaired) JSON; streamed, it arrives as one delta at the end. {@code json_object} is refused (no
 *       schema to validate against), as are tools together with a schema.</li>
 *   <li>{@code temperature}, {@code top_p}, {@code max_completion_tokens}/{@code max_tokens}, {@code seed} and
 *       {@code stop} are the request's inference settings; {@code tool_choice}, {@code parallel_tool_calls} and the
 *       penalties pass to the engine as options; ranges are OpenAI's. {@code n} choices are runs of the request one
 *       after the other on the slot it holds (so later runs reuse the engine's prompt cache), choice {@code i} with
 *       seed {@code seed + i}. {@code logit_bias} is the engine option of that name; {@code logprobs} and
 *       {@code top_logprobs} are refused (400 {@code unsupported_parameter}) rather than silently ignored: the llama.cpp
 *       binding aborts the JVM when asked for token probabilities.</li>
 *   <li>{@code stream: true} sends {@code chat.completion.chunk} events (role, content deltas, tool calls, the finish
 *       reason, with {@code stream_options.include_usage} a usage chunk) and {@code data: [DONE]}; tool calls as
 *       OpenAI streams them (index, id and name first, then the arguments in pieces). A client that
 *       disconnects mid-stream cancels its request: the failed write cancels the request's {@code Cancellation},
 *       and the facade ends it with {@code CANCELLED_SIGNAL} at the next token. (A whole, non-streamed request
 *       writes nothing until it is done, so its client's disconnect is not noticed; bound it with a timeout.)</li>
 *   <li>The response has {@code id} {@code chatcmpl-<request id>}, the {@code model} the client named, and
 *       {@code usage}.</li>
 * </ul>
 *
 * <h2>Status codes and errors</h2>
 * A failed request's status follows its error code's category ({@code HttpStatuses}):
 * ConfigurationFailure 400; ToolFailure, ConstraintFailure and ValidationFailure 422; InferenceFailure 502, except
 * {@code INFERENCE_CONTEXT_EXCEEDED} 400 and {@code INFERENCE_SATURATED} 503; OrchestrationFailure 500, except
 * {@code ORCHESTRATION_CONCURRENT_USE} 409; Cancellation 499, except {@code CANCELLED_TIMEOUT} 408. The adapter's own
 * refusals: 401 (token), 413 (body size), 400 (malformed, or a message limit), 404 (unknown path or model), 405
 * (wrong method), 415 (content type), 429 (queue full or wait timed out), 503 (shutting down). The OpenAI endpoints
 * answer errors as OpenAI does ({@code OpenAiError}): {@code {"error": {"message", "type", "param", "code",
 * "pagantic_code"}}}, with OpenAI's type and code for the failure, the request field at fault as {@code param}, and
 * pagantic's code in the extension field; unknown paths and wrong methods get the same document. Bodies must be JSON
 * ({@code Content-Type: application/json}, or none) in valid UTF-8; messages name the request's fields, never a Java
 * class. The native endpoints answer with {@code FacadeJson}'s error object
 * ({@code code, category, retryable, message, details}), inside the response document when the facade produced it.
 * No response ever contains a stack trace; a failure of the server itself is logged and answered with a generic 500.
 *
 * <h2>Limits, authentication, concurrency, shutdown</h2>
 * <ul>
 *   <li>{@link dev.pagantic.adapter.api.ApiLimits}: the largest body (413, checked against Content-Length before
 *       reading and while reading), the most messages and the longest message (400), on both endpoints.</li>
 *   <li>With a bearer token configured, every {@code /v1} request needs {@code Authorization: Bearer <token>}
 *       (compared in constant time); otherwise 401 with {@code WWW-Authenticate: Bearer}.</li>
 *   <li>Slow clients (slowloris): a connection silent for {@code idleTimeout} (30 s; {@code --idle-timeout}) is
 *       closed, whether it is still sending headers or body, and a body arriving slower than
 *       {@code minRequestDataRate} (1024 bytes/s; {@code --min-request-rate}, 0 for none) is refused with 408. The rate
 *       is measured by {@code BodyReader} over the time the server waited for bytes not yet there (the first second
 *       free), not by Jetty's own check, which also counts the time a busy server took to come back for bytes that had
 *       long arrived and so refused fast clients under load. The body
 *       is read before the request queues for a slot, so a slow client never makes others wait or get 429. A body
 *       that cannot be read is 408 with a generic message; Jetty's and Jackson's exception texts go to the debug log
 *       only.</li>
 *   <li>At most {@code maxConcurrentRequests} inference requests run at once; the next ones wait in a bounded FIFO
 *       queue ({@code RequestQueue}: {@code queueSize}, 64 by default, for up to {@code queueTimeout}, 5 minutes),
 *       as llama-server defers requests over its slots. Only a request that finds the queue full or waits past the
 *       timeout is answered 429 with {@code Retry-After}. A queued request whose client disconnects leaves the
 *       queue ({@code ClientConnection} probes the connection while it waits). Requests are read, decoded and
 *       mapped before they queue, so a malformed one is answered at once.</li>
 *   <li>{@code close()} is graceful: new requests get 503, requests in flight finish (up to the drain timeout, then
 *       they are cancelled), then Jetty stops. Responses are written and completed inside the request's permit, so
 *       a request the drain saw finish has its whole response on the wire.</li>
 * </ul>
 *
 * <h2>How the server is built</h2>
 * {@code ApiServer} is the public face (its builder, {@code start}, {@code close}) and the route table; each concern
 * behind it is a package-private class with one reason to change, all meeting at the {@code RequestQueue}:
 * <ul>
 *   <li>Admission ({@code Admission}): an inference request's body is read and decoded ({@code RequestBodies}:
 *       content type, size, rate, UTF-8, JSON) and mapped by its route before it queues; then it waits for a slot
 *       (429 with {@code Retry-After} when the queue is full or the wait times out; a disconnected client leaves the
 *       queue; 503 while draining), runs, and frees the slot. A route hands it two parts: what runs on the slot, and
 *       what releases what the route reserved (the request id, {@code RequestIds}) whether it ran or not.</li>
 *   <li>One route class per endpoint family: {@code ChatCompletionsRoute} (chat completions, {@code n} choices,
 *       streamed through {@code ChatStream}'s server-sent events), {@code EmbeddingsRoute}, {@code NativeRoutes}
 *       ({@code /v1/requests} and its events), {@code ServedModels} (which model a request is answered by, loading
 *       the others on first use, and the model list), {@code OperationsRoutes} (health, metrics, the playground, 404 and 405), and
 *       {@code BearerAuthentication} in front of {@code /v1}.</li>
 *   <li>{@code Inference} runs admitted work on the answering model's orchestrator with the default timeout, under a
 *       {@code Cancellation} that a shutdown whose drain timed out cancels. {@code Responses} writes every answer
 *       (whole JSON, completed at once) and errors in the endpoint's {@code Dialect}: OpenAI's document or the
 *       facade's.</li>
 * </ul>
 * The server's classes log under one logger name, {@code dev.pagantic.adapter.api.ApiServer}.
 *
 * <h2>Nullness</h2>
 * The package is {@code @NullMarked}: nothing is null unless declared {@code @Nullable} (an absent bearer token,
 * embedder or event log; an OpenAI error without a code or parameter).
 *
 * <h2>The adapter boundary</h2>
 * Like every adapter this is a thin shell. It maps HTTP onto {@code SystemRequest} and {@code SystemResponse} and
 * builds (wires) the engine, the event log and the orchestrator; it contains no prompt construction, no tool
 * execution and no JSON Schema validation: schemas are read into the core's {@code Schema} and enforced behind the
 * facade. The architecture rules let an adapter call only builders and {@code close()} of band and engine
 * components, so timelines come from the facade's {@code RequestTimelines}, never from the observe layer.
 */
@NullMarked
package dev.pagantic.adapter.api;

import org.jspecify.annotations.NullMarked;
