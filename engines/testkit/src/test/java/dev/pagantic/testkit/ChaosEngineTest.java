package dev.pagantic.testkit;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.pagantic.core.CallContext;
import dev.pagantic.core.ErrorCode;
import dev.pagantic.core.FinishReason;
import dev.pagantic.core.PaganticException;
import dev.pagantic.core.Schema;
import dev.pagantic.core.ToolDefinition;
import dev.pagantic.inference.Capability;
import dev.pagantic.inference.Request;
import dev.pagantic.inference.Result;
import dev.pagantic.inference.StreamHandler;
import dev.pagantic.testkit.ChaosEngine.Fault;
import dev.pagantic.testkit.ChaosEngine.Injection;
import java.time.Duration;
import java.util.ArrayList;
import java.util.EnumSet;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.function.Function;
import org.junit.jupiter.api.Test;

class ChaosEngineTest {

    private static final ToolDefinition LOOKUP = ToolDefinition.of("lookup", "Looks a key up.",
            Schema.object().required("key", Schema.string()).build());

    /** A delegate that answers every call the same, forever. */
    private static ScriptedEngine answering(int calls, Function<Request, Result> answer) {
        ScriptedEngine.Builder builder = ScriptedEngine.builder()
                .capabilities(Capability.TOOLS, Capability.STREAMING, Capability.TOKEN_COUNTING, Capability.SCHEMA);
        for (int i = 0; i < calls; i++) {
            builder.replyWith(answer);
        }
        return builder.build();
    }

    private static Result text(String content) {
        return Result.builder().content(content).build();
    }

    @Test
    void aFailureProbabilityOfOneFailsEveryCallWithAConfiguredCodeAndReportsIt() {
        List<Injection> seen = new ArrayList<>();
        ChaosEngine engine = ChaosEngine.builder().delegate(answering(0, r -> text("x"))).failure(1)
                .failureCodes(ErrorCode.TOOL_UNAVAILABLE).listener(seen::add).build();
        CallContext ctx = CallContext.builder().requestId("req-1").build();

        assertThatThrownBy(() -> engine.infer(ctx, Request.of("hi")))
                .isInstanceOfSatisfying(PaganticException.class,
                        e -> assertThat(e.code()).isEqualTo(ErrorCode.TOOL_UNAVAILABLE));
        assertThat(seen).singleElement().satisfies(injection -> {
            assertThat(injection.fault()).isEqualTo(Fault.FAILURE);
            assertThat(injection.requestId()).isEqualTo("req-1");
            assertThat(injection.code()).contains(ErrorCode.TOOL_UNAVAILABLE);
        });
        assertThat(engine.count(Fault.FAILURE)).isEqualTo(1);
    }

    @Test
    void theDefaultFailureCodesCoverEveryFailureCategory() {
        assertThat(ChaosEngine.DEFAULT_FAILURE_CODES.stream().map(ErrorCode::category).distinct())
                .containsExactlyInAnyOrder(dev.pagantic.core.FailureCategory.values());
    }

    @Test
    void malformedJsonIsOnlyInjectedIntoStructuredRequests() {
        ChaosEngine engine = ChaosEngine.builder().delegate(answering(2, r -> text("{\"a\": \"b c d\"}")))
                .malformed(1).build();
        Request plain = Request.of("hi");
        Request structured = plain.toBuilder().schema(Schema.object().required("a", Schema.string()).build())
                .build();

        assertThat(engine.infer(plain).content()).isEqualTo("{\"a\": \"b c d\"}");
        String broken = engine.infer(structured).content();
        assertThat(broken).isNotEqualTo("{\"a\": \"b c d\"}").contains("<chaos");
        assertThat(engine.count(Fault.MALFORMED_JSON)).isEqualTo(1);
    }

    @Test
    void unknownToolAndBrokenArgumentFaultsCallToolsThatCannotRun() {
        Request withTools = Request.builder().addMessage(dev.pagantic.core.Message.user("hi")).addTool(LOOKUP)
                .build();
        ChaosEngine unknown = ChaosEngine.builder().delegate(answering(1, r -> text("fine"))).unknownTool(1).build();
        ChaosEngine broken = ChaosEngine.builder().delegate(answering(1, r -> text("fine"))).brokenArguments(1)
                .build();

        Result calledUnknown = unknown.infer(withTools);
        Result calledBroken = broken.infer(withTools);

        assertThat(calledUnknown.toolCalls()).singleElement()
                .satisfies(call -> assertThat(call.name()).isEqualTo(ChaosEngine.UNKNOWN_TOOL_NAME));
        assertThat(calledUnknown.finishReason()).isEqualTo(FinishReason.TOOL_CALLS);
        assertThat(calledBroken.toolCalls()).singleElement().satisfies(call -> {
            assertThat(call.name()).isEqualTo("lookup");
            assertThat(call.arguments()).containsOnlyKeys(ChaosEngine.BROKEN_ARGUMENT_NAME);
        });
    }

    @Test
    void aTruncatedAnswerIsAStrictPrefixWithoutToolCallsAndStreamsExactlyItsContent() {
        ChaosEngine engine = ChaosEngine.builder().delegate(answering(1, r -> text("one two three four five")))
                .truncation(1).seed(3).build();
        StringBuilder streamed = new StringBuilder();

        Result result = engine.infer(CallContext.background(), Request.of("count"),
                StreamHandler.onContent(streamed::append));

        assertThat(result.finishReason()).isEqualTo(FinishReason.LENGTH);
        assertThat("one two three four five").startsWith(result.content());
        assertThat(result.content()).isNotEqualTo("one two three four five");
        assertThat(streamed.toString()).isEqualTo(result.content());
    }

    @Test
    void aMidStreamFailureStreamsSomeDeltasAndThenFails() {
        ChaosEngine engine = ChaosEngine.builder()
                .delegate(answering(1, r -> text("a b c d e f g h i j")))
                .midStreamFailure(1).midStreamCodes(ErrorCode.INFERENCE_SATURATED).build();
        List<String> deltas = new CopyOnWriteArrayList<>();

        assertThatThrownBy(() -> engine.infer(CallContext.background(), Request.of("go"),
                StreamHandler.onContent(deltas::add)))
                .isInstanceOfSatisfying(PaganticException.class,
                        e -> assertThat(e.code()).isEqualTo(ErrorCode.INFERENCE_SATURATED));
        assertThat(deltas).hasSizeBetween(1, 3);
    }

    @Test
    void latencyEndsAtTheDeadlineWithCancelledTimeout() {
        ChaosEngine engine = ChaosEngine.builder().delegate(answering(1, r -> text("late")))
                .latency(1, Duration.ofSeconds(5), Duration.ofSeconds(5)).build();
        CallContext ctx = CallContext.builder().timeout(Duration.ofMillis(50)).build();
        long started = System.nanoTime();

        assertThatThrownBy(() -> engine.infer(ctx, Request.of("hi")))
                .isInstanceOfSatisfying(PaganticException.class,
                        e -> assertThat(e.code()).isEqualTo(ErrorCode.CANCELLED_TIMEOUT));
        assertThat(Duration.ofNanos(System.nanoTime() - started)).isLessThan(Duration.ofSeconds(4));
    }

    @Test
    void theSameSeedGivesTheSameFaultsForTheSameSequenceOfCalls() {
        assertThat(faults(99)).isEqualTo(faults(99)).isNotEqualTo(faults(100));
    }

    private static List<Fault> faults(long seed) {
        List<Fault> faults = new ArrayList<>();
        ChaosEngine engine = ChaosEngine.builder().delegate(answering(200, r -> text("a b c"))).seed(seed)
                .failure(0.2).truncation(0.2).midStreamFailure(0.2)
                .listener(injection -> faults.add(injection.fault())).build();
        for (int i = 0; i < 200; i++) {
            try {
                engine.infer(Request.of("call " + i));
            } catch (PaganticException expected) {
                // injected
            }
        }
        return faults;
    }

    @Test
    void invalidSettingsAreRefusedAtBuild() {
        for (Function<ChaosEngine.Builder, ChaosEngine.Builder> bad : List.<Function<ChaosEngine.Builder,
                ChaosEngine.Builder>>of(
                b -> b.failure(1.5),
                b -> b.failure(0.6).truncation(0.6),
                b -> b.latency(0.5, Duration.ofMillis(5), Duration.ofMillis(1)),
                b -> b.latency(-0.1, Duration.ZERO, Duration.ZERO),
                b -> b.failureCodes())) {
            assertThatThrownBy(() -> bad.apply(ChaosEngine.builder().delegate(EchoEngine.create())).build())
                    .isInstanceOfSatisfying(PaganticException.class,
                            e -> assertThat(e.code()).isEqualTo(ErrorCode.CONFIG_INVALID));
        }
        assertThatThrownBy(() -> ChaosEngine.builder().build()).isInstanceOf(PaganticException.class);
        assertThat(EnumSet.allOf(Fault.class)).hasSize(7);
    }
}
