package dev.pagantic.orchestrate.vote;

import static org.assertj.core.api.Assertions.assertThat;

import dev.pagantic.core.CallContext;
import dev.pagantic.core.Cancellation;
import dev.pagantic.core.ErrorCode;
import dev.pagantic.core.PaganticException;
import dev.pagantic.core.Schema;
import dev.pagantic.core.TokenUsage;
import dev.pagantic.inference.InferenceSettings;
import dev.pagantic.inference.Request;
import dev.pagantic.inference.Result;
import dev.pagantic.observe.InMemoryEventLog;
import dev.pagantic.orchestrate.agent.TurnOptions;
import dev.pagantic.orchestrate.lifecycle.LifecycleState;
import dev.pagantic.orchestrate.lifecycle.Transition;
import dev.pagantic.orchestrate.loop.Outcome;
import dev.pagantic.orchestrate.structured.SpecializedLoopTest;
import dev.pagantic.testkit.ScriptedEngine;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;

class RedundantLoopTest {

    private static final Schema SENTIMENT = SpecializedLoopTest.SENTIMENT;
    private static final String POSITIVE = "{\"sentiment\":\"positive\"}";
    private static final String NEGATIVE = "{\"sentiment\":\"negative\"}";

    private static CallContext ctx() {
        return CallContext.builder().requestId("req-r").build();
    }

    private static PaganticException failure(Runnable action) {
        try {
            action.run();
        } catch (PaganticException expected) {
            return expected;
        }
        throw new AssertionError("expected a PaganticException");
    }

    private static RedundantLoop.Builder loop(ScriptedEngine engine) {
        return RedundantLoop.builder().engine(engine).schema(SENTIMENT)
                .systemPrompt("Classify sentiment as positive, negative, or neutral.");
    }

    @Test
    void defaultsAreThreeReplicasAndMajorityVoting() {
        ScriptedEngine engine = ScriptedEngine.replying(POSITIVE, NEGATIVE, POSITIVE);
        RedundantLoop redundant = loop(engine).build();

        RedundantResult result = redundant.call(ctx(), "I love this product!");

        assertThat(redundant.n()).isEqualTo(3);
        assertThat(engine.callCount()).isEqualTo(3);
        assertThat(result.content()).isEqualTo(POSITIVE);
        assertThat(result.confidence()).isEqualTo(2.0 / 3);
        assertThat(result.candidates()).containsExactly(POSITIVE, NEGATIVE, POSITIVE);
    }

    @Test
    void zeroNMeansTheDefaultAndNegativeNIsRefused() {
        assertThat(loop(ScriptedEngine.replying(POSITIVE)).n(0).build().n()).isEqualTo(3);
        assertThat(failure(() -> loop(ScriptedEngine.replying(POSITIVE)).n(-1).build()).code())
                .isEqualTo(ErrorCode.CONFIG_INVALID);
        assertThat(failure(() -> RedundantLoop.builder().schema(SENTIMENT).build()).code())
                .isEqualTo(ErrorCode.CONFIG_NO_ENGINE);
    }

    @Test
    void everyReplicaSamplesWithItsOwnSeed() {
        ScriptedEngine engine = ScriptedEngine.replying(POSITIVE, POSITIVE, POSITIVE);
        loop(engine).baseSeed(40).build().call(ctx(), "Great");

        assertThat(engine.requests()).extracting(request -> request.settings().seed())
                .containsExactly(java.util.OptionalLong.of(40), java.util.OptionalLong.of(41),
                        java.util.OptionalLong.of(42));
    }

    @Test
    void usageIsCombinedAcrossAllReplicas() {
        ScriptedEngine engine = ScriptedEngine.builder()
                .reply(Result.builder().content(POSITIVE).usage(TokenUsage.of(10, 5)).build())
                .reply(Result.builder().content(POSITIVE).usage(TokenUsage.of(10, 6)).build())
                .reply(Result.builder().content(POSITIVE).usage(TokenUsage.of(10, 7)).build())
                .build();

        RedundantResult result = loop(engine).build().call(ctx(), "Great");

        assertThat(result.usage()).isEqualTo(TokenUsage.of(30, 18));
        assertThat(result.confidence()).isEqualTo(1.0);
    }

    @Test
    void unanimityVotingFailsWithTheSeedsErrorWhenACandidateDiffers() {
        ScriptedEngine engine = ScriptedEngine.replying(POSITIVE, POSITIVE, NEGATIVE);
        Outcome<RedundantResult> outcome = loop(engine).voting(new UnanimityVoting()).build()
                .run(ctx(), "Great", InferenceSettings.DEFAULTS, TurnOptions.DEFAULTS);

        PaganticException failure = outcome.failure().orElseThrow();
        assertThat(failure.code()).isEqualTo(ErrorCode.ORCHESTRATION_NO_CONSENSUS);
        assertThat(failure.description()).contains("unanimity voting: candidate 2 differs from candidate 0");
    }

    @Test
    void aFailedReplicaIsToleratedWhenEnoughSucceed() {
        ScriptedEngine engine = ScriptedEngine.builder()
                .reply(POSITIVE)
                .fail(ErrorCode.INFERENCE_ENGINE_ERROR, "replica 2 crashed")
                .reply(POSITIVE)
                .build();

        RedundantResult result = loop(engine).build().call(ctx(), "Great");

        assertThat(result.content()).isEqualTo(POSITIVE);
        assertThat(result.candidates()).hasSize(2);
        assertThat(result.failures()).extracting(PaganticException::code)
                .containsExactly(ErrorCode.INFERENCE_ENGINE_ERROR);
    }

    @Test
    void tooFewSuccessfulReplicasFailWithNoConsensus() {
        ScriptedEngine engine = ScriptedEngine.builder()
                .reply(POSITIVE)
                .fail(ErrorCode.INFERENCE_ENGINE_ERROR, "down")
                .reply("not json and not repairable: ][")
                .build();

        PaganticException failure = failure(() -> loop(engine).build().call(ctx(), "Great"));

        assertThat(failure.code()).isEqualTo(ErrorCode.ORCHESTRATION_NO_CONSENSUS);
        assertThat(failure.details()).containsEntry("succeeded", 1);
    }

    @Test
    void whenEveryReplicaFailsTheLastReplicasFailureIsReported() {
        ScriptedEngine engine = ScriptedEngine.builder()
                .fail(ErrorCode.INFERENCE_ENGINE_ERROR, "down")
                .fail(ErrorCode.INFERENCE_ENGINE_ERROR, "down")
                .fail(ErrorCode.INFERENCE_MODEL_UNAVAILABLE, "gone")
                .build();

        assertThat(failure(() -> loop(engine).build().call(ctx(), "Great")).code())
                .isEqualTo(ErrorCode.INFERENCE_MODEL_UNAVAILABLE);
    }

    @Test
    void aReplicaWithMalformedJsonIsRepairedBeforeVoting() {
        ScriptedEngine engine = ScriptedEngine.replying("{\"sentiment\":\"Positive\"", POSITIVE, NEGATIVE);

        RedundantResult result = loop(engine).voting(new CanonicalJsonVoting()).build().call(ctx(), "Great");

        assertThat(result.content()).isEqualToIgnoringWhitespace(POSITIVE);
        assertThat(result.confidence()).isEqualTo(2.0 / 3);
    }

    @Test
    void cancellationEndsTheWholeCall() {
        Cancellation cancellation = new Cancellation();
        AtomicInteger calls = new AtomicInteger();
        ScriptedEngine engine = ScriptedEngine.builder()
                .replyWith(request -> {
                    calls.incrementAndGet();
                    cancellation.cancel();
                    return Result.builder().content(POSITIVE).build();
                })
                .reply(POSITIVE).reply(POSITIVE)
                .build();

        PaganticException failure = failure(() -> loop(engine).build()
                .call(CallContext.builder().cancellation(cancellation).build(), "Great"));

        assertThat(failure.code()).isEqualTo(ErrorCode.CANCELLED_SIGNAL);
        assertThat(calls.get()).isEqualTo(1);
    }

    @Test
    void replicasMayRunConcurrentlyWithCandidatesInReplicaOrder() {
        ScriptedEngine engine = ScriptedEngine.builder()
                .replyWith(request -> Result.builder()
                        .content(request.settings().seed().getAsLong() == 2 ? NEGATIVE : POSITIVE).build())
                .replyWith(request -> Result.builder()
                        .content(request.settings().seed().getAsLong() == 2 ? NEGATIVE : POSITIVE).build())
                .replyWith(request -> Result.builder()
                        .content(request.settings().seed().getAsLong() == 2 ? NEGATIVE : POSITIVE).build())
                .build();
        ExecutorService pool = Executors.newFixedThreadPool(3);
        try {
            RedundantResult result = loop(engine).executor(pool).baseSeed(0).build().call(ctx(), "Great");

            assertThat(result.candidates()).containsExactly(POSITIVE, POSITIVE, NEGATIVE);
            assertThat(result.content()).isEqualTo(POSITIVE);
        } finally {
            pool.shutdownNow();
        }
    }

    @Test
    void whenOneConcurrentReplicaIsCancelledTheCallReturnsOnlyAfterEveryReplicaHasEnded() {
        AtomicInteger ended = new AtomicInteger();
        java.util.function.Function<Request, Result> reply = request -> {
            try {
                if (request.settings().seed().getAsLong() == 0) {
                    throw PaganticException.of(ErrorCode.CANCELLED_SIGNAL, "this replica's call was abandoned");
                }
                Thread.sleep(200);
                return Result.builder().content(POSITIVE).build();
            } catch (InterruptedException e) {
                throw new IllegalStateException(e);
            } finally {
                ended.incrementAndGet();
            }
        };
        ScriptedEngine engine = ScriptedEngine.builder().replyWith(reply).replyWith(reply).replyWith(reply).build();
        ExecutorService pool = Executors.newFixedThreadPool(3);
        try {
            PaganticException thrown = failure(() -> loop(engine).executor(pool).baseSeed(0).build()
                    .call(ctx(), "Great"));

            assertThat(thrown.code()).isEqualTo(ErrorCode.CANCELLED_SIGNAL);
            assertThat(ended).as("replicas still running when the call returned").hasValue(3);
        } finally {
            pool.shutdownNow();
        }
    }

    @Test
    void lifecycleGoesThroughValidateForTheVoteAndNeverRetries() {
        List<Transition> transitions = new ArrayList<>();
        ScriptedEngine engine = ScriptedEngine.builder()
                .reply(POSITIVE).fail(ErrorCode.INFERENCE_ENGINE_ERROR, "down").reply(POSITIVE).build();

        loop(engine).transitionListener(transitions::add).build().call(ctx(), "Great");

        assertThat(transitions).extracting(Transition::to).containsExactly(LifecycleState.PREPARE,
                LifecycleState.EXECUTE, LifecycleState.VALIDATE, LifecycleState.COMPLETE);
        assertThat(transitions).allMatch(t -> t.attempt() == 1);
    }

    @Test
    void voteIsRecordedAsAnEvent() {
        InMemoryEventLog events = InMemoryEventLog.unbounded();
        loop(ScriptedEngine.replying(POSITIVE, POSITIVE, NEGATIVE)).eventLog(events).build().call(ctx(), "Great");

        var vote = events.events(e -> e.action().equals("vote")).get(0);
        assertThat(vote.data()).containsEntry("candidates", 3).containsEntry("winner_index", 0);
        assertThat(vote.correlation().requestId()).isEqualTo("req-r");
        assertThat(events.events(e -> e.action().equals("inference_end"))).hasSize(3);
    }
}
