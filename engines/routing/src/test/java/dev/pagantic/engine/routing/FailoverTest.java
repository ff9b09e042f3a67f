package dev.pagantic.engine.routing;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.pagantic.core.CallContext;
import dev.pagantic.core.Cancellation;
import dev.pagantic.core.ErrorCode;
import dev.pagantic.core.PaganticException;
import dev.pagantic.inference.Capability;
import dev.pagantic.inference.Engine;
import dev.pagantic.inference.ModelInfo;
import dev.pagantic.inference.Request;
import dev.pagantic.inference.Result;
import dev.pagantic.inference.StreamHandler;
import dev.pagantic.testkit.FailingEngine;
import dev.pagantic.testkit.ScriptedEngine;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/**
 * The failover rule: a retryable inference failure before any output reached the caller is retried exactly once on
 * another replica; everything else propagates.
 */
class FailoverTest {

    private static final Request HELLO = Request.of("hello");

    @ParameterizedTest
    @EnumSource(names = {"INFERENCE_ENGINE_ERROR", "INFERENCE_SATURATED", "INFERENCE_MALFORMED_RESPONSE"})
    void aRetryableInferenceFailureIsRetriedOnceOnAnotherReplicaWhoseResultTheCallerGets(ErrorCode code) {
        FailingEngine first = FailingEngine.builder().failures(1).code(code)
                .delegate(ScriptedEngine.replying("from the first")).build();
        ScriptedEngine second = ScriptedEngine.replying("from the second");
        FakeReplica third = FakeReplica.named("third");
        RoutingEngine engine = RoutingEngine.builder().replicas(first, second, third).build();

        Result result = engine.infer(HELLO);

        assertThat(result.content()).isEqualTo("from the second");
        assertThat(first.callCount()).isEqualTo(1);
        assertThat(second.callCount()).isEqualTo(1);
        assertThat(third.calls()).isZero();
    }

    @Test
    void aRetryIsMadeOnlyOnceAndItsFailurePropagatesCarryingTheFirst() {
        FailingEngine first = FailingEngine.builder().failAlways().message("first is down").build();
        FailingEngine second = FailingEngine.builder().failAlways().code(ErrorCode.INFERENCE_SATURATED)
                .message("second is saturated").build();
        FailingEngine third = FailingEngine.builder().failAlways().build();
        RoutingEngine engine = RoutingEngine.builder().replicas(first, second, third).build();

        assertThatThrownBy(() -> engine.infer(HELLO))
                .isInstanceOfSatisfying(PaganticException.class, e -> {
                    assertThat(e.code()).isEqualTo(ErrorCode.INFERENCE_SATURATED);
                    assertThat(e.getSuppressed()).singleElement()
                            .satisfies(suppressed -> assertThat(suppressed).hasMessageContaining("first is down"));
                });
        assertThat(first.callCount() + second.callCount() + third.callCount()).isEqualTo(2);
        assertThat(third.callCount()).isZero();
    }

    @Test
    void replicasFailingWithTheSameExceptionInstanceFailTheCallWithIt() {
        PaganticException shared = PaganticException.of(ErrorCode.INFERENCE_ENGINE_ERROR, "the shared backend is down");
        RoutingEngine engine = RoutingEngine.builder()
                .replicas(ScriptedEngine.builder().fail(shared).build(), ScriptedEngine.builder().fail(shared).build())
                .build();

        assertThatThrownBy(() -> engine.infer(HELLO)).isSameAs(shared);
        assertThat(shared.getSuppressed()).isEmpty();
    }

    @ParameterizedTest
    @EnumSource(names = {"INFERENCE_CONTEXT_EXCEEDED", "INFERENCE_MODEL_UNAVAILABLE", "INFERENCE_ENGINE_CLOSED",
        "CONFIG_INVALID", "CONFIG_GRAMMAR_INVALID", "CONSTRAINT_GRAMMAR_REJECTED", "CANCELLED_SIGNAL",
        "CANCELLED_TIMEOUT"})
    void aFailureThatIsNotARetryableInferenceFailureIsNotRetried(ErrorCode code) {
        FailingEngine first = FailingEngine.builder().failures(1).code(code).build();
        FakeReplica second = FakeReplica.named("second");
        RoutingEngine engine = RoutingEngine.builder().replicas(first, second).build();

        assertThatThrownBy(() -> engine.infer(HELLO))
                .isInstanceOfSatisfying(PaganticException.class, e -> assertThat(e.code()).isEqualTo(code));
        assertThat(second.calls()).isZero();
        assertThat(engine.health().get(0).healthy()).as("only replica failures count against health").isTrue();
    }

    @Test
    void anInferenceFailureMarkedNotRetryableIsNotRetried() {
        FailingEngine first = FailingEngine.builder().failures(1).retryable(false).build();
        FakeReplica second = FakeReplica.named("second");
        RoutingEngine engine = RoutingEngine.builder().replicas(first, second).build();

        assertThatThrownBy(() -> engine.infer(HELLO))
                .isInstanceOfSatisfying(PaganticException.class, e -> {
                    assertThat(e.code()).isEqualTo(ErrorCode.INFERENCE_ENGINE_ERROR);
                    assertThat(e.retryable()).isFalse();
                });
        assertThat(second.calls()).isZero();
    }

    @Test
    void aRetryableFailureOfACallCancelledMeanwhileIsNotRetried() {
        Cancellation cancellation = new Cancellation();
        ScriptedEngine first = ScriptedEngine.builder().replyWith(request -> {
            cancellation.cancel("user pressed Ctrl-C");
            throw PaganticException.of(ErrorCode.INFERENCE_ENGINE_ERROR, "connection reset");
        }).build();
        FakeReplica second = FakeReplica.named("second");
        RoutingEngine engine = RoutingEngine.builder().replicas(first, second).build();
        CallContext context = CallContext.builder().cancellation(cancellation).build();

        assertThatThrownBy(() -> engine.infer(context, HELLO))
                .isInstanceOfSatisfying(PaganticException.class,
                        e -> assertThat(e.code()).isEqualTo(ErrorCode.INFERENCE_ENGINE_ERROR));
        assertThat(second.calls()).isZero();
    }

    @Test
    void withoutFailoverARetryableFailurePropagatesAndStillCountsAgainstTheReplica() {
        FailingEngine first = FailingEngine.builder().failures(1).build();
        FakeReplica second = FakeReplica.named("second");
        RoutingEngine engine = RoutingEngine.builder().replicas(first, second).failover(false).build();

        assertThatThrownBy(() -> engine.infer(HELLO))
                .isInstanceOfSatisfying(PaganticException.class,
                        e -> assertThat(e.code()).isEqualTo(ErrorCode.INFERENCE_ENGINE_ERROR));
        assertThat(second.calls()).isZero();
        assertThat(engine.health().get(0).healthy()).isFalse();
    }

    @Test
    void aSingleReplicasRetryableFailurePropagatesForThereIsNoOtherReplica() {
        FailingEngine only = FailingEngine.builder().failures(1).build();
        RoutingEngine engine = RoutingEngine.builder().replicas(only).build();

        assertThatThrownBy(() -> engine.infer(HELLO))
                .isInstanceOfSatisfying(PaganticException.class,
                        e -> assertThat(e.code()).isEqualTo(ErrorCode.INFERENCE_ENGINE_ERROR));
        assertThat(only.callCount()).isEqualTo(1);
    }

    @Test
    void aFailureAfterStreamedOutputReachedTheCallerIsNotRetried() {
        Engine streamsThenFails = new StreamsThenFails();
        FakeReplica second = FakeReplica.named("second");
        RoutingEngine engine = RoutingEngine.builder().replicas(streamsThenFails, second).build();
        List<String> deltas = new CopyOnWriteArrayList<>();

        assertThatThrownBy(() -> engine.infer(CallContext.background(), HELLO, StreamHandler.onContent(deltas::add)))
                .isInstanceOfSatisfying(PaganticException.class, e -> {
                    assertThat(e.code()).isEqualTo(ErrorCode.INFERENCE_ENGINE_ERROR);
                    assertThat(e.retryable()).isTrue();
                });
        assertThat(deltas).containsExactly("Once upon ");
        assertThat(second.calls()).isZero();
    }

    @Test
    void aStreamingCallThatFailedBeforeAnyOutputIsRetriedAndStreamsOnlyTheSecondReplicasOutput() {
        FailingEngine first = FailingEngine.builder().failures(1)
                .delegate(ScriptedEngine.replying("never streamed")).build();
        ScriptedEngine second = ScriptedEngine.replying("Hello from the second replica");
        RoutingEngine engine = RoutingEngine.builder().replicas(first, second).build();
        List<String> deltas = new CopyOnWriteArrayList<>();

        Result result = engine.infer(CallContext.background(), HELLO, StreamHandler.onContent(deltas::add));

        assertThat(result.content()).isEqualTo("Hello from the second replica");
        assertThat(deltas).hasSizeGreaterThan(1);
        assertThat(String.join("", deltas)).isEqualTo(result.content());
    }

    @Test
    void aCallStreamingToTheNoOpHandlerCanStillFailOver() {
        Engine streamsThenFails = new StreamsThenFails();
        FakeReplica second = FakeReplica.named("second");
        RoutingEngine engine = RoutingEngine.builder().replicas(streamsThenFails, second).build();

        Result result = engine.infer(CallContext.background(), HELLO, StreamHandler.NOOP);

        assertThat(result.content()).isEqualTo("second");
    }

    @Test
    void aHandlerThatThrowsAbortsTheCallWithItsOwnExceptionWithoutARetry() {
        ScriptedEngine first = ScriptedEngine.replying("Hello there");
        FakeReplica second = FakeReplica.named("second");
        RoutingEngine engine = RoutingEngine.builder().replicas(first, second).build();
        AtomicInteger deltas = new AtomicInteger();
        StreamHandler refusing = StreamHandler.onContent(delta -> {
            deltas.incrementAndGet();
            throw new IllegalStateException("the client went away");
        });

        assertThatThrownBy(() -> engine.infer(CallContext.background(), HELLO, refusing))
                .isInstanceOf(IllegalStateException.class).hasMessage("the client went away");
        assertThat(deltas).hasValue(1);
        assertThat(second.calls()).isZero();
        assertThat(engine.health().get(0).healthy()).isTrue();
    }

    /** Streams the start of a story, then loses its connection: a retryable failure after output. */
    private static final class StreamsThenFails implements Engine {
        @Override
        public Result infer(CallContext context, Request request) {
            return infer(context, request, StreamHandler.NOOP);
        }

        @Override
        public Result infer(CallContext context, Request request, StreamHandler handler) {
            handler.onContent("Once upon ");
            throw PaganticException.of(ErrorCode.INFERENCE_ENGINE_ERROR, "connection reset mid-stream");
        }

        @Override
        public ModelInfo modelInfo() {
            return ModelInfo.of("streams-then-fails", 4096, Capability.STREAMING);
        }
    }
}
