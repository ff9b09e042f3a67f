/**
 * The command-line adapter: one-shot prompts and interactive chat over the orchestration facade (planned; not yet
 * implemented).
 *
 * <p>An adapter is a thin shell. It translates external input (arguments, standard input) into a
 * {@code SystemRequest}, applies a timeout through the {@link dev.pagantic.core.CallContext}, hands the request to the
 * facade and formats the {@code SystemResponse} (or its error code) for the terminal. It contains no prompt
 * construction, no tool execution and no JSON validation: all of that lives in the layers below.
 *
 * <p>Dependency rule: adapters import only orchestrate's facade ({@code dev.pagantic.orchestrate.facade}), core, and
 * the builders of the engines and band components they wire up. As a program it may write to the console and may
 * ship an SLF4J binding.
 */
package dev.pagantic.adapter.cli;
