package dev.pagantic.adapter.opentelemetry;

import dev.pagantic.core.CallContext;
import dev.pagantic.core.ErrorCode;
import dev.pagantic.core.PaganticException;
import dev.pagantic.core.ToolCall;
import dev.pagantic.core.ToolResult;
import dev.pagantic.inference.InferenceSettings;
import dev.pagantic.inference.Request;
import dev.pagantic.inference.Result;
import dev.pagantic.observe.Event;
import dev.pagantic.observe.EventLog;
import dev.pagantic.observe.LifecycleTransitionEvent;
import dev.pagantic.observe.PriceTable;
import dev.pagantic.orchestrate.facade.ConfidenceSource;
import dev.pagantic.orchestrate.facade.SystemRequest;
import dev.pagantic.orchestrate.facade.SystemResponse;
import dev.pagantic.orchestrate.facade.ValidationResult;
import dev.pagantic.orchestrate.spi.Invocation;
import dev.pagantic.orchestrate.spi.Observer;
import io.opentelemetry.api.OpenTelemetry;
import io.opentelemetry.api.common.Attributes;
import io.opentelemetry.api.common.AttributesBuilder;
import io.opentelemetry.api.trace.Span;
import io.opentelemetry.api.trace.SpanBuilder;
import io.opentelemetry.api.trace.SpanKind;
import io.opentelemetry.api.trace.StatusCode;
import io.opentelemetry.api.trace.Tracer;
import io.opentelemetry.api.trace.propagation.W3CTraceContextPropagator;
import io.opentelemetry.context.Context;
import io.opentelemetry.context.ContextKey;
import io.opentelemetry.context.Scope;
import io.opentelemetry.context.propagation.TextMapGetter;
import java.math.BigDecimal;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.concurrent.ConcurrentHashMap;
import java.util.function.BiConsumer;
import java.util.function.Consumer;
import org.jspecify.annotations.Nullable;

/**
 * pagantic on OpenTelemetry: spans and metrics by the GenAI semantic conventions (v{@value GenAi#SEMCONV_VERSION}),
 * through the OpenTelemetry API. Wire it with one call:
 *
 * <pre>{@code
 * Orchestrator orchestrator = Orchestrator.builder().engine(engine)
 *         .observer(PaganticTelemetry.create(openTelemetry))
 *         .build();
 * }</pre>
 *
 * <h2>Spans</h2>
 * <ul>
 *   <li>{@code invoke_workflow pagantic.<mode>} (internal) per request through the facade: the request id, mode,
 *       conversation id, summed usage, final lifecycle state and attempt, finish reason, confidence, validation steps,
 *       cost (with a {@link Builder#priceTable price table}) and {@code error.type}; one span event per lifecycle
 *       transition. It continues the trace of the request's W3C {@code traceparent}
 *       ({@link SystemRequest#traceContext()}, which the HTTP server fills) when no span is current.</li>
 *   <li>{@code invoke_agent} (internal) per agent-loop turn.</li>
 *   <li>{@code chat <model>} (client) per inference, with the request settings, finish reasons and usage.</li>
 *   <li>{@code execute_tool <name>} (internal) per tool call, with {@code gen_ai.tool.name} and {@code .call.id}.</li>
 *   <li>{@code plan_step <name>} (internal) per plan step.</li>
 * </ul>
 * Spans nest by the current context; work that runs on another thread (replicas, voters) is parented to its
 * request's span. Failures set the span status to error and {@code error.type} to pagantic's error code.
 * Prompt and completion content ({@code gen_ai.input.messages}, {@code gen_ai.output.messages}, tool arguments and
 * results) is recorded only with {@link Builder#captureContent(boolean)}.
 *
 * <h2>Metrics</h2>
 * {@code gen_ai.client.token.usage} and {@code gen_ai.client.operation.duration} (the conventions' buckets), and
 * {@code pagantic.tool.duration} and {@code pagantic.vote.confidence}.
 *
 * <p>Thread-safe; one instance serves any number of orchestrators and concurrent requests.
 */
public final class PaganticTelemetry implements Observer {

    /** The instrumentation scope name of the tracer and the meter. */
    public static final String INSTRUMENTATION_NAME = "dev.pagantic";

    /** Where an agent turn's inferences add up their usage. */
    private static final ContextKey<Usage> TURN_USAGE = ContextKey.named("pagantic.turn.usage");

    private final Tracer tracer;
    private final GenAiMetrics metrics;
    private final boolean captureContent;
    private final String provider;
    private final Optional<PriceTable> prices;
    private final Map<String, RequestScope> requests = new ConcurrentHashMap<>();
    private final EventLog transitions = new TransitionLog();

    private PaganticTelemetry(Builder builder) {
        this.tracer = builder.openTelemetry.getTracer(INSTRUMENTATION_NAME);
        this.metrics = new GenAiMetrics(builder.openTelemetry.getMeter(INSTRUMENTATION_NAME));
        this.captureContent = builder.captureContent;
        this.provider = builder.provider;
        this.prices = Optional.ofNullable(builder.prices);
    }

    /** Telemetry on the given OpenTelemetry (the SDK the application configured), with the defaults. */
    public static PaganticTelemetry create(OpenTelemetry openTelemetry) {
        return builder(openTelemetry).build();
    }

    /** Starts configuring telemetry on the given OpenTelemetry. */
    public static Builder builder(OpenTelemetry openTelemetry) {
        return new Builder(openTelemetry);
    }

    @Override
    public <T> T intercept(Invocation<T> invocation) {
        return switch (invocation.kind()) {
            case REQUEST -> request(invocation);
            case AGENT_TURN -> turn(invocation);
            case INFERENCE -> inference(invocation);
            case TOOL_CALL -> tool(invocation);
            case PLAN_STEP -> traced(invocation, span("plan_step " + invocation.name(), invocation.context())
                    .setAttribute(GenAi.STEP_NAME, invocation.name()).startSpan(), (span, step) -> { });
        };
    }

    /** Receives the lifecycle transitions, which become events and attributes of the request's span. */
    @Override
    public EventLog eventLog() {
        return transitions;
    }

    // ------------------------------------------------------------------------------------------------------ spans

    private <T> T request(Invocation<T> invocation) {
        SystemRequest request = (SystemRequest) invocation.input();
        Context parent = Context.current();
        if (!Span.fromContext(parent).getSpanContext().isValid() && !request.traceContext().isEmpty()) {
            parent = W3CTraceContextPropagator.getInstance().extract(parent, request.traceContext(), Headers.GETTER);
        }
        String workflow = "pagantic." + invocation.name();
        SpanBuilder builder = tracer.spanBuilder("invoke_workflow " + workflow).setParent(parent)
                .setSpanKind(SpanKind.INTERNAL)
                .setAttribute(GenAi.OPERATION_NAME, "invoke_workflow")
                .setAttribute(GenAi.WORKFLOW_NAME, workflow)
                .setAttribute(GenAi.MODE, invocation.name())
                .setAttribute(GenAi.REQUEST_ID, request.requestId());
        if (request.hasSession()) {
            builder.setAttribute(GenAi.CONVERSATION_ID, request.sessionId());
        }
        Span span = builder.startSpan();
        Context context = parent.with(span);
        RequestScope scope = new RequestScope(span, context, invocation.name());
        requests.put(request.requestId(), scope);
        try (Scope ignored = context.makeCurrent()) {
            T result = invocation.proceed();
            ended(scope, (SystemResponse) result);
            return result;
        } catch (RuntimeException | Error failure) {
            failed(span, failure);
            throw failure;
        } finally {
            requests.remove(request.requestId(), scope);
            span.end();
        }
    }

    private void ended(RequestScope scope, SystemResponse response) {
        Span span = scope.span;
        span.setAttribute(GenAi.USAGE_INPUT_TOKENS, response.tokenUsage().promptTokens())
                .setAttribute(GenAi.USAGE_OUTPUT_TOKENS, response.tokenUsage().outputTokens())
                .setAttribute(GenAi.FINISH_REASON, response.finishReason().wireName());
        scope.state().ifPresent(state -> span.setAttribute(GenAi.LIFECYCLE_STATE, state));
        span.setAttribute(GenAi.ATTEMPT, scope.attempt);
        response.confidence().ifPresent(confidence -> span.setAttribute(GenAi.CONFIDENCE, confidence));
        response.confidenceSource().ifPresent(source -> {
            span.setAttribute(GenAi.CONFIDENCE_SOURCE, source.wireName());
            if (source == ConfidenceSource.VOTING) {
                metrics.vote(Attributes.of(GenAi.MODE, scope.mode), response.confidence().orElse(0));
            }
        });
        response.validationResult().ifPresent(validation -> validated(span, validation));
        if (prices.isPresent()) {
            span.setAttribute(GenAi.COST, scope.cost().doubleValue());
        }
        response.error().ifPresent(error -> {
            span.setAttribute(GenAi.ERROR_TYPE, error.code().name());
            span.setStatus(StatusCode.ERROR, error.message());
        });
    }

    private static void validated(Span span, ValidationResult validation) {
        span.setAttribute(GenAi.VALIDATION_STEPS, validation.stepsRun())
                .setAttribute(GenAi.VALIDATION_PASSED, validation.passed())
                .setAttribute(GenAi.VALIDATION_FAILED, validation.failed())
                .setAttribute(GenAi.REPAIR_ATTEMPTS, validation.repairAttempts());
    }

    private <T> T turn(Invocation<T> invocation) {
        Span span = span("invoke_agent", invocation.context())
                .setAttribute(GenAi.OPERATION_NAME, "invoke_agent")
                .setAttribute(GenAi.PROVIDER_NAME, provider)
                .setAttribute(GenAi.REQUEST_MODEL, invocation.name())
                .startSpan();
        Usage usage = new Usage();
        Context context = parentOf(invocation.context()).with(span).with(TURN_USAGE, usage);
        try (Scope ignored = context.makeCurrent()) {
            T result = invocation.proceed();
            span.setAttribute(GenAi.USAGE_INPUT_TOKENS, usage.input).setAttribute(GenAi.USAGE_OUTPUT_TOKENS,
                    usage.output);
            return result;
        } catch (RuntimeException | Error failure) {
            failed(span, failure);
            throw failure;
        } finally {
            span.end();
        }
    }

    private <T> T inference(Invocation<T> invocation) {
        Request request = (Request) invocation.input();
        String model = invocation.name();
        AttributesBuilder common = Attributes.builder().put(GenAi.OPERATION_NAME, "chat")
                .put(GenAi.PROVIDER_NAME, provider).put(GenAi.REQUEST_MODEL, model);
        SpanBuilder builder = span("chat " + model, invocation.context()).setSpanKind(SpanKind.CLIENT)
                .setAllAttributes(common.build());
        requested(builder, request.settings());
        if (request.schema().isPresent()) {
            builder.setAttribute(GenAi.OUTPUT_TYPE, "json");
        }
        RequestScope scope = requests.get(invocation.context().requestId());
        if (scope != null) {
            builder.setAttribute(GenAi.ATTEMPT, scope.attempt);
        }
        if (captureContent) {
            builder.setAttribute(GenAi.INPUT_MESSAGES, ContentJson.messages(request.messages()));
        }
        long started = System.nanoTime();
        Usage turn = Context.current().get(TURN_USAGE);
        return traced(invocation, builder.startSpan(), (span, value) -> {
            Result result = (Result) value;
            String finish = result.finishReason().wireName();
            span.setAttribute(GenAi.RESPONSE_FINISH_REASONS, List.of(finish))
                    .setAttribute(GenAi.RESPONSE_MODEL, model)
                    .setAttribute(GenAi.USAGE_INPUT_TOKENS, result.usage().promptTokens())
                    .setAttribute(GenAi.USAGE_OUTPUT_TOKENS, result.usage().outputTokens());
            if (captureContent) {
                span.setAttribute(GenAi.OUTPUT_MESSAGES, ContentJson.output(result.content(), result.toolCalls(),
                        finish));
            }
            if (turn != null) {
                turn.add(result.usage().promptTokens(), result.usage().outputTokens());
            }
            if (scope != null) {
                prices.flatMap(table -> table.costOf(model, result.usage())).ifPresent(scope::addCost);
            }
            metrics.inference(common.build(), seconds(started), result.usage().promptTokens(),
                    result.usage().outputTokens(), false);
        }, failure -> metrics.inference(common.put(GenAi.ERROR_TYPE, errorType(failure)).build(), seconds(started),
                0, 0, true));
    }

    private static void requested(SpanBuilder builder, InferenceSettings settings) {
        if (settings.hasMaxTokens()) {
            builder.setAttribute(GenAi.REQUEST_MAX_TOKENS, settings.maxTokens());
        }
        settings.temperature().ifPresent(value -> builder.setAttribute(GenAi.REQUEST_TEMPERATURE, value));
        settings.topP().ifPresent(value -> builder.setAttribute(GenAi.REQUEST_TOP_P, value));
        settings.seed().ifPresent(value -> builder.setAttribute(GenAi.REQUEST_SEED, value));
        if (!settings.stop().isEmpty()) {
            builder.setAttribute(GenAi.REQUEST_STOP_SEQUENCES, settings.stop());
        }
    }

    private <T> T tool(Invocation<T> invocation) {
        ToolCall call = (ToolCall) invocation.input();
        SpanBuilder builder = span("execute_tool " + call.name(), invocation.context())
                .setAttribute(GenAi.OPERATION_NAME, "execute_tool")
                .setAttribute(GenAi.TOOL_NAME, call.name())
                .setAttribute(GenAi.TOOL_CALL_ID, call.id())
                .setAttribute(GenAi.TOOL_TYPE, "function");
        if (captureContent) {
            builder.setAttribute(GenAi.TOOL_CALL_ARGUMENTS, ContentJson.arguments(call.arguments()));
        }
        long started = System.nanoTime();
        Attributes measured = Attributes.of(GenAi.TOOL_NAME, call.name());
        return traced(invocation, builder.startSpan(), (span, value) -> {
            ToolResult result = (ToolResult) value;
            if (captureContent && result != null) {
                span.setAttribute(GenAi.TOOL_CALL_RESULT, result.content());
            }
            if (result != null && result.isError()) {
                String code = result.errorCode().orElse(ErrorCode.TOOL_EXECUTION_FAILED).name();
                span.setAttribute(GenAi.ERROR_TYPE, code).setStatus(StatusCode.ERROR, result.content());
                metrics.tool(measured.toBuilder().put(GenAi.ERROR_TYPE, code).build(), seconds(started));
            } else {
                metrics.tool(measured, seconds(started));
            }
        }, failure -> metrics.tool(measured.toBuilder().put(GenAi.ERROR_TYPE, errorType(failure)).build(),
                seconds(started)));
    }

    // ----------------------------------------------------------------------------------------------------- helpers

    private SpanBuilder span(String name, CallContext ctx) {
        return tracer.spanBuilder(name).setParent(parentOf(ctx)).setSpanKind(SpanKind.INTERNAL)
                .setAttribute(GenAi.REQUEST_ID, ctx.requestId());
    }

    /**
     * The current context when it has a span (work on the thread of its scope); otherwise the context of the
     * request the work belongs to (a replica on an executor's thread), so that every span joins its request's tree.
     */
    private Context parentOf(CallContext ctx) {
        Context current = Context.current();
        if (Span.fromContext(current).getSpanContext().isValid()) {
            return current;
        }
        RequestScope scope = requests.get(ctx.requestId());
        return scope != null ? scope.context : current;
    }

    private static <T> T traced(Invocation<T> invocation, Span span, BiConsumer<Span, T> succeeded) {
        return traced(invocation, span, succeeded, failure -> { });
    }

    private static <T> T traced(Invocation<T> invocation, Span span, BiConsumer<Span, T> succeeded,
                                Consumer<Throwable> onFailure) {
        try (Scope ignored = span.makeCurrent()) {
            T result = invocation.proceed();
            succeeded.accept(span, result);
            return result;
        } catch (RuntimeException | Error failure) {
            failed(span, failure);
            onFailure.accept(failure);
            throw failure;
        } finally {
            span.end();
        }
    }

    private static void failed(Span span, Throwable failure) {
        span.setAttribute(GenAi.ERROR_TYPE, errorType(failure));
        span.setStatus(StatusCode.ERROR, String.valueOf(failure.getMessage()));
    }

    /** pagantic's error code, or the exception's class name for anything else (as the conventions ask). */
    private static String errorType(Throwable failure) {
        return failure instanceof PaganticException pagantic ? pagantic.code().name() : failure.getClass().getName();
    }

    private static double seconds(long startedNanos) {
        return (System.nanoTime() - startedNanos) / 1e9;
    }

    // ------------------------------------------------------------------------------------------------------ state

    /** What a request's span accumulates while it is open. */
    private static final class RequestScope {
        final Span span;
        final Context context;
        final String mode;
        volatile String state = "";
        volatile int attempt;
        private BigDecimal cost = BigDecimal.ZERO;

        RequestScope(Span span, Context context, String mode) {
            this.span = span;
            this.context = context;
            this.mode = mode;
        }

        Optional<String> state() {
            return state.isEmpty() ? Optional.empty() : Optional.of(state);
        }

        synchronized void addCost(BigDecimal value) {
            cost = cost.add(value);
        }

        synchronized BigDecimal cost() {
            return cost;
        }
    }

    /** A turn's usage, summed from its inferences (the turn's own result is orchestrate's type). */
    private static final class Usage {
        long input;
        long output;

        synchronized void add(long in, long out) {
            input += in;
            output += out;
        }
    }

    /** Lifecycle transitions become span events and the state and attempt of the request's span. */
    private final class TransitionLog implements EventLog {
        @Override
        public void record(Event event) {
            if (!event.action().equals(LifecycleTransitionEvent.ACTION)) {
                return;
            }
            RequestScope scope = requests.get(event.requestId());
            if (scope == null) {
                return;
            }
            String to = String.valueOf(event.data().get("to_state"));
            int attempt = event.data().get("attempt") instanceof Number number ? number.intValue() : 0;
            scope.state = to;
            scope.attempt = Math.max(scope.attempt, attempt);
            scope.span.addEvent(GenAi.TRANSITION_EVENT, Attributes.builder()
                    .put(GenAi.FROM_STATE, String.valueOf(event.data().get("from_state")))
                    .put(GenAi.TO_STATE, to)
                    .put(GenAi.ATTEMPT, attempt)
                    .put(GenAi.REASON, String.valueOf(event.data().get("reason")))
                    .build(), event.timestamp());
        }

        @Override
        public List<Event> events() {
            return List.of();
        }
    }

    /** Reads the request's trace-context headers for the W3C propagator. */
    private enum Headers implements TextMapGetter<Map<String, String>> {
        GETTER;

        @Override
        public Iterable<String> keys(Map<String, String> carrier) {
            return carrier.keySet();
        }

        @Override
        public @Nullable String get(@Nullable Map<String, String> carrier, String key) {
            return carrier == null ? null : carrier.get(key);
        }
    }

    /** Configures {@link PaganticTelemetry}; validated at {@link #build()}. */
    public static final class Builder {
        private final OpenTelemetry openTelemetry;
        private boolean captureContent;
        private String provider = "_OTHER";
        private @Nullable PriceTable prices;

        private Builder(OpenTelemetry openTelemetry) {
            this.openTelemetry = Objects.requireNonNull(openTelemetry, "openTelemetry");
        }

        /**
         * Whether prompts, completions, tool arguments and tool results are recorded on the spans; off by default,
         * as the conventions advise (content may be sensitive, and large).
         */
        public Builder captureContent(boolean value) {
            this.captureContent = value;
            return this;
        }

        /**
         * The {@code gen_ai.provider.name} of inference spans (for example {@code openai} for an OpenAI endpoint);
         * {@code _OTHER} by default, the conventions' value when none of the well-known ones applies.
         */
        public Builder providerName(String value) {
            this.provider = value;
            return this;
        }

        /** Prices for the {@code pagantic.cost} attribute of request spans; none (no cost) by default. */
        public Builder priceTable(PriceTable value) {
            this.prices = Objects.requireNonNull(value, "priceTable");
            return this;
        }

        /**
         * The telemetry.
         *
         * @throws PaganticException {@code CONFIG_INVALID} for a blank provider name
         */
        public PaganticTelemetry build() {
            if (provider == null || provider.isBlank()) {
                throw PaganticException.of(ErrorCode.CONFIG_INVALID, "the provider name must not be blank");
            }
            return new PaganticTelemetry(this);
        }
    }
}
