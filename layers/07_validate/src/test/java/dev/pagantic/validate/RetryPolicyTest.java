package dev.pagantic.validate;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.pagantic.core.CallContext;
import dev.pagantic.core.Cancellation;
import dev.pagantic.core.ErrorCode;
import dev.pagantic.core.FailureCategory;
import dev.pagantic.core.PaganticException;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.SplittableRandom;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;

/** Every test runs under a fake clock: the sleeper advances it instead of sleeping. */
class RetryPolicyTest {

    private static final Instant T0 = Instant.parse("2026-01-01T00:00:00Z");

    private final FakeClock clock = new FakeClock(T0);
    private final List<Duration> slept = new ArrayList<>();
    /** Records the wait and advances the fake clock; refuses, as CallContext.sleep does, when the context is done. */
    private final Sleeper fakeSleeper = (context, duration) -> {
        context.throwIfDone();
        slept.add(duration);
        clock.advance(duration);
    };

    private RetryPolicy.Builder exact() {
        return RetryPolicy.builder().sleeper(fakeSleeper).jitter(0)
                .initialDelay(Duration.ofMillis(100)).multiplier(2).maxDelay(Duration.ofSeconds(10));
    }

    private CallContext context() {
        return CallContext.builder().clock(clock).build();
    }

    private static PaganticException retryable(String message) {
        return PaganticException.of(ErrorCode.INFERENCE_ENGINE_ERROR, message);
    }

    @Test
    void exhaustsAttemptsWithExponentialDelaysAndReportsTheLastError() {
        RetryPolicy policy = exact().maxAttempts(4).build();
        AtomicInteger calls = new AtomicInteger();

        RetryOutcome<String> outcome = policy.run(context(), attempt -> {
            calls.incrementAndGet();
            throw retryable("failure " + attempt);
        });

        assertThat(outcome.succeeded()).isFalse();
        assertThat(outcome.stopReason()).isEqualTo(StopReason.ATTEMPTS_EXHAUSTED);
        assertThat(outcome.attemptCount()).isEqualTo(4);
        assertThat(calls).hasValue(4);
        assertThat(slept).containsExactly(Duration.ofMillis(100), Duration.ofMillis(200), Duration.ofMillis(400));
        assertThat(outcome.attempts()).extracting(Attempt::backoff).containsExactly(Duration.ofMillis(100),
                Duration.ofMillis(200), Duration.ofMillis(400), Duration.ZERO);
        assertThat(outcome.attempts()).extracting(Attempt::startedAt).containsExactly(T0, T0.plusMillis(100),
                T0.plusMillis(300), T0.plusMillis(700));
        assertThat(outcome.failure()).get().extracting(PaganticException::description).isEqualTo("failure 4");
        assertThatThrownBy(outcome::orElseThrow).hasMessageContaining("failure 4");
    }

    @Test
    void stopsAtOnceOnANonRetryableCode() {
        RetryPolicy policy = exact().maxAttempts(5).build();

        RetryOutcome<String> outcome = policy.run(context(), attempt -> {
            if (attempt == 1) {
                throw retryable("transient");
            }
            throw PaganticException.of(ErrorCode.TOOL_NOT_FOUND, "no tool named 'x'");
        });

        assertThat(outcome.stopReason()).isEqualTo(StopReason.NOT_RETRYABLE);
        assertThat(outcome.attemptCount()).isEqualTo(2);
        assertThat(outcome.attempts()).extracting(a -> a.code().orElseThrow())
                .containsExactly(ErrorCode.INFERENCE_ENGINE_ERROR, ErrorCode.TOOL_NOT_FOUND);
        assertThat(slept).containsExactly(Duration.ofMillis(100));
        assertThat(outcome.failure()).get().extracting(PaganticException::code).isEqualTo(ErrorCode.TOOL_NOT_FOUND);
    }

    @Test
    void succeedsAfterRetriesPassingTheAttemptNumber() {
        RetryPolicy policy = exact().maxAttempts(3).build();
        List<Integer> seen = new ArrayList<>();

        RetryOutcome<String> outcome = policy.run(context(), attempt -> {
            seen.add(attempt);
            if (attempt < 3) {
                throw PaganticException.of(ErrorCode.VALIDATION_RULE_FAILED, "rule failed");
            }
            clock.advance(Duration.ofMillis(7));
            return "ok on " + attempt;
        });

        assertThat(outcome.succeeded()).isTrue();
        assertThat(outcome.orElseThrow()).isEqualTo("ok on 3");
        assertThat(outcome.value()).contains("ok on 3");
        assertThat(seen).containsExactly(1, 2, 3);
        assertThat(outcome.attempts()).extracting(Attempt::succeeded).containsExactly(false, false, true);
        assertThat(outcome.attempts().get(2).elapsed()).isEqualTo(Duration.ofMillis(7));
        String first = policy.call(context(), attempt -> "first");
        assertThat(first).isEqualTo("first");
    }

    @Test
    void theExceptionsOwnRetryableFlagWinsOverItsCodesDefault() {
        RetryPolicy policy = exact().maxAttempts(2).build();
        PaganticException idempotentTool = PaganticException.builder(ErrorCode.TOOL_EXECUTION_FAILED, "flaky")
                .retryable(true).build();
        PaganticException hopeless = PaganticException.builder(ErrorCode.INFERENCE_ENGINE_ERROR, "bad key")
                .retryable(false).build();

        RetryOutcome<String> retried = policy.run(context(), attempt -> {
            throw idempotentTool;
        });
        RetryOutcome<String> notRetried = policy.run(context(), attempt -> {
            throw hopeless;
        });
        assertThat(retried.attemptCount()).isEqualTo(2);
        assertThat(notRetried.stopReason()).isEqualTo(StopReason.NOT_RETRYABLE);
    }

    @Test
    void configuredCodesAndCategoriesNarrowWhatIsRetried() {
        RetryPolicy policy = exact().maxAttempts(3).retryOn(FailureCategory.INFERENCE)
                .retryOn(ErrorCode.CONSTRAINT_JSON_INVALID).build();

        assertThat(policy.isRetryable(retryable("x"))).isTrue();
        assertThat(policy.isRetryable(PaganticException.of(ErrorCode.CONSTRAINT_JSON_INVALID, "x"))).isTrue();
        assertThat(policy.isRetryable(PaganticException.of(ErrorCode.VALIDATION_RULE_FAILED, "x"))).isFalse();
        // Listing a code never makes a non-retryable failure retryable.
        RetryPolicy widened = exact().retryOn(ErrorCode.TOOL_NOT_FOUND).build();
        assertThat(widened.isRetryable(PaganticException.of(ErrorCode.TOOL_NOT_FOUND, "x"))).isFalse();

        RetryOutcome<String> outcome = policy.run(context(), attempt -> {
            throw PaganticException.of(ErrorCode.VALIDATION_RULE_FAILED, "rule");
        });
        assertThat(outcome.stopReason()).isEqualTo(StopReason.NOT_RETRYABLE);
        assertThat(outcome.attemptCount()).isEqualTo(1);
        assertThat(slept).isEmpty();
    }

    @Test
    void delaysAreCappedAtTheMaximum() {
        RetryPolicy policy = exact().maxAttempts(6).maxDelay(Duration.ofMillis(300)).build();
        policy.run(context(), attempt -> {
            throw retryable("x");
        });
        assertThat(slept).containsExactly(Duration.ofMillis(100), Duration.ofMillis(200), Duration.ofMillis(300),
                Duration.ofMillis(300), Duration.ofMillis(300));
        assertThat(policy.baseDelay(1)).isZero();
        assertThat(policy.baseDelay(1000)).isEqualTo(Duration.ofMillis(300));
    }

    @Test
    void neverWaitsPastTheDeadlineAndStopsWithTheLastError() {
        RetryPolicy policy = exact().maxAttempts(10).build();
        CallContext ctx = CallContext.builder().clock(clock).timeout(Duration.ofMillis(250)).build();

        RetryOutcome<String> outcome = policy.run(ctx, attempt -> {
            throw retryable("failure " + attempt);
        });

        // 100 ms wait fits (150 ms left after it); the next wait (200 ms) would reach the deadline: stop now.
        assertThat(outcome.stopReason()).isEqualTo(StopReason.DEADLINE);
        assertThat(outcome.attemptCount()).isEqualTo(2);
        assertThat(slept).containsExactly(Duration.ofMillis(100));
        assertThat(clock.instant()).isBefore(ctx.deadline().orElseThrow());
        assertThat(outcome.failure()).get().extracting(PaganticException::description).isEqualTo("failure 2");
    }

    @Test
    void anAttemptThatRunsPastTheDeadlineIsNotFollowedByAnother() {
        RetryPolicy policy = exact().maxAttempts(10).initialDelay(Duration.ZERO).build();
        CallContext ctx = CallContext.builder().clock(clock).timeout(Duration.ofSeconds(1)).build();

        RetryOutcome<String> outcome = policy.run(ctx, attempt -> {
            clock.advance(Duration.ofMillis(600));
            throw retryable("slow " + attempt);
        });

        assertThat(outcome.stopReason()).isEqualTo(StopReason.DEADLINE);
        assertThat(outcome.attemptCount()).isEqualTo(2);
        assertThat(outcome.failure()).get().extracting(PaganticException::code)
                .isEqualTo(ErrorCode.INFERENCE_ENGINE_ERROR);
    }

    @Test
    void aDeadlinePassedBeforeTheFirstAttemptIsCancelledTimeout() {
        CallContext ctx = CallContext.builder().clock(clock).timeout(Duration.ZERO).build();
        AtomicInteger calls = new AtomicInteger();

        RetryOutcome<String> outcome = exact().build().run(ctx, attempt -> {
            calls.incrementAndGet();
            return "never";
        });

        assertThat(outcome.stopReason()).isEqualTo(StopReason.DEADLINE);
        assertThat(outcome.attempts()).isEmpty();
        assertThat(calls).hasValue(0);
        assertThat(outcome.failure()).get().extracting(PaganticException::code).isEqualTo(ErrorCode.CANCELLED_TIMEOUT);
    }

    @Test
    void cancellationDuringTheWaitStopsWithCancelledSignal() {
        Cancellation cancellation = new Cancellation();
        CallContext ctx = CallContext.builder().clock(clock).cancellation(cancellation).build();
        Sleeper cancelledWhileWaiting = (context, duration) -> {
            cancellation.cancel("user pressed stop");
            context.sleep(duration); // the real wait returns at once with CANCELLED_SIGNAL
        };
        RetryPolicy policy = exact().maxAttempts(5).sleeper(cancelledWhileWaiting).build();

        RetryOutcome<String> outcome = policy.run(ctx, attempt -> {
            throw retryable("x");
        });

        assertThat(outcome.stopReason()).isEqualTo(StopReason.CANCELLED);
        assertThat(outcome.attemptCount()).isEqualTo(1);
        assertThat(outcome.failure()).get().satisfies(e -> {
            assertThat(e.code()).isEqualTo(ErrorCode.CANCELLED_SIGNAL);
            assertThat(e.getMessage()).contains("user pressed stop");
        });
    }

    @Test
    void cancellationDuringAnAttemptIsNotRetried() {
        Cancellation cancellation = new Cancellation();
        CallContext ctx = CallContext.builder().clock(clock).cancellation(cancellation).build();

        RetryOutcome<String> outcome = exact().maxAttempts(5).build().run(ctx, attempt -> {
            cancellation.cancel();
            throw retryable("interrupted work");
        });

        assertThat(outcome.stopReason()).isEqualTo(StopReason.CANCELLED);
        assertThat(outcome.attemptCount()).isEqualTo(1);
        assertThat(slept).isEmpty();
        assertThat(outcome.failure()).get().extracting(PaganticException::code).isEqualTo(ErrorCode.CANCELLED_SIGNAL);

        RetryOutcome<String> timedOut = exact().build().run(context(), attempt -> {
            throw PaganticException.of(ErrorCode.CANCELLED_TIMEOUT, "engine deadline");
        });
        assertThat(timedOut.stopReason()).isEqualTo(StopReason.DEADLINE);
        assertThat(timedOut.attemptCount()).isEqualTo(1);
    }

    @Test
    void jitterStaysWithinItsBandAndIsReproducibleWithASeed() {
        List<Duration> first = jitteredDelays(42);
        List<Duration> second = jitteredDelays(42);

        assertThat(first).isEqualTo(second);
        long[] bases = {100, 200, 400, 800, 1600};
        for (int i = 0; i < bases.length; i++) {
            long nanos = first.get(i).toNanos();
            assertThat(nanos).isBetween(Duration.ofMillis(bases[i]).toNanos() * 3 / 4,
                    Duration.ofMillis(bases[i]).toNanos() * 5 / 4);
        }
        assertThat(first).isNotEqualTo(List.of(Duration.ofMillis(100), Duration.ofMillis(200), Duration.ofMillis(400),
                Duration.ofMillis(800), Duration.ofMillis(1600)));
    }

    private List<Duration> jitteredDelays(long seed) {
        slept.clear();
        RetryPolicy policy = exact().maxAttempts(6).jitter(0.25).random(new SplittableRandom(seed)).build();
        policy.run(context(), attempt -> {
            throw retryable("x");
        });
        return List.copyOf(slept);
    }

    @Test
    void aRateLimitedFailureIsRetriedNoSoonerThanItsRetryAfter() {
        RetryPolicy policy = exact().maxAttempts(3).build();
        PaganticException saturated = PaganticException.builder(ErrorCode.INFERENCE_SATURATED, "429")
                .detail(RetryPolicy.RETRY_AFTER_DETAIL, 2_000L).build();
        PaganticException shortAsk = PaganticException.builder(ErrorCode.INFERENCE_SATURATED, "429")
                .detail(RetryPolicy.RETRY_AFTER_DETAIL, 10L).build();

        assertThat(policy.decide(context(), 1, saturated)).isEqualTo(RetryDecision.retryAfter(Duration.ofSeconds(2)));
        assertThat(policy.decide(context(), 1, shortAsk)).isEqualTo(RetryDecision.retryAfter(Duration.ofMillis(100)));
        CallContext soon = CallContext.builder().clock(clock).timeout(Duration.ofSeconds(1)).build();
        assertThat(policy.decide(soon, 1, saturated).stop()).contains(StopReason.DEADLINE);
    }

    @Test
    void decideDrivesALifecycleLoopWithoutRunningIt() {
        RetryPolicy policy = exact().maxAttempts(3).build();
        PaganticException failure = PaganticException.of(ErrorCode.VALIDATION_SEMANTIC_FAILED, "hallucinated");

        assertThat(policy.decide(context(), 1, failure)).isEqualTo(RetryDecision.retryAfter(Duration.ofMillis(100)));
        assertThat(policy.decide(context(), 2, failure)).isEqualTo(RetryDecision.retryAfter(Duration.ofMillis(200)));
        assertThat(policy.decide(context(), 3, failure)).isEqualTo(RetryDecision.stop(StopReason.ATTEMPTS_EXHAUSTED));
        assertThat(policy.decide(context(), 1, PaganticException.of(ErrorCode.CONFIG_INVALID, "x")).stop())
                .isEqualTo(Optional.of(StopReason.NOT_RETRYABLE));
    }

    @Test
    void theDefaultSleeperWaitsThroughTheContext() {
        RetryPolicy policy = RetryPolicy.builder().initialDelay(Duration.ZERO).maxAttempts(3).build();
        AtomicInteger calls = new AtomicInteger();

        String value = policy.call(CallContext.background(), attempt -> {
            if (calls.incrementAndGet() < 3) {
                throw retryable("x");
            }
            return "done";
        });

        assertThat(value).isEqualTo("done");
        assertThat(calls).hasValue(3);
    }

    @Test
    void otherExceptionsPropagateUnretried() {
        AtomicInteger calls = new AtomicInteger();
        assertThatThrownBy(() -> exact().build().run(context(), attempt -> {
            calls.incrementAndGet();
            throw new IllegalStateException("bug");
        })).isInstanceOf(IllegalStateException.class);
        assertThat(calls).hasValue(1);
    }

    @Test
    void defaultsAndNoRetry() {
        RetryPolicy defaults = RetryPolicy.defaults();
        assertThat(defaults.maxAttempts()).isEqualTo(3);
        assertThat(defaults.initialDelay()).isEqualTo(Duration.ofMillis(500));
        assertThat(defaults.multiplier()).isEqualTo(2.0);
        assertThat(defaults.maxDelay()).isEqualTo(Duration.ofSeconds(30));
        assertThat(defaults.jitter()).isEqualTo(0.2);
        RetryOutcome<String> once = RetryPolicy.noRetry().run(context(), attempt -> {
            throw retryable("x");
        });
        assertThat(once.stopReason()).isEqualTo(StopReason.ATTEMPTS_EXHAUSTED);
    }

    @Test
    void builderRefusesInvalidSettings() {
        for (RetryPolicy.Builder bad : List.of(
                RetryPolicy.builder().maxAttempts(0),
                RetryPolicy.builder().initialDelay(Duration.ofMillis(-1)),
                RetryPolicy.builder().initialDelay(Duration.ofSeconds(5)).maxDelay(Duration.ofSeconds(1)),
                RetryPolicy.builder().multiplier(0.5),
                RetryPolicy.builder().multiplier(Double.NaN),
                RetryPolicy.builder().jitter(1.5),
                RetryPolicy.builder().jitter(-0.1))) {
            assertThatThrownBy(bad::build).isInstanceOfSatisfying(PaganticException.class,
                    e -> assertThat(e.code()).isEqualTo(ErrorCode.CONFIG_INVALID));
        }
    }
}
