package dev.pagantic.orchestrate.loop;

import dev.pagantic.core.Message;
import dev.pagantic.inference.Engine;
import dev.pagantic.inference.InferenceSettings;
import dev.pagantic.inference.StreamHandler;
import dev.pagantic.observe.EventLog;
import dev.pagantic.orchestrate.ports.ContextPlacement;
import dev.pagantic.orchestrate.ports.ContextProvider;
import dev.pagantic.orchestrate.spi.Interceptor;
import dev.pagantic.orchestrate.spi.Observer;
import dev.pagantic.tool.ToolExecutor;
import dev.pagantic.tool.ToolRegistry;
import java.util.Objects;
import java.util.Optional;

/**
 * The settings every loop shares: what the {@link LoopBuilder} of each pattern (and the orchestrator's builder)
 * collects, validated once. An orchestrator builds one and hands it to the loops it creates per request, so a setting
 * is written in one place and every loop reads it the same way.
 *
 * @param engine            the inference backend
 * @param tools             the tools the model may call; empty for none
 * @param toolExecutor      the executor that runs them; present exactly when there are tools
 * @param systemMessage     the system message of new conversations; empty for none
 * @param inference         the inference settings of every call (token limit, sampling, engine options); a request's
 *                          or a step's settings are laid over them
 * @param maxToolIterations the most tool rounds per turn
 * @param stream            receives every inference's output as it is generated; {@link StreamHandler#NOOP} for none
 * @param eventLog          where every event goes
 * @param contextProvider   retrieves context for each turn; empty for none
 * @param contextPlacement  where the context goes; empty for the specification's placement, just before the turn's
 *                          user message
 * @param interceptor       wraps every inference, tool call and plan step (the observer outermost, when there is one)
 * @param observer          sees requests and agent turns, and is part of the interceptor and of the event log;
 *                          {@link Observer#NONE} for none
 */
public record LoopSettings(Engine engine, Optional<ToolRegistry> tools, Optional<ToolExecutor> toolExecutor,
                           Optional<Message> systemMessage, InferenceSettings inference, int maxToolIterations,
                           StreamHandler stream, EventLog eventLog, Optional<ContextProvider> contextProvider,
                           Optional<ContextPlacement> contextPlacement, Interceptor interceptor,
                           Observer observer) {

    /** The default most tokens per inference: the specification's 2048. */
    public static final int DEFAULT_MAX_TOKENS = 2048;
    /** The default most tool rounds per turn: the specification's 20. */
    public static final int DEFAULT_MAX_TOOL_ITERATIONS = 20;

    public LoopSettings {
        Objects.requireNonNull(engine, "engine");
        Objects.requireNonNull(tools, "tools");
        Objects.requireNonNull(toolExecutor, "toolExecutor");
        if (tools.isPresent() != toolExecutor.isPresent()) {
            throw new IllegalArgumentException("a tool executor is present exactly when tools are");
        }
        Objects.requireNonNull(systemMessage, "systemMessage");
        Objects.requireNonNull(inference, "inference");
        Objects.requireNonNull(stream, "stream");
        Objects.requireNonNull(eventLog, "eventLog");
        Objects.requireNonNull(contextProvider, "contextProvider");
        Objects.requireNonNull(contextPlacement, "contextPlacement");
        Objects.requireNonNull(interceptor, "interceptor");
        Objects.requireNonNull(observer, "observer");
    }

    /**
     * An engine alone: no tools, no system message, the engine's defaults for every inference setting, no stream,
     * no events, no interceptor.
     */
    public static LoopSettings of(Engine engine) {
        return new LoopSettings(engine, Optional.empty(), Optional.empty(), Optional.empty(),
                InferenceSettings.DEFAULTS,
                DEFAULT_MAX_TOOL_ITERATIONS, StreamHandler.NOOP, EventLog.noOp(), Optional.empty(), Optional.empty(),
                Interceptor.NONE, Observer.NONE);
    }

    /** These settings with other inference settings laid over the configured ones (a request's, a step's). */
    public LoopSettings overriddenWith(InferenceSettings specific) {
        InferenceSettings layered = inference.overrideWith(specific);
        return layered.equals(inference) ? this : new LoopSettings(engine, tools, toolExecutor, systemMessage, layered,
                maxToolIterations, stream, eventLog, contextProvider, contextPlacement, interceptor, observer);
    }

    /** These settings with other tools (a request's whitelisted view), or none. */
    public LoopSettings withTools(Optional<ToolRegistry> registry) {
        return new LoopSettings(engine, registry, registry.isPresent() ? toolExecutor : Optional.empty(),
                systemMessage, inference, maxToolIterations, stream, eventLog, contextProvider, contextPlacement,
                interceptor, observer);
    }

    /** These settings without a context provider (for an inner loop whose context was placed already). */
    public LoopSettings withoutContext() {
        return new LoopSettings(engine, tools, toolExecutor, systemMessage, inference, maxToolIterations, stream,
                eventLog, Optional.empty(), contextPlacement, interceptor, observer);
    }

    /** These settings with another system message, or none. */
    public LoopSettings withSystemMessage(Optional<Message> message) {
        return new LoopSettings(engine, tools, toolExecutor, message, inference, maxToolIterations, stream, eventLog,
                contextProvider, contextPlacement, interceptor, observer);
    }
}
