/**
 * The terminal chat adapter: an interactive session with live token streaming and display of tool calls as they
 * happen (planned; not yet implemented).
 *
 * <p>Like every adapter it is a thin shell: it turns keyboard input into a {@code SystemRequest} for the facade,
 * renders tokens and tool calls as they stream in, cancels the running request through a
 * {@link dev.pagantic.core.Cancellation} when the user interrupts, and formats the {@code SystemResponse}. It
 * contains no prompt construction, no tool execution and no JSON validation.
 *
 * <p>Dependency rule: adapters import only orchestrate's facade ({@code dev.pagantic.orchestrate.facade}), core, and
 * the builders of the engines and band components they wire up.
 */
package dev.pagantic.adapter.tui;
