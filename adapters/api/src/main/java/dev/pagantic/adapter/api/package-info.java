/**
 * The HTTP adapter (planned; not yet implemented): an OpenAI-compatible chat completions endpoint, and a native
 * endpoint that accepts a {@code SystemRequest} and returns a {@code SystemResponse} as JSON.
 *
 * <p>Like every adapter it is a thin shell: it maps HTTP requests (including trace headers, which become the
 * request's correlation ids) onto the facade's contracts, maps a {@code SystemError}'s code and category onto HTTP
 * status codes, and cancels the request when the client disconnects ({@code CANCELLED_SIGNAL}). It contains no prompt
 * construction, no tool execution and no JSON Schema validation of model output.
 *
 * <p>Dependency rule: adapters import only orchestrate's facade ({@code dev.pagantic.orchestrate.facade}), core, and
 * the builders of the engines and band components they wire up.
 */
package dev.pagantic.adapter.api;
