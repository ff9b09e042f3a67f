package dev.pagantic.adapter.micrometer;

import dev.pagantic.core.ErrorCode;
import dev.pagantic.core.PaganticException;
import dev.pagantic.core.ToolCall;
import dev.pagantic.core.ToolResult;
import dev.pagantic.inference.InferenceSettings;
import dev.pagantic.inference.Request;
import dev.pagantic.inference.Result;
import dev.pagantic.orchestrate.facade.ConfidenceSource;
import dev.pagantic.orchestrate.facade.SystemRequest;
import dev.pagantic.orchestrate.facade.SystemResponse;
import dev.pagantic.orchestrate.spi.Invocation;
import dev.pagantic.orchestrate.spi.Observer;
import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.DistributionSummary;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.observation.Observation;
import io.micrometer.observation.ObservationRegistry;
import java.util.Map;
import java.util.Objects;
import java.util.concurrent.ConcurrentHashMap;
import java.util.function.BiConsumer;
import org.jspecify.annotations.Nullable;

/**
 * pagantic on Micrometer: an {@link Observer} that runs every request, agent turn, inference, tool call and plan step
 * as a Micrometer {@link Observation}, so that the application's observation handlers (Spring Boot's: timers in the
 * actuator's metrics, spans through Micrometer Tracing) see them. Wire it with one call:
 *
 * <pre>{@code
 * Orchestrator orchestrator = Orchestrator.builder().engine(engine)
 *         .observer(PaganticObservations.of(observationRegistry, meterRegistry))
 *         .build();
 * }</pre>
 *
 * <table>
 *   <caption>Observations</caption>
 *   <tr><th>Name</th><th>Contextual name</th><th>Low-cardinality keys</th><th>High-cardinality keys</th></tr>
 *   <tr><td>{@value #REQUEST}</td><td>{@code invoke_workflow pagantic.<mode>}</td><td>{@code gen_ai.operation.name},
 *       {@code pagantic.mode}, {@code error.type}</td><td>{@code pagantic.request.id}, {@code gen_ai.conversation.id},
 *       {@code pagantic.finish_reason}, {@code gen_ai.usage.input_tokens}, {@code gen_ai.usage.output_tokens},
 *       {@code pagantic.confidence}</td></tr>
 *   <tr><td>{@value #TURN}</td><td>{@code invoke_agent}</td><td>{@code gen_ai.operation.name},
 *       {@code gen_ai.system}, {@code gen_ai.request.model}, {@code error.type}</td><td>{@code pagantic.request.id}</td></tr>
 *   <tr><td>{@value #INFERENCE}</td><td>{@code chat <model>}</td><td>{@code gen_ai.operation.name},
 *       {@code gen_ai.system}, {@code gen_ai.request.model}, {@code gen_ai.response.model}, {@code error.type}</td>
 *       <td>{@code gen_ai.request.max_tokens}, {@code .temperature}, {@code .top_p}, {@code .stop_sequences},
 *       {@code gen_ai.response.finish_reasons}, {@code gen_ai.usage.input_tokens}, {@code .output_tokens},
 *       {@code .total_tokens}, {@code pagantic.request.id}</td></tr>
 *   <tr><td>{@value #TOOL}</td><td>{@code execute_tool <name>}</td><td>{@code gen_ai.operation.name},
 *       {@code gen_ai.tool.name}, {@code error.type}</td><td>{@code gen_ai.tool.call.id},
 *       {@code pagantic.request.id}</td></tr>
 *   <tr><td>{@value #STEP}</td><td>{@code plan_step <name>}</td><td>{@code pagantic.step.name}, {@code error.type}</td>
 *       <td>{@code pagantic.request.id}</td></tr>
 * </table>
 * The inference observation and its keys are Spring AI's chat-model observation ({@code gen_ai.client.operation},
 * {@code gen_ai.system}, ...), so dashboards built for Spring AI show pagantic's inferences too. {@code error.type} is
 * pagantic's error code, or {@code none}. With a {@link MeterRegistry}, the counter {@value #TOKEN_USAGE} (Spring AI's,
 * tagged {@code gen_ai.token.type} {@code input}/{@code output}/{@code total}) and the distribution summary
 * {@value #VOTE_CONFIDENCE} are recorded as well.
 *
 * <p>Work on another thread (redundant replicas, voters) has no current observation; it is parented to its request's.
 * Thread-safe.
 */
public final class PaganticObservations implements Observer {

    /** The observation of a request through the facade. */
    public static final String REQUEST = "pagantic.request";
    /** The observation of an agent-loop turn. */
    public static final String TURN = "pagantic.agent.turn";
    /** The observation of an inference: Spring AI's name for a chat model call. */
    public static final String INFERENCE = "gen_ai.client.operation";
    /** The observation of a tool call. */
    public static final String TOOL = "pagantic.tool";
    /** The observation of a plan step. */
    public static final String STEP = "pagantic.plan.step";
    /** The token counter (with a meter registry). */
    public static final String TOKEN_USAGE = "gen_ai.client.token.usage";
    /** The vote confidence summary (with a meter registry). */
    public static final String VOTE_CONFIDENCE = "pagantic.vote.confidence";

    static final String NONE = "none";

    private final ObservationRegistry registry;
    private final @Nullable MeterRegistry meters;
    private final String provider;
    private final Map<String, Observation> requests = new ConcurrentHashMap<>();

    private PaganticObservations(ObservationRegistry registry, @Nullable MeterRegistry meters, String provider) {
        this.registry = Objects.requireNonNull(registry, "observationRegistry");
        this.meters = meters;
        this.provider = provider;
    }

    /** Observations in the registry; no meters of their own besides what the registry's handlers make. */
    public static PaganticObservations of(ObservationRegistry registry) {
        return new PaganticObservations(registry, null, "pagantic");
    }

    /** Observations in the registry, and the token counter and vote confidence summary in the meter registry. */
    public static PaganticObservations of(ObservationRegistry registry, MeterRegistry meters) {
        return new PaganticObservations(registry, Objects.requireNonNull(meters, "meterRegistry"), "pagantic");
    }

    /**
     * These observations with another {@code gen_ai.system} value ({@code pagantic} by default; for example
     * {@code openai} when every engine is an OpenAI endpoint).
     */
    public PaganticObservations withProvider(String name) {
        if (name == null || name.isBlank()) {
            throw PaganticException.of(ErrorCode.CONFIG_INVALID, "the provider name must not be blank");
        }
        return new PaganticObservations(registry, meters, name);
    }

    @Override
    public <T> T intercept(Invocation<T> invocation) {
        if (registry.isNoop()) {
            return invocation.proceed();
        }
        return switch (invocation.kind()) {
            case REQUEST -> request(invocation);
            case AGENT_TURN -> observed(invocation, create(TURN, "invoke_agent", invocation)
                    .lowCardinalityKeyValue("gen_ai.operation.name", "invoke_agent")
                    .lowCardinalityKeyValue("gen_ai.system", provider)
                    .lowCardinalityKeyValue("gen_ai.request.model", invocation.name()), (observation, turn) -> { });
            case INFERENCE -> inference(invocation);
            case TOOL_CALL -> tool(invocation);
            case PLAN_STEP -> observed(invocation, create(STEP, "plan_step " + invocation.name(), invocation)
                    .lowCardinalityKeyValue("pagantic.step.name", invocation.name()), (observation, step) -> { });
        };
    }

    private <T> T request(Invocation<T> invocation) {
        SystemRequest request = (SystemRequest) invocation.input();
        Observation observation = create(REQUEST, "invoke_workflow pagantic." + invocation.name(), invocation)
                .lowCardinalityKeyValue("gen_ai.operation.name", "invoke_workflow")
                .lowCardinalityKeyValue("pagantic.mode", invocation.name());
        if (request.hasSession()) {
            observation.highCardinalityKeyValue("gen_ai.conversation.id", request.sessionId());
        }
        requests.put(request.requestId(), observation);
        try {
            return observed(invocation, observation, (done, value) -> {
                SystemResponse response = (SystemResponse) value;
                done.highCardinalityKeyValue("pagantic.finish_reason", response.finishReason().wireName())
                        .highCardinalityKeyValue("gen_ai.usage.input_tokens",
                                String.valueOf(response.tokenUsage().promptTokens()))
                        .highCardinalityKeyValue("gen_ai.usage.output_tokens",
                                String.valueOf(response.tokenUsage().outputTokens()));
                response.error().ifPresent(error -> done.lowCardinalityKeyValue("error.type", error.code().name()));
                response.confidence().ifPresent(confidence ->
                        done.highCardinalityKeyValue("pagantic.confidence", String.valueOf(confidence)));
                if (meters != null && response.confidenceSource().orElse(null) == ConfidenceSource.VOTING) {
                    DistributionSummary.builder(VOTE_CONFIDENCE).baseUnit("1").tag("pagantic.mode", invocation.name())
                            .description("Confidence of a vote: the winner's share").register(meters)
                            .record(response.confidence().orElse(0));
                }
            });
        } finally {
            requests.remove(request.requestId(), observation);
        }
    }

    private <T> T inference(Invocation<T> invocation) {
        Request request = (Request) invocation.input();
        String model = invocation.name();
        Observation observation = create(INFERENCE, "chat " + model, invocation)
                .lowCardinalityKeyValue("gen_ai.operation.name", "chat")
                .lowCardinalityKeyValue("gen_ai.system", provider)
                .lowCardinalityKeyValue("gen_ai.request.model", model)
                .lowCardinalityKeyValue("gen_ai.response.model", model);
        requested(observation, request.settings());
        return observed(invocation, observation, (done, value) -> {
            Result result = (Result) value;
            int input = result.usage().promptTokens();
            int output = result.usage().outputTokens();
            done.highCardinalityKeyValue("gen_ai.response.finish_reasons", "[\"" + result.finishReason().wireName()
                            + "\"]")
                    .highCardinalityKeyValue("gen_ai.usage.input_tokens", String.valueOf(input))
                    .highCardinalityKeyValue("gen_ai.usage.output_tokens", String.valueOf(output))
                    .highCardinalityKeyValue("gen_ai.usage.total_tokens", String.valueOf(input + output));
            if (meters != null) {
                tokens(model, "input", input);
                tokens(model, "output", output);
                tokens(model, "total", input + output);
            }
        });
    }

    private static void requested(Observation observation, InferenceSettings settings) {
        if (settings.hasMaxTokens()) {
            observation.highCardinalityKeyValue("gen_ai.request.max_tokens", String.valueOf(settings.maxTokens()));
        }
        settings.temperature().ifPresent(value ->
                observation.highCardinalityKeyValue("gen_ai.request.temperature", String.valueOf(value)));
        settings.topP().ifPresent(value ->
                observation.highCardinalityKeyValue("gen_ai.request.top_p", String.valueOf(value)));
        if (!settings.stop().isEmpty()) {
            observation.highCardinalityKeyValue("gen_ai.request.stop_sequences", String.join(",", settings.stop()));
        }
    }

    private void tokens(String model, String type, long count) {
        Counter.builder(TOKEN_USAGE).baseUnit("tokens").description("Measures number of input and output tokens used")
                .tag("gen_ai.operation.name", "chat").tag("gen_ai.system", provider)
                .tag("gen_ai.request.model", model).tag("gen_ai.response.model", model).tag("gen_ai.token.type", type)
                .register(meters).increment(count);
    }

    private <T> T tool(Invocation<T> invocation) {
        ToolCall call = (ToolCall) invocation.input();
        Observation observation = create(TOOL, "execute_tool " + call.name(), invocation)
                .lowCardinalityKeyValue("gen_ai.operation.name", "execute_tool")
                .lowCardinalityKeyValue("gen_ai.tool.name", call.name())
                .highCardinalityKeyValue("gen_ai.tool.call.id", call.id());
        return observed(invocation, observation, (done, value) -> {
            ToolResult result = (ToolResult) value;
            if (result != null) {
                result.errorCode().ifPresent(code -> done.lowCardinalityKeyValue("error.type", code.name()));
            }
        });
    }

    /**
     * A new observation of the invocation: parented to the current observation, or, on a thread without one, to its
     * request's; {@code error.type} is {@code none} until something fails, so that every timer has the same tags.
     */
    private Observation create(String name, String contextualName, Invocation<?> invocation) {
        Observation observation = Observation.createNotStarted(name, registry).contextualName(contextualName)
                .lowCardinalityKeyValue("error.type", NONE)
                .highCardinalityKeyValue("pagantic.request.id", invocation.context().requestId());
        if (registry.getCurrentObservation() == null) {
            Observation request = requests.get(invocation.context().requestId());
            if (request != null) {
                observation.parentObservation(request);
            }
        }
        return observation;
    }

    private static <T> T observed(Invocation<T> invocation, Observation observation,
                                  BiConsumer<Observation, T> succeeded) {
        observation.start();
        try (Observation.Scope ignored = observation.openScope()) {
            T result = invocation.proceed();
            succeeded.accept(observation, result);
            return result;
        } catch (RuntimeException | Error failure) {
            observation.lowCardinalityKeyValue("error.type", failure instanceof PaganticException pagantic
                    ? pagantic.code().name() : failure.getClass().getName());
            observation.error(failure);
            throw failure;
        } finally {
            observation.stop();
        }
    }
}
