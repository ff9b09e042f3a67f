package dev.pagantic.testkit;

import static dev.pagantic.testkit.Failures.failureOf;
import static org.assertj.core.api.Assertions.assertThat;

import dev.pagantic.core.CallContext;
import dev.pagantic.core.Cancellation;
import dev.pagantic.core.ErrorCode;
import dev.pagantic.core.Message;
import dev.pagantic.core.PaganticException;
import dev.pagantic.inference.Request;
import dev.pagantic.inference.StreamHandler;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

class FailingEngineTest {

    @Test
    void theFirstNCallsFailAndTheRestAreAnsweredByTheDelegate() {
        FailingEngine engine = FailingEngine.builder().failures(2).code(ErrorCode.INFERENCE_SATURATED)
                .delegate(ScriptedEngine.replying("finally")).build();

        assertThat(failureOf(() -> engine.infer(Request.of("1"))).code()).isEqualTo(ErrorCode.INFERENCE_SATURATED);
        assertThat(failureOf(() -> engine.infer(Request.of("2"))).code()).isEqualTo(ErrorCode.INFERENCE_SATURATED);
        assertThat(engine.infer(Request.of("3")).content()).isEqualTo("finally");
        assertThat(engine.callCount()).isEqualTo(3);
        assertThat(engine.failureCount()).isEqualTo(2);
    }

    @Test
    void byDefaultTheFirstCallFailsWithARetryableEngineErrorAndLaterCallsAreEchoed() {
        FailingEngine engine = FailingEngine.builder().build();

        PaganticException failure = failureOf(() -> engine.infer(Request.of("hello")));

        assertThat(failure.code()).isEqualTo(ErrorCode.INFERENCE_ENGINE_ERROR);
        assertThat(failure.retryable()).isTrue();
        assertThat(failure.getMessage()).contains("simulated backend failure of call 1");
        assertThat(failure.details()).containsEntry("call", 1);
        assertThat(engine.infer(Request.of("hello again")).content()).isEqualTo("hello again");
    }

    @Test
    void theMessageAndRetryabilityCanBeChosen() {
        FailingEngine engine = FailingEngine.builder().code(ErrorCode.INFERENCE_MODEL_UNAVAILABLE)
                .message("model is loading").retryable(true).build();

        PaganticException failure = failureOf(() -> engine.infer(Request.of("x")));

        assertThat(failure.code()).isEqualTo(ErrorCode.INFERENCE_MODEL_UNAVAILABLE);
        assertThat(failure.description()).isEqualTo("model is loading");
        assertThat(failure.retryable()).isTrue();
    }

    @Test
    void anyErrorCodeCanBeSimulated() {
        FailingEngine engine = FailingEngine.builder().code(ErrorCode.CANCELLED_TIMEOUT).build();

        assertThat(failureOf(() -> engine.infer(Request.of("x"))).code()).isEqualTo(ErrorCode.CANCELLED_TIMEOUT);
    }

    @Test
    void failAlwaysNeverReachesTheDelegate() {
        ScriptedEngine delegate = ScriptedEngine.replying("unreachable");
        FailingEngine engine = FailingEngine.builder().failAlways().delegate(delegate).build();

        for (int i = 0; i < 5; i++) {
            assertThat(failureOf(() -> engine.infer(Request.of("x"))).getMessage()).contains("every call fails");
        }
        assertThat(delegate.callCount()).isZero();
        assertThat(engine.failureCount()).isEqualTo(5);
    }

    @Test
    void zeroFailuresDelegatesEveryCall() {
        FailingEngine engine = FailingEngine.builder().failures(0).build();

        assertThat(engine.infer(Request.of("straight through")).content()).isEqualTo("straight through");
        assertThat(engine.failureCount()).isZero();
    }

    @Test
    void aCancelledCallIsRefusedWithoutSpendingAFailure() {
        FailingEngine engine = FailingEngine.builder().failures(1).build();
        Cancellation cancellation = new Cancellation();
        cancellation.cancel();
        CallContext cancelled = CallContext.builder().cancellation(cancellation).build();

        assertThat(failureOf(() -> engine.infer(cancelled, Request.of("x")))
                .code()).isEqualTo(ErrorCode.CANCELLED_SIGNAL);
        assertThat(engine.callCount()).isZero();
        assertThat(failureOf(() -> engine.infer(Request.of("y"))).code()).isEqualTo(ErrorCode.INFERENCE_ENGINE_ERROR);
    }

    @Test
    void aRequestForAnUndeclaredCapabilityIsRefusedWithoutSpendingAFailure() {
        FailingEngine engine = FailingEngine.builder().failures(1).build();
        Request withGrammar = Request.builder().addMessage(Message.user("x")).grammar("root ::= \"x\"").build();

        assertThat(failureOf(() -> engine.infer(withGrammar)).code()).isEqualTo(ErrorCode.CONFIG_UNSUPPORTED_CAPABILITY);
        assertThat(engine.callCount()).isZero();
    }

    @Test
    void theStreamingOverloadPassesTheHandlerToTheDelegate() {
        FailingEngine engine = FailingEngine.builder().failures(0).build();
        List<String> deltas = new ArrayList<>();

        engine.infer(CallContext.background(), Request.of("one two"), StreamHandler.onContent(deltas::add));

        assertThat(deltas).containsExactly("one", " two");
    }

    @Test
    void closingClosesTheDelegateAndRefusesLaterCalls() {
        ScriptedEngine delegate = ScriptedEngine.replying("unused");
        FailingEngine engine = FailingEngine.builder().failures(0).delegate(delegate).build();

        engine.close();

        assertThat(failureOf(() -> engine.infer(Request.of("x"))).code()).isEqualTo(ErrorCode.INFERENCE_ENGINE_CLOSED);
        assertThat(failureOf(() -> delegate.infer(Request.of("x"))).code())
                .isEqualTo(ErrorCode.INFERENCE_ENGINE_CLOSED);
        assertThat(engine.callCount()).isZero();
    }

    @Test
    void theModelInfoAndTokenCounterAreTheDelegates() {
        ScriptedEngine delegate = ScriptedEngine.builder().modelName("behind").build();
        FailingEngine engine = FailingEngine.builder().delegate(delegate).build();

        assertThat(engine.modelInfo()).isEqualTo(delegate.modelInfo());
        assertThat(engine.tokenCounter()).isSameAs(delegate.tokenCounter());
    }

    @Test
    void theDescriptionNamesTheCodeTheProgressAndTheDelegate() {
        FailingEngine engine = FailingEngine.builder().failures(2).delegate(ScriptedEngine.replying("ok")).build();
        failureOf(() -> engine.infer(Request.of("x")));

        assertThat(engine).hasToString("FailingEngine[INFERENCE_ENGINE_ERROR, failures=1, calls=1, "
                + "delegate=ScriptedEngine[model=scripted, calls=0, remaining=1]]");
    }

    @Test
    void aNegativeFailureCountIsRefusedAtBuild() {
        assertThat(failureOf(() -> FailingEngine.builder().failures(-1).build())
                .code()).isEqualTo(ErrorCode.CONFIG_INVALID);
    }
}
