package dev.pagantic.tck;

import static dev.pagantic.tck.ContractAssertions.assertAssistantMessageCarries;
import static dev.pagantic.tck.ContractAssertions.assertCode;
import static dev.pagantic.tck.ContractAssertions.assertFinishedNormally;
import static dev.pagantic.tck.ContractAssertions.assumeDeclares;
import static dev.pagantic.tck.ContractAssertions.await;
import static dev.pagantic.tck.StreamRecorder.onEveryDelta;
import static org.junit.jupiter.api.Assertions.assertDoesNotThrow;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTimeoutPreemptively;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeFalse;

import dev.pagantic.core.CallContext;
import dev.pagantic.core.Cancellation;
import dev.pagantic.core.ErrorCode;
import dev.pagantic.core.FailureCategory;
import dev.pagantic.core.FinishReason;
import dev.pagantic.core.Message;
import dev.pagantic.core.PaganticException;
import dev.pagantic.core.Schema;
import dev.pagantic.core.TokenUsage;
import dev.pagantic.core.ToolCall;
import dev.pagantic.core.ToolDefinition;
import dev.pagantic.inference.Capability;
import dev.pagantic.inference.Engine;
import dev.pagantic.inference.ModelInfo;
import dev.pagantic.inference.Request;
import dev.pagantic.inference.Result;
import dev.pagantic.inference.StreamHandler;
import dev.pagantic.inference.TokenCounter;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.EnumMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.function.Executable;
import org.junit.jupiter.api.function.ThrowingSupplier;

/**
 * The Engine contract test kit: every {@link Engine} implementation's tests extend this class and so check the SPI's
 * contract case by case (failures are {@link PaganticException}s, cancellation and deadlines are honoured before and
 * during a call, {@code maxTokens} bounds the output, usage is reported, undeclared capabilities are refused, ...).
 *
 * <pre>{@code
 * class LlamaCppEngineContractTest extends EngineContractTest {
 *     @Override
 *     protected Engine createEngine(Scenario scenario) {
 *         if (scenario == Scenario.BACKEND_FAILURE) {
 *             return LlamaCppEngine.builder().modelPath(Path.of("missing.gguf")).build();
 *         }
 *         return LlamaCppEngine.builder().modelPath(TINY_MODEL).build();   // a real model ignores the scenario
 *     }
 *
 *     @Override
 *     protected Duration generousTimeout() {
 *         return Duration.ofMinutes(2);   // CPU inference is slow; this only guards against hangs
 *     }
 * }
 * }</pre>
 *
 * <p>Each case asks {@link #createEngine} for an engine suited to its {@link Scenario}: a scripted engine scripts what
 * the scenario needs, a real engine mostly ignores it. Every engine created in a case is closed after the case. A
 * subclass that cannot produce a scenario (a hosted API whose failure cannot be provoked) calls
 * {@code Assumptions.abort("why")} in {@code createEngine}, which reports the case as skipped rather than passed.
 * Cases about optional capabilities (streaming, tools, grammar) are skipped when the engine does not declare them.
 *
 * <p>Timing: the kit never asserts speed. Calls that should end promptly run under a hang guard of
 * {@link #generousTimeout()}, so a broken engine fails its case instead of hanging the build.
 *
 * <p>Why this file is longer than 500 lines: the kit is one base class on purpose. JUnit runs the cases an engine's
 * test class inherits, so every case lives here, and an engine's author extends one class and overrides one method
 * to check the whole contract; the cases' shared checks and stream recorder live beside it.
 */
public abstract class EngineContractTest {

    /** The tool the {@link Scenario#TOOL_CALL} case offers; a scripted engine should script a call to it. */
    public static final ToolDefinition CONTRACT_TOOL = ToolDefinition.of("get_weather",
            "Returns the current weather for a city.",
            Schema.object().required("city", Schema.string().withDescription("the city's name")).build());

    /** The grammar of the {@link Scenario#GRAMMAR} case: the output must be exactly {@code yes} or {@code no}. */
    public static final String YES_NO_GRAMMAR = "root ::= \"yes\" | \"no\"";

    private static final String SYSTEM_PROMPT = "You are a concise assistant. Answer in one short sentence.";
    private static final Schema ANSWER_SCHEMA = Schema.object().required("answer", Schema.string()).build();
    /** The seed of the {@link Scenario#SEED} case. */
    private static final long SEED = 42;
    /** Deltas an engine may deliver after a cancellation: a token or two may already be decoded or buffered. */
    private static final int LATE_DELTA_ALLOWANCE = 2;

    private final List<Engine> engines = new ArrayList<>();

    /** For subclasses. */
    protected EngineContractTest() {
    }

    /**
     * What a case needs from the engine. A scripted engine scripts the reply described here; a real engine can
     * ignore the scenario except where noted (it must answer {@link #baseRequest(Scenario)}'s prompt as described).
     */
    public enum Scenario {
        /** A short plain-text reply. */
        SIMPLE_COMPLETION,
        /** A short plain-text reply to a system message followed by a user message. */
        SYSTEM_AND_USER,
        /** A reply longer than {@link #smallMaxTokens()} tokens, so that the limit has to cut it. */
        MAX_TOKENS,
        /** A short plain-text reply, whose usage is checked. */
        USAGE,
        /** A reply of several tokens (and, optionally, reasoning), whose streamed deltas are checked. */
        STREAMING,
        /** Any reply: the call is cancelled, or its deadline has passed, before it starts. */
        CANCEL_BEFORE,
        /**
         * A long reply (at least about 50 tokens): the call is cancelled, or its deadline passes, while the reply is
         * being generated. A non-streaming engine must still be generating {@link #cancelDelay()} after it starts.
         */
        CANCEL_DURING,
        /**
         * A call that takes well over {@link #shortDeadline()} unless stopped, without anyone cancelling it: a long
         * generation, or a slow fake such as a {@code SlowEngine} of the testkit.
         */
        DEADLINE,
        /** A reply that calls {@link #CONTRACT_TOOL}; used only if the engine declares {@link Capability#TOOLS}. */
        TOOL_CALL,
        /** A reply honouring {@link #YES_NO_GRAMMAR}; used only if the engine declares {@link Capability#GRAMMAR}. */
        GRAMMAR,
        /**
         * A reply sampled at temperature 1 with a fixed seed; used only if the engine declares {@link Capability#SEED}.
         * The case creates two engines for this scenario and expects the same reply from both.
         */
        SEED,
        /**
         * A reply of several words; used only if the engine declares {@link Capability#STOP}. The case sets a space as
         * the stop string, so the reply must end before its first space.
         */
        STOP,
        /** Any reply: requests needing capabilities the engine does not declare must be refused before it answers. */
        UNDECLARED_CAPABILITY,
        /** An engine whose backend fails (a server error, a missing model, a native failure). */
        BACKEND_FAILURE,
        /** Any reply: the engine is closed before it is called. */
        CLOSED,
        /** Any engine: only its model info and token counter are checked. */
        MODEL_INFO
    }

    /**
     * Creates the engine for one case. Return a new engine each time; the kit closes it after the case. Call
     * {@code Assumptions.abort(reason)} to skip a scenario the engine cannot produce.
     */
    protected abstract Engine createEngine(Scenario scenario);

    /**
     * The request a case starts from, before the kit adds what the case checks (a system message, tools, a grammar,
     * a small {@code maxTokens}). Override to adapt prompts or sampling to a real model; keep one user message.
     */
    protected Request.Builder baseRequest(Scenario scenario) {
        return switch (scenario) {
            case MAX_TOKENS -> prompt("Count from one to fifty in words, separated by spaces.", 256);
            case CANCEL_DURING, DEADLINE -> prompt("Count from 1 to 500, separated by spaces.", 2048);
            case TOOL_CALL -> prompt("What is the weather in Paris right now? Use the get_weather tool.", 256);
            case GRAMMAR -> prompt("Is the sky blue on a clear day? Answer yes or no.", 16);
            case SEED -> prompt("Tell a very short story.", 16);
            default -> prompt("Say hello to the user in one short sentence.", 64);
        };
    }

    /** The {@code maxTokens} of the {@link Scenario#MAX_TOKENS} case; default 5. */
    protected int smallMaxTokens() {
        return 5;
    }

    /** The deadline of the {@link Scenario#DEADLINE} case; default 200 ms. */
    protected Duration shortDeadline() {
        return Duration.ofMillis(200);
    }

    /** How long after the start a non-streaming engine is cancelled from another thread; default 100 ms. */
    protected Duration cancelDelay() {
        return Duration.ofMillis(100);
    }

    /** The hang guard: how long a call may take before its case fails as hung; default 15 s. Not a speed limit. */
    protected Duration generousTimeout() {
        return Duration.ofSeconds(15);
    }

    /** Closes every engine the case created. */
    @AfterEach
    public final void closeTheEnginesOfTheCase() {
        RuntimeException failure = null;
        for (Engine engine : engines) {
            try {
                engine.close();
            } catch (RuntimeException e) {
                if (failure == null) {
                    failure = e;
                } else {
                    failure.addSuppressed(e);
                }
            }
        }
        engines.clear();
        if (failure != null) {
            throw failure;
        }
    }

    // ---------------------------------------------------------------------------------------------------- completion

    /** A plain request is answered, and the answer is also the assistant message the call adds. */
    @Test
    @DisplayName("a simple completion returns content, a normal finish reason and the assistant message")
    public final void simpleCompletionReturnsContentAndTheAssistantMessage() {
        Engine engine = engine(Scenario.SIMPLE_COMPLETION);
        Result result = call(engine, baseRequest(Scenario.SIMPLE_COMPLETION).build());
        assertFalse(result.content().isBlank(), "a simple completion should return content");
        assertFinishedNormally(result);
        assertAssistantMessageCarries(result);
    }

    /** A system message followed by a user message is a valid conversation and is answered. */
    @Test
    @DisplayName("system and user messages are accepted and answered")
    public final void systemAndUserMessagesAreAcceptedAndAnswered() {
        Engine engine = engine(Scenario.SYSTEM_AND_USER);
        Request base = baseRequest(Scenario.SYSTEM_AND_USER).build();
        List<Message> messages = new ArrayList<>();
        messages.add(Message.system(SYSTEM_PROMPT));
        messages.addAll(base.messages());
        Result result = call(engine, base.toBuilder().messages(messages).build());
        assertFalse(result.content().isBlank(), "a system and user conversation should be answered with content");
        assertFinishedNormally(result);
        assertAssistantMessageCarries(result);
    }

    /** {@code maxTokens} bounds the generated tokens, and a reply it cut reports LENGTH. */
    @Test
    @DisplayName("max tokens bounds the output and a cut reply finishes with LENGTH")
    public final void maxTokensBoundsTheOutputAndACutReplyFinishesWithLength() {
        Engine engine = engine(Scenario.MAX_TOKENS);
        int limit = smallMaxTokens();
        Result result = call(engine, baseRequest(Scenario.MAX_TOKENS).maxTokens(limit).build());
        assertTrue(result.usage().outputTokens() <= limit,
                () -> "output tokens " + result.usage().outputTokens() + " exceed maxTokens " + limit);
        assertEquals(FinishReason.LENGTH, result.finishReason(),
                "the MAX_TOKENS reply is longer than maxTokens, so the limit must cut it and report LENGTH");
    }

    /** Usage counts the prompt and the output and agrees with the model info. */
    @Test
    @DisplayName("usage is reported and consistent with the model info")
    public final void usageIsReportedAndConsistentWithTheModelInfo() {
        Engine engine = engine(Scenario.USAGE);
        Result result = call(engine, baseRequest(Scenario.USAGE).build());
        TokenUsage usage = result.usage();
        assertTrue(usage.promptTokens() > 0, () -> "prompt tokens must be counted: " + usage);
        if (!result.content().isBlank()) {
            assertTrue(usage.outputTokens() > 0, () -> "output tokens must be counted for non-empty content: " + usage);
        }
        if (usage.contextWindow() > 0) {
            assertEquals(engine.modelInfo().contextWindow(), usage.contextWindow(),
                    "the usage's context window must be the model info's");
            assertTrue(usage.contextWindow() >= usage.totalTokens(),
                    () -> "the call's tokens cannot exceed the context window: " + usage);
        }
        double rate = usage.tokensPerSecond();
        assertTrue(Double.isFinite(rate) && rate >= 0, () -> "tokens per second must be finite and >= 0: " + rate);
    }

    // ----------------------------------------------------------------------------------------------------- streaming

    /** Whatever the engine, the streamed pieces rebuild the final result exactly. */
    @Test
    @DisplayName("streamed deltas concatenate to the result's content, reasoning and tool calls")
    public final void streamedDeltasConcatenateToTheResult() {
        Engine engine = engine(Scenario.STREAMING);
        StreamRecorder recorder = new StreamRecorder();
        Result result = call(engine, baseRequest(Scenario.STREAMING).build(), recorder);
        assertEquals(result.content(), recorder.content(), "concatenated content deltas must equal the content");
        assertEquals(result.reasoning(), recorder.reasoning(),
                "concatenated reasoning deltas must equal the reasoning");
        assertEquals(result.toolCalls(), recorder.toolCalls(), "streamed tool calls must equal the result's");
    }

    /** An engine that declares STREAMING delivers output while generating, not once at the end. */
    @Test
    @DisplayName("a streaming engine delivers a multi-token reply in several deltas")
    public final void streamingEngineDeliversAMultiTokenReplyInSeveralDeltas() {
        Engine engine = engine(Scenario.STREAMING);
        assumeDeclares(engine, Capability.STREAMING);
        StreamRecorder recorder = new StreamRecorder();
        call(engine, baseRequest(Scenario.STREAMING).build(), recorder);
        assertTrue(recorder.contentDeltas().size() > 1,
                () -> "an engine declaring STREAMING must deliver the multi-token STREAMING reply in several deltas,"
                        + " got " + recorder.contentDeltas());
    }

    // ------------------------------------------------------------------------------------- cancellation and deadlines

    /** A context cancelled before the call stops it before anything is generated. */
    @Test
    @DisplayName("cancellation before a call fails it with CANCELLED_SIGNAL")
    public final void cancellationBeforeACallFailsWithCancelledSignal() {
        Engine engine = engine(Scenario.CANCEL_BEFORE);
        Cancellation cancellation = new Cancellation();
        cancellation.cancel("contract kit: cancelled before the call");
        CallContext context = CallContext.builder().cancellation(cancellation).build();
        StreamRecorder recorder = new StreamRecorder();
        PaganticException failure = expectFailure("a call with a cancelled context must fail",
                () -> engine.infer(context, baseRequest(Scenario.CANCEL_BEFORE).build(), recorder));
        assertCode(ErrorCode.CANCELLED_SIGNAL, failure);
        assertTrue(recorder.isEmpty(), () -> "nothing may be streamed for a cancelled call: " + recorder);
    }

    /** A context whose deadline has already passed stops the call before it starts. */
    @Test
    @DisplayName("a deadline that has already passed fails the call with CANCELLED_TIMEOUT")
    public final void deadlineAlreadyPassedFailsWithCancelledTimeout() {
        Engine engine = engine(Scenario.CANCEL_BEFORE);
        CallContext context = CallContext.builder().deadline(Instant.now().minusSeconds(1)).build();
        PaganticException failure = expectFailure("a call whose deadline has passed must fail",
                () -> engine.infer(context, baseRequest(Scenario.CANCEL_BEFORE).build()));
        assertCode(ErrorCode.CANCELLED_TIMEOUT, failure);
    }

    /** Cancellation is checked between tokens: cancelling on the first delta stops generation within a token or two. */
    @Test
    @DisplayName("cancellation during a streamed call stops it between tokens with CANCELLED_SIGNAL")
    public final void cancellationDuringAStreamedCallStopsItBetweenTokens() {
        Engine engine = engine(Scenario.CANCEL_DURING);
        assumeDeclares(engine, Capability.STREAMING);
        Cancellation cancellation = new Cancellation();
        CallContext context = CallContext.builder().cancellation(cancellation).build();
        AtomicInteger lateDeltas = new AtomicInteger();
        StreamHandler cancelOnFirstDelta = onEveryDelta(() -> {
            if (cancellation.isCancelled()) {
                lateDeltas.incrementAndGet();
            } else {
                cancellation.cancel("contract kit: cancelled on the first delta");
            }
        });
        PaganticException failure = expectFailure("a call cancelled while streaming must fail",
                () -> engine.infer(context, baseRequest(Scenario.CANCEL_DURING).build(), cancelOnFirstDelta));
        assertCode(ErrorCode.CANCELLED_SIGNAL, failure);
        assertTrue(lateDeltas.get() <= LATE_DELTA_ALLOWANCE,
                () -> lateDeltas.get() + " deltas arrived after the cancellation; cancellation must be checked"
                        + " between tokens");
    }

    /** A cancellation from another thread (a user pressing Ctrl-C) ends a running call promptly. */
    @Test
    @DisplayName("cancellation from another thread ends a running call with CANCELLED_SIGNAL")
    public final void cancellationFromAnotherThreadEndsARunningCall() throws InterruptedException {
        Engine engine = engine(Scenario.CANCEL_DURING);
        Cancellation cancellation = new Cancellation();
        CallContext context = CallContext.builder().cancellation(cancellation).build();
        CountDownLatch generating = new CountDownLatch(1);
        CountDownLatch cancelled = new CountDownLatch(1);
        Thread canceller = new Thread(() -> {
            try {
                // A streaming engine is cancelled at its first delta; a non-streaming one after cancelDelay().
                await(generating, cancelDelay());
                cancellation.cancel("contract kit: cancelled from another thread");
            } finally {
                cancelled.countDown();
            }
        }, "engine-contract-canceller");
        // The generating thread waits for the cancellation, so a fast engine cannot finish before it lands.
        StreamHandler pauseUntilCancelled = onEveryDelta(() -> {
            generating.countDown();
            await(cancelled, generousTimeout());
        });
        canceller.setDaemon(true);
        canceller.start();
        try {
            PaganticException failure = expectFailure("a call cancelled from another thread must fail (CANCEL_DURING"
                            + " must still be generating when the cancellation lands)",
                    () -> engine.infer(context, baseRequest(Scenario.CANCEL_DURING).build(), pauseUntilCancelled));
            assertCode(ErrorCode.CANCELLED_SIGNAL, failure);
        } finally {
            canceller.join(generousTimeout().toMillis());
        }
    }

    /** The deadline is checked between tokens: the context's clock jumps past it at the first delta. */
    @Test
    @DisplayName("a deadline passing between streamed tokens stops the call with CANCELLED_TIMEOUT")
    public final void deadlinePassingBetweenStreamedTokensStopsTheCall() {
        Engine engine = engine(Scenario.CANCEL_DURING);
        assumeDeclares(engine, Capability.STREAMING);
        AdjustableClock clock = new AdjustableClock(Instant.now());
        CallContext context = CallContext.builder().clock(clock).timeout(Duration.ofHours(1)).build();
        AtomicBoolean jumped = new AtomicBoolean();
        StreamHandler jumpPastTheDeadline = onEveryDelta(() -> {
            if (jumped.compareAndSet(false, true)) {
                clock.advance(Duration.ofHours(2));
            }
        });
        PaganticException failure = expectFailure("a call whose deadline passed while streaming must fail",
                () -> engine.infer(context, baseRequest(Scenario.CANCEL_DURING).build(), jumpPastTheDeadline));
        assertCode(ErrorCode.CANCELLED_TIMEOUT, failure);
    }

    /** A deadline passing while the engine works ends the call, without anyone cancelling it. */
    @Test
    @DisplayName("a deadline passing during a call fails it with CANCELLED_TIMEOUT")
    public final void deadlinePassingDuringACallFailsWithCancelledTimeout() {
        Engine engine = engine(Scenario.DEADLINE);
        CallContext context = CallContext.builder().timeout(shortDeadline()).build();
        PaganticException failure = expectFailure("a call running past its deadline must fail",
                () -> engine.infer(context, baseRequest(Scenario.DEADLINE).build()));
        assertCode(ErrorCode.CANCELLED_TIMEOUT, failure);
    }

    // ------------------------------------------------------------------------------------------------- capabilities

    /** Tools reach the model and its calls come back, complete and consistent, in the result and the stream. */
    @Test
    @DisplayName("tool definitions are passed and tool calls are returned")
    public final void toolDefinitionsArePassedAndToolCallsReturned() {
        Engine engine = engine(Scenario.TOOL_CALL);
        assumeDeclares(engine, Capability.TOOLS);
        StreamRecorder recorder = new StreamRecorder();
        Result result = call(engine, baseRequest(Scenario.TOOL_CALL).addTool(CONTRACT_TOOL).build(), recorder);
        assertFalse(result.toolCalls().isEmpty(), () -> "the TOOL_CALL reply must call the tool, got: " + result);
        Set<String> ids = new HashSet<>();
        for (ToolCall toolCall : result.toolCalls()) {
            assertEquals(CONTRACT_TOOL.name(), toolCall.name(), "only the offered tool may be called");
            assertTrue(ids.add(toolCall.id()), () -> "tool call ids must be unique within a result: " + ids);
        }
        assertEquals(FinishReason.TOOL_CALLS, result.finishReason(), "a reply with tool calls finishes TOOL_CALLS");
        assertAssistantMessageCarries(result);
        assertEquals(result.toolCalls(), recorder.toolCalls(), "streamed tool calls must equal the result's");
    }

    /** An engine that declares GRAMMAR constrains its output by the request's grammar. */
    @Test
    @DisplayName("a grammar constrains the output")
    public final void grammarConstrainsTheOutput() {
        Engine engine = engine(Scenario.GRAMMAR);
        assumeDeclares(engine, Capability.GRAMMAR);
        Result result = call(engine, baseRequest(Scenario.GRAMMAR).grammar(YES_NO_GRAMMAR).build());
        assertTrue(result.content().equals("yes") || result.content().equals("no"),
                () -> "the grammar allows exactly 'yes' or 'no', got '" + result.content() + "'");
    }

    /** An engine that declares SEED gives the same reply to the same request with the same seed, even when sampling. */
    @Test
    @DisplayName("the same seed gives the same reply")
    public final void theSameSeedGivesTheSameReply() {
        Engine first = engine(Scenario.SEED);
        assumeDeclares(first, Capability.SEED);
        Request request = baseRequest(Scenario.SEED).temperature(1.0).seed(SEED).build();
        Result one = call(first, request);
        Result two = call(engine(Scenario.SEED), request);
        assertEquals(one.content(), two.content(), "two calls with seed " + SEED + " must give the same reply");
    }

    /** An engine that declares STOP ends the reply before the first stop string it would produce. */
    @Test
    @DisplayName("a stop string ends the reply before it")
    public final void aStopStringEndsTheReplyBeforeIt() {
        Engine engine = engine(Scenario.STOP);
        assumeDeclares(engine, Capability.STOP);
        Result result = call(engine, baseRequest(Scenario.STOP).addStop(" ").build());
        assertFalse(result.content().contains(" "),
                () -> "the reply must end before the stop string ' ', got '" + result.content() + "'");
        assertEquals(FinishReason.STOP, result.finishReason(), "a reply ended by a stop string finishes with STOP");
    }

    /** A grammar, schema, tools, a seed or stop strings the engine does not declare are refused, never ignored. */
    @Test
    @DisplayName("requests needing undeclared capabilities are refused with CONFIG_UNSUPPORTED_CAPABILITY")
    public final void undeclaredCapabilitiesAreRefused() {
        Engine engine = engine(Scenario.UNDECLARED_CAPABILITY);
        ModelInfo info = engine.modelInfo();
        Request base = baseRequest(Scenario.UNDECLARED_CAPABILITY).build();
        Map<Capability, Request> probes = new EnumMap<>(Capability.class);
        probes.put(Capability.GRAMMAR, base.toBuilder().grammar(YES_NO_GRAMMAR).build());
        probes.put(Capability.SCHEMA, base.toBuilder().schema(ANSWER_SCHEMA).build());
        probes.put(Capability.TOOLS, base.toBuilder().addTool(CONTRACT_TOOL).build());
        probes.put(Capability.SEED, base.toBuilder().seed(SEED).build());
        probes.put(Capability.STOP, base.toBuilder().addStop("\n").build());
        probes.keySet().removeIf(info::supports);
        assumeFalse(probes.isEmpty(), "the engine declares GRAMMAR, SCHEMA, TOOLS, SEED and STOP");
        probes.forEach((capability, request) -> {
            PaganticException failure = expectFailure(
                    "a request needing undeclared " + capability + " must be refused", () -> engine.infer(request));
            assertCode(ErrorCode.CONFIG_UNSUPPORTED_CAPABILITY, failure);
        });
    }

    // --------------------------------------------------------------------------------------------- failure, lifecycle

    /** A failing backend surfaces as an inference failure, never as a raw exception. */
    @Test
    @DisplayName("a backend failure surfaces as a PaganticException of category INFERENCE")
    public final void backendFailureSurfacesAsAnInferenceFailure() {
        Engine engine = engine(Scenario.BACKEND_FAILURE);
        PaganticException failure = expectFailure("a failing backend must fail the call with a PaganticException",
                () -> engine.infer(CallContext.background(), baseRequest(Scenario.BACKEND_FAILURE).build()));
        assertEquals(FailureCategory.INFERENCE, failure.category(),
                () -> "a backend failure is an INFERENCE failure, got: " + failure.getMessage());
    }

    /** A closed engine refuses calls, and closing twice is harmless. */
    @Test
    @DisplayName("infer after close fails with INFERENCE_ENGINE_CLOSED")
    public final void inferAfterCloseFailsWithEngineClosed() {
        Engine engine = engine(Scenario.CLOSED);
        Request request = baseRequest(Scenario.CLOSED).build();
        engine.close();
        assertDoesNotThrow(engine::close, "closing twice must be harmless");
        assertCode(ErrorCode.INFERENCE_ENGINE_CLOSED, expectFailure("a closed engine must refuse calls",
                () -> engine.infer(CallContext.background(), request)));
        assertCode(ErrorCode.INFERENCE_ENGINE_CLOSED, expectFailure("a closed engine must refuse streaming calls",
                () -> engine.infer(CallContext.background(), request, StreamHandler.NOOP)));
    }

    /** The model info names the model and gives a valid window; the token counter counts. */
    @Test
    @DisplayName("the model info is sane and the token counter counts")
    public final void modelInfoIsSaneAndTheTokenCounterCounts() {
        Engine engine = engine(Scenario.MODEL_INFO);
        ModelInfo info = engine.modelInfo();
        assertNotNull(info, "modelInfo() must not return null");
        assertFalse(info.name().isBlank(), "the model name must not be blank");
        assertTrue(info.contextWindow() >= 0, "the context window must not be negative");
        TokenCounter counter = engine.tokenCounter();
        assertNotNull(counter, "tokenCounter() must not return null");
        assertTrue(counter.count("The quick brown fox jumps over the lazy dog.") > 0,
                "a sentence must count as at least one token");
    }

    // -------------------------------------------------------------------------------------------------------- helpers

    private Engine engine(Scenario scenario) {
        Engine engine = createEngine(scenario);
        assertNotNull(engine, () -> "createEngine(" + scenario + ") returned null");
        engines.add(engine);
        return engine;
    }

    private static Request.Builder prompt(String userMessage, int maxTokens) {
        return Request.builder().addMessage(Message.user(userMessage)).maxTokens(maxTokens);
    }

    private Result call(Engine engine, Request request) {
        return withinHangGuard(() -> engine.infer(CallContext.background(), request));
    }

    private Result call(Engine engine, Request request, StreamHandler handler) {
        return withinHangGuard(() -> engine.infer(CallContext.background(), request, handler));
    }

    private PaganticException expectFailure(String expectation, Executable call) {
        return withinHangGuard(() -> assertThrows(PaganticException.class, call, expectation));
    }

    private <T> T withinHangGuard(ThrowingSupplier<T> call) {
        return assertTimeoutPreemptively(generousTimeout(), call,
                () -> "hang guard: the call did not end within " + generousTimeout()
                        + " (override generousTimeout() for a slow engine)");
    }
}
