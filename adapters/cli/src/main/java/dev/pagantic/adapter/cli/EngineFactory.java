package dev.pagantic.adapter.cli;

import dev.pagantic.inference.Engine;

/**
 * Opens the engine that the engine options select. The command's own selection is {@link EngineSelection}; tests
 * substitute engines the command line cannot describe (one that fails, one that is slow).
 */
@FunctionalInterface
interface EngineFactory {

    /**
     * Opens the engine.
     *
     * @param options    the engine options, from before and after the subcommand name
     * @param invocation the streams (a model load reports its progress on stderr)
     * @return the engine, which the command closes
     * @throws dev.pagantic.core.PaganticException {@code CONFIG_*} for options that select no usable engine,
     *                                             {@code INFERENCE_MODEL_UNAVAILABLE} for a model that cannot be loaded
     */
    Engine open(EngineOptions options, Invocation invocation);
}
