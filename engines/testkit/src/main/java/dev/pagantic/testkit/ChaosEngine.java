package dev.pagantic.testkit;

import dev.pagantic.core.CallContext;
import dev.pagantic.core.ErrorCode;
import dev.pagantic.core.FinishReason;
import dev.pagantic.core.PaganticException;
import dev.pagantic.core.ToolCall;
import dev.pagantic.core.ToolDefinition;
import dev.pagantic.inference.Capability;
import dev.pagantic.inference.Engine;
import dev.pagantic.inference.Request;
import dev.pagantic.inference.Result;
import dev.pagantic.inference.StreamHandler;
import java.time.Duration;
import java.util.EnumMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.OptionalLong;
import java.util.Random;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.Consumer;
import org.jspecify.annotations.Nullable;

/**
 * An engine that injects faults into another engine's calls, by configured probabilities and from a seeded
 * {@link Random}: the fixture for chaos tests of everything above the Engine SPI.
 *
 * <pre>{@code
 * ChaosEngine engine = ChaosEngine.builder()
 *         .delegate(model)                       // the engine that answers when no fault is injected
 *         .seed(42)                              // same seed, same calls in the same order: same faults
 *         .latency(0.2, Duration.ZERO, Duration.ofMillis(5))
 *         .failure(0.05)                         // one of failureCodes(), one per failure category by default
 *         .malformed(0.05).truncation(0.05).midStreamFailure(0.05)
 *         .listener(injection -> faults.add(injection))
 *         .build();
 * }</pre>
 *
 * <h2>Faults</h2>
 * Each admitted call first waits with probability {@code latency} (a {@link CallContext#sleep} of a uniform duration
 * in the configured range, so a deadline or cancellation ends the wait at once), then draws at most one of the
 * exclusive faults, whose probabilities must add up to at most 1:
 * <ul>
 *   <li>{@link Fault#FAILURE}: the call fails before reaching the delegate with a {@link PaganticException} of one of
 *       the {@linkplain Builder#failureCodes failure codes} (default: real codes of every
 *       {@link dev.pagantic.core.FailureCategory}, see {@link #DEFAULT_FAILURE_CODES}), with the code's default
 *       retryability;</li>
 *   <li>{@link Fault#MALFORMED_JSON}: for a structured request (one with a schema or a grammar), the delegate's
 *       answer is cut in the middle and garbage appended, so it is no longer JSON;</li>
 *   <li>{@link Fault#UNKNOWN_TOOL}: for a request offering tools, the answer is replaced by a call of a tool the
 *       request does not offer;</li>
 *   <li>{@link Fault#BROKEN_ARGUMENTS}: for a request offering tools, the answer is replaced by a call of an offered
 *       tool whose arguments omit every parameter and carry an unexpected one (invalid for any tool with a required
 *       parameter);</li>
 *   <li>{@link Fault#TRUNCATED}: the answer is cut to a strict prefix of its words, its tool calls dropped, with
 *       {@link FinishReason#LENGTH}, as when generation runs out of tokens;</li>
 *   <li>{@link Fault#MID_STREAM_FAILURE}: the delegate's answer streams for one to three deltas, then the call fails
 *       with one of the {@linkplain Builder#midStreamCodes mid-stream codes} (default
 *       {@code INFERENCE_ENGINE_ERROR}), as when a connection drops during generation.</li>
 * </ul>
 * A malformed or unknown-tool fault drawn for a request it does not apply to (no schema, no tools) leaves the call
 * alone and is not reported. Every fault that was injected (latency included) is reported to the
 * {@linkplain Builder#listener listener}, on the calling thread, before it takes effect, as an {@link Injection}
 * carrying the call context's request id and the request's seed, so that a test can tell which request (and which
 * replica of a redundant call) got which fault, and work out what outcome it calls for.
 *
 * <h2>Contract</h2>
 * A call is refused before any draw when the engine is closed ({@code INFERENCE_ENGINE_CLOSED}), its context is
 * cancelled or expired ({@code CANCELLED_*}), or it needs a capability the delegate does not declare
 * ({@code CONFIG_UNSUPPORTED_CAPABILITY}). A transformed answer is streamed word by word with a cancellation and
 * deadline check before each delta, and its deltas concatenate to its content. With every probability 0 the engine is
 * its delegate, and it passes the Engine contract kit.
 *
 * <p>Reproducibility: the random draws of one call are taken together under a lock, so calls made one after another
 * in the same order get the same faults for the same seed; concurrent calls draw in arrival order. The engine owns its
 * delegate: closing it closes the delegate. Thread-safe.
 */
public final class ChaosEngine extends DecoratingEngine {

    /** The faults a call can get. */
    public enum Fault {
        /** Extra time before the call (combined with at most one of the others). */
        LATENCY,
        /** The call fails with a chosen error code before reaching the delegate. */
        FAILURE,
        /** A structured answer that is not JSON. */
        MALFORMED_JSON,
        /** A call of a tool the request does not offer. */
        UNKNOWN_TOOL,
        /** A call of an offered tool with arguments that do not match its parameters. */
        BROKEN_ARGUMENTS,
        /** An answer cut short, finish reason {@code LENGTH}. */
        TRUNCATED,
        /** The call fails after streaming part of its answer. */
        MID_STREAM_FAILURE
    }

    /**
     * One injected fault.
     *
     * @param fault     what was injected
     * @param requestId the request id of the call's context
     * @param seed      the request's sampling seed, when it has one (tells replicas of a redundant call apart)
     * @param code      the error the call fails with, for {@link Fault#FAILURE} and {@link Fault#MID_STREAM_FAILURE}
     * @param latency   the added wait, for {@link Fault#LATENCY}; zero otherwise
     */
    public record Injection(Fault fault, String requestId, OptionalLong seed, Optional<ErrorCode> code,
                            Duration latency) {
        public Injection {
            Objects.requireNonNull(fault, "fault");
            Objects.requireNonNull(requestId, "requestId");
            Objects.requireNonNull(seed, "seed");
            Objects.requireNonNull(code, "code");
            Objects.requireNonNull(latency, "latency");
        }
    }

    /**
     * The default failure codes: real codes of each failure category, the ones an engine (or a server in front of
     * it) can plausibly report.
     */
    public static final List<ErrorCode> DEFAULT_FAILURE_CODES = List.of(
            ErrorCode.INFERENCE_ENGINE_ERROR,
            ErrorCode.INFERENCE_SATURATED,
            ErrorCode.INFERENCE_MODEL_UNAVAILABLE,
            ErrorCode.INFERENCE_CONTEXT_EXCEEDED,
            ErrorCode.INFERENCE_MALFORMED_RESPONSE,
            ErrorCode.TOOL_UNAVAILABLE,
            ErrorCode.CONSTRAINT_GRAMMAR_REJECTED,
            ErrorCode.VALIDATION_SEMANTIC_FAILED,
            ErrorCode.ORCHESTRATION_CONCURRENT_USE,
            ErrorCode.CONFIG_UNSUPPORTED_CAPABILITY,
            ErrorCode.CANCELLED_SIGNAL);

    /** The name of the tool an {@link Fault#UNKNOWN_TOOL} answer calls (never offered by a sane request). */
    public static final String UNKNOWN_TOOL_NAME = "chaos_unknown_tool";
    /** The only argument of a {@link Fault#BROKEN_ARGUMENTS} call. */
    public static final String BROKEN_ARGUMENT_NAME = "chaos_unexpected_argument";

    private final Random random;
    private final double latencyProbability;
    private final Duration minLatency;
    private final Duration maxLatency;
    private final Map<Fault, Double> probabilities;
    private final List<ErrorCode> failureCodes;
    private final List<ErrorCode> midStreamCodes;
    private final @Nullable Consumer<Injection> listener;
    private final AtomicLong calls = new AtomicLong();
    private final AtomicLong callIds = new AtomicLong();
    private final Map<Fault, AtomicLong> counts = new EnumMap<>(Fault.class);

    private ChaosEngine(Builder builder) {
        super(builder.delegate);
        this.random = new Random(builder.seed);
        this.latencyProbability = builder.latencyProbability;
        this.minLatency = builder.minLatency;
        this.maxLatency = builder.maxLatency;
        this.probabilities = new EnumMap<>(builder.probabilities);
        this.failureCodes = List.copyOf(builder.failureCodes);
        this.midStreamCodes = List.copyOf(builder.midStreamCodes);
        this.listener = builder.listener;
        for (Fault fault : Fault.values()) {
            counts.put(fault, new AtomicLong());
        }
    }

    /** Starts building; a delegate is required, every probability is 0 by default. */
    public static Builder builder() {
        return new Builder();
    }

    /** Runs the call with the faults drawn for it, streaming to the handler. */
    @Override
    public Result infer(CallContext context, Request request, StreamHandler handler) {
        requireOpen(context, request, handler);
        context.throwIfDone();
        modelInfo().requireSupported(request);
        calls.incrementAndGet();
        Draw draw = draw();
        if (draw.latency != null) {
            report(Fault.LATENCY, context, request, null, draw.latency);
            context.sleep(draw.latency);
        }
        Fault fault = applicable(draw.fault, request);
        if (fault == null) {
            return delegate.infer(context, request, handler);
        }
        switch (fault) {
            case FAILURE -> {
                ErrorCode code = failureCodes.get(draw.index % failureCodes.size());
                report(fault, context, request, code, Duration.ZERO);
                throw PaganticException.builder(code, "chaos: injected " + code + " from model '"
                        + modelInfo().name() + "'").detail("chaos", true).build();
            }
            case MID_STREAM_FAILURE -> {
                ErrorCode code = midStreamCodes.get(draw.index % midStreamCodes.size());
                report(fault, context, request, code, Duration.ZERO);
                return failMidStream(context, request, handler, code, 1 + draw.index % 3);
            }
            default -> {
                report(fault, context, request, null, Duration.ZERO);
                Result answer = delegate.infer(context, request, StreamHandler.NOOP);
                return stream(context, transform(fault, answer, request, draw.fraction), handler);
            }
        }
    }

    /** Admitted calls so far, with or without a fault. */
    public long callCount() {
        return calls.get();
    }

    /** How many times the fault has been injected so far. */
    public long count(Fault fault) {
        return counts.get(Objects.requireNonNull(fault, "fault")).get();
    }

    @Override
    public String toString() {
        return "ChaosEngine[calls=" + calls.get() + ", probabilities=" + probabilities + ", latency="
                + latencyProbability + ", delegate=" + delegate + "]";
    }

    // ------------------------------------------------------------------------------------------------------ faults

    /** Everything random about one call, drawn at once so that a sequential run is reproducible. */
    private record Draw(@Nullable Duration latency, @Nullable Fault fault, int index, double fraction) {
    }

    private Draw draw() {
        synchronized (random) {
            Duration latency = null;
            if (random.nextDouble() < latencyProbability) {
                long span = maxLatency.toNanos() - minLatency.toNanos();
                latency = minLatency.plusNanos(span <= 0 ? 0 : (long) (random.nextDouble() * span));
            }
            double roll = random.nextDouble();
            Fault fault = null;
            double cumulative = 0;
            for (Map.Entry<Fault, Double> entry : probabilities.entrySet()) {
                cumulative += entry.getValue();
                if (roll < cumulative) {
                    fault = entry.getKey();
                    break;
                }
            }
            return new Draw(latency, fault, random.nextInt(Integer.MAX_VALUE), random.nextDouble());
        }
    }

    /** The fault if it applies to the request; null for none. */
    private static @Nullable Fault applicable(@Nullable Fault fault, Request request) {
        if (fault == null) {
            return null;
        }
        return switch (fault) {
            case MALFORMED_JSON -> request.schema().isPresent() || request.hasGrammar() ? fault : null;
            case UNKNOWN_TOOL, BROKEN_ARGUMENTS -> request.tools().isEmpty() ? null : fault;
            default -> fault;
        };
    }

    private void report(Fault fault, CallContext context, Request request, @Nullable ErrorCode code,
            Duration latency) {
        counts.get(fault).incrementAndGet();
        if (listener != null) {
            listener.accept(new Injection(fault, context.requestId(), request.settings().seed(),
                    Optional.ofNullable(code), latency));
        }
    }

    private Result failMidStream(CallContext context, Request request, StreamHandler handler, ErrorCode code,
                                 int deltas) {
        PaganticException dropped = PaganticException.builder(code, "chaos: connection to model '"
                + modelInfo().name() + "' lost after " + deltas + " streamed delta(s)").detail("chaos", true).build();
        int[] streamed = {0};
        StreamHandler cutting = new StreamHandler() {
            @Override
            public void onContent(String delta) {
                if (streamed[0]++ >= deltas) {
                    throw dropped;
                }
                handler.onContent(delta);
            }

            @Override
            public void onReasoning(String delta) {
                if (streamed[0]++ >= deltas) {
                    throw dropped;
                }
                handler.onReasoning(delta);
            }
        };
        delegate.infer(context, request, cutting);
        // the answer was shorter than the cut: the connection drops before the end of the response instead
        throw dropped;
    }

    private Result transform(Fault fault, Result answer, Request request, double fraction) {
        return switch (fault) {
            case MALFORMED_JSON -> {
                String content = answer.content();
                String broken = content.substring(0, (int) (content.length() * fraction * 0.9)) + "\",}{ <chaos";
                yield Result.builder().content(broken).reasoning(answer.reasoning()).usage(answer.usage()).build();
            }
            case UNKNOWN_TOOL -> toolCall(answer, ToolCall.of(nextCallId(), UNKNOWN_TOOL_NAME, Map.of("q", "?")));
            case BROKEN_ARGUMENTS -> {
                List<ToolDefinition> tools = request.tools();
                ToolDefinition tool = tools.get((int) (fraction * tools.size()) % tools.size());
                yield toolCall(answer, ToolCall.of(nextCallId(), tool.name(),
                        Map.of(BROKEN_ARGUMENT_NAME, List.of(1, 2, 3))));
            }
            case TRUNCATED -> {
                WordText content = WordText.of(answer.content());
                WordText kept = content.firstWords((int) (content.words() * fraction));
                if (kept.words() == content.words() && content.words() > 0) {
                    kept = content.firstWords(content.words() - 1);
                }
                yield Result.builder().content(kept.text()).reasoning(answer.reasoning()).usage(answer.usage())
                        .finishReason(FinishReason.LENGTH).build();
            }
            default -> throw new IllegalStateException("not a transforming fault: " + fault);
        };
    }

    private static Result toolCall(Result answer, ToolCall call) {
        return Result.builder().reasoning(answer.reasoning()).toolCalls(List.of(call)).usage(answer.usage()).build();
    }

    private String nextCallId() {
        return "chaos_call_" + callIds.incrementAndGet();
    }

    /** Streams a transformed answer as a streaming engine would, word by word between cancellation checks. */
    private Result stream(CallContext context, Result result, StreamHandler handler) {
        boolean streaming = modelInfo().supports(Capability.STREAMING);
        if (!streaming) {
            context.throwIfDone();
            return StreamHandler.deliverWhole(result, handler);
        }
        for (String piece : WordText.of(result.reasoning()).pieces()) {
            context.throwIfDone();
            handler.onReasoning(piece);
        }
        for (String piece : WordText.of(result.content()).pieces()) {
            context.throwIfDone();
            handler.onContent(piece);
        }
        for (ToolCall call : result.toolCalls()) {
            context.throwIfDone();
            handler.onToolCall(call);
        }
        return result;
    }

    // ------------------------------------------------------------------------------------------------------ builder

    /** Builds a {@link ChaosEngine}; {@link #build()} throws {@code CONFIG_INVALID} on a bad setting. */
    public static final class Builder {
        private @Nullable Engine delegate;
        private long seed = 1;
        private double latencyProbability;
        private Duration minLatency = Duration.ZERO;
        private Duration maxLatency = Duration.ZERO;
        private final Map<Fault, Double> probabilities = new EnumMap<>(Fault.class);
        private List<ErrorCode> failureCodes = DEFAULT_FAILURE_CODES;
        private List<ErrorCode> midStreamCodes = List.of(ErrorCode.INFERENCE_ENGINE_ERROR);
        private @Nullable Consumer<Injection> listener;

        private Builder() {
        }

        /** The engine that answers (required). */
        public Builder delegate(Engine engine) {
            this.delegate = Objects.requireNonNull(engine, "delegate");
            return this;
        }

        /** The seed of the random draws; default 1. */
        public Builder seed(long value) {
            this.seed = value;
            return this;
        }

        /** With this probability, wait a uniform time in [min, max] before the call; default never. */
        public Builder latency(double probability, Duration min, Duration max) {
            this.latencyProbability = probability;
            this.minLatency = min;
            this.maxLatency = max;
            return this;
        }

        /** The probability of {@link Fault#FAILURE}; default 0. */
        public Builder failure(double probability) {
            return probability(Fault.FAILURE, probability);
        }

        /** The probability of {@link Fault#MALFORMED_JSON}; default 0. */
        public Builder malformed(double probability) {
            return probability(Fault.MALFORMED_JSON, probability);
        }

        /** The probability of {@link Fault#UNKNOWN_TOOL}; default 0. */
        public Builder unknownTool(double probability) {
            return probability(Fault.UNKNOWN_TOOL, probability);
        }

        /** The probability of {@link Fault#BROKEN_ARGUMENTS}; default 0. */
        public Builder brokenArguments(double probability) {
            return probability(Fault.BROKEN_ARGUMENTS, probability);
        }

        /** The probability of {@link Fault#TRUNCATED}; default 0. */
        public Builder truncation(double probability) {
            return probability(Fault.TRUNCATED, probability);
        }

        /** The probability of {@link Fault#MID_STREAM_FAILURE}; default 0. */
        public Builder midStreamFailure(double probability) {
            return probability(Fault.MID_STREAM_FAILURE, probability);
        }

        /** The codes {@link Fault#FAILURE} picks from, uniformly; default {@link #DEFAULT_FAILURE_CODES}. */
        public Builder failureCodes(ErrorCode... codes) {
            this.failureCodes = List.of(codes);
            return this;
        }

        /** The codes {@link Fault#MID_STREAM_FAILURE} picks from, uniformly; default {@code INFERENCE_ENGINE_ERROR}. */
        public Builder midStreamCodes(ErrorCode... codes) {
            this.midStreamCodes = List.of(codes);
            return this;
        }

        /** Receives every injected fault, on the calling thread, before it takes effect; none by default. */
        public Builder listener(Consumer<Injection> value) {
            this.listener = value;
            return this;
        }

        private Builder probability(Fault fault, double probability) {
            probabilities.put(fault, probability);
            return this;
        }

        /** Validates the settings and builds the engine. */
        public ChaosEngine build() {
            Config.require(delegate != null, "a ChaosEngine needs a delegate engine");
            Config.require(isProbability(latencyProbability), "latency probability must be within [0, 1]: "
                    + latencyProbability);
            Config.requireNonNegative(minLatency, "minLatency");
            Config.requireNonNegative(maxLatency, "maxLatency");
            Config.require(maxLatency.compareTo(minLatency) >= 0, "maxLatency must not be below minLatency: "
                    + maxLatency + " < " + minLatency);
            double total = 0;
            for (Map.Entry<Fault, Double> entry : probabilities.entrySet()) {
                Config.require(isProbability(entry.getValue()), entry.getKey() + " probability must be within"
                        + " [0, 1]: " + entry.getValue());
                total += entry.getValue();
            }
            Config.require(total <= 1.0 + 1e-9, "the exclusive fault probabilities add up to more than 1: " + total);
            Config.require(!failureCodes.isEmpty(), "failureCodes must not be empty");
            Config.require(!midStreamCodes.isEmpty(), "midStreamCodes must not be empty");
            return new ChaosEngine(this);
        }

        private static boolean isProbability(double value) {
            return value >= 0 && value <= 1;
        }
    }
}
