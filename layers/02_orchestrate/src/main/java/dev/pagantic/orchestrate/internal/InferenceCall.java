package dev.pagantic.orchestrate.internal;

import dev.pagantic.core.CallContext;
import dev.pagantic.core.ErrorCode;
import dev.pagantic.core.PaganticException;
import dev.pagantic.inference.Engine;
import dev.pagantic.inference.ModelInfo;
import dev.pagantic.inference.Request;
import dev.pagantic.inference.Result;
import dev.pagantic.inference.StreamHandler;
import dev.pagantic.observe.EventContext;
import dev.pagantic.observe.EventLog;
import dev.pagantic.observe.InferenceEndEvent;
import dev.pagantic.observe.InferenceStartEvent;
import dev.pagantic.orchestrate.spi.Interceptor;
import dev.pagantic.orchestrate.spi.Invocation;
import dev.pagantic.orchestrate.spi.InvocationKind;
import java.time.Duration;
import java.time.Instant;
import java.util.Objects;

/**
 * The one path of every inference in orchestrate: every loop, planner, replanner, multi-model mode and plan step calls
 * an engine through here and nowhere else (an architecture rule checks it). A call
 * <ol>
 *   <li>checks the call context (a cancelled or expired call never reaches the engine);</li>
 *   <li>records {@code inference_start} (model, message and tool counts, whether a schema and a grammar are present,
 *       the temperature: null when the engine's default applies);</li>
 *   <li>runs the engine through the {@link Interceptor} as an {@link InvocationKind#INFERENCE} invocation named after
 *       the engine, streamed to the handler unless it is {@link StreamHandler#NOOP};</li>
 *   <li>records {@code inference_end} with the duration, the tokens, the {@link dev.pagantic.core.FinishReason} of the
 *       result (the very value the caller gets) and the tool call count, or with finish reason {@code error} and the
 *       failure.</li>
 * </ol>
 * Both events carry the call context's correlation ids, the session id inside a conversation and the step name inside a
 * plan step. The request arrives with its settings already layered (see
 * {@link dev.pagantic.inference.InferenceSettings#overrideWith}); usage is the caller's to add up from the result.
 *
 * <p>Immutable and thread-safe when the engine and the event log are.
 */
public final class InferenceCall {

    private final Engine engine;
    private final String name;
    private final Interceptor interceptor;
    private final EventLog eventLog;

    private InferenceCall(Engine engine, String name, Interceptor interceptor, EventLog eventLog) {
        this.engine = Objects.requireNonNull(engine, "engine");
        this.name = Objects.requireNonNull(name, "name");
        this.interceptor = Objects.requireNonNull(interceptor, "interceptor");
        this.eventLog = Objects.requireNonNull(eventLog, "eventLog");
    }

    /** Calls to the engine, named after its model, through the interceptor, recorded in the log. */
    public static InferenceCall of(Engine engine, Interceptor interceptor, EventLog eventLog) {
        return new InferenceCall(engine, engine.modelInfo().name(), interceptor, eventLog);
    }

    /** Calls to the engine, named as given (its id in an engine catalogue). */
    public static InferenceCall named(String name, Engine engine, Interceptor interceptor, EventLog eventLog) {
        return new InferenceCall(engine, name, interceptor, eventLog);
    }

    /** The engine called. */
    public Engine engine() {
        return engine;
    }

    /** What the engine serves and supports. */
    public ModelInfo model() {
        return engine.modelInfo();
    }

    /** The name the interceptor and the events see: the model name or the catalogue id. */
    public String name() {
        return name;
    }

    /** Runs one inference without streaming. */
    public Result infer(CallContext ctx, Request request) {
        return infer(ctx, request, StreamHandler.NOOP, "");
    }

    /** Runs one inference, streamed to the handler unless it is {@link StreamHandler#NOOP}. */
    public Result infer(CallContext ctx, Request request, StreamHandler handler) {
        return infer(ctx, request, handler, "");
    }

    /**
     * Runs one inference inside a plan step: its events carry the step's name.
     *
     * @param stepName the plan step the call belongs to; empty outside plans
     * @throws PaganticException {@code CANCELLED_*} when the context is done; the engine's (or the interceptor's)
     *                           failure; {@code INFERENCE_MALFORMED_RESPONSE} when an interceptor returned no result
     */
    public Result infer(CallContext ctx, Request request, StreamHandler handler, String stepName) {
        Objects.requireNonNull(ctx, "ctx");
        Objects.requireNonNull(request, "request");
        Objects.requireNonNull(handler, "handler");
        ctx.throwIfDone();
        boolean recording = eventLog.isEnabled();
        Instant started = recording ? ctx.now() : null;
        if (recording) {
            eventLog.record(new InferenceStartEvent(where(ctx, stepName, started), name, request.messages().size(),
                    request.tools().size(), request.schema().isPresent(), request.hasGrammar(),
                    request.settings().temperature()).toEvent());
        }
        try {
            Result result = interceptor.intercept(Invocation.of(InvocationKind.INFERENCE, name, ctx, request,
                    () -> handler == StreamHandler.NOOP ? engine.infer(ctx, request)
                            : engine.infer(ctx, request, handler)));
            if (result == null) {
                throw PaganticException.of(ErrorCode.INFERENCE_MALFORMED_RESPONSE,
                        "the inference returned no result (an interceptor returned null)");
            }
            if (recording) {
                Instant ended = ctx.now();
                eventLog.record(InferenceEndEvent.returned(where(ctx, stepName, ended), millis(started, ended),
                        result.usage().promptTokens(), result.usage().outputTokens(), result.finishReason(),
                        result.toolCalls().size()).toEvent());
            }
            return result;
        } catch (RuntimeException failure) {
            if (recording) {
                Instant ended = ctx.now();
                eventLog.record(InferenceEndEvent.failed(where(ctx, stepName, ended), millis(started, ended), failure)
                        .toEvent());
            }
            throw failure;
        }
    }

    private static EventContext where(CallContext ctx, String stepName, Instant at) {
        EventContext where = EventContext.of(ctx.correlation(), at);
        if (!ctx.sessionId().isBlank()) {
            where = where.inConversation();
        }
        return stepName.isEmpty() ? where : where.inStep(stepName);
    }

    private static long millis(Instant started, Instant ended) {
        Duration elapsed = Duration.between(started, ended);
        return elapsed.isNegative() ? 0 : elapsed.toMillis();
    }

    @Override
    public String toString() {
        return "InferenceCall[" + name + "]";
    }
}
