package dev.pagantic.validate;

import dev.pagantic.core.CallContext;
import dev.pagantic.core.ErrorCode;
import dev.pagantic.core.FailureCategory;
import dev.pagantic.core.PaganticException;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.EnumSet;
import java.util.List;
import java.util.Objects;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.ThreadLocalRandom;
import java.util.random.RandomGenerator;
import org.jspecify.annotations.Nullable;

/**
 * How many attempts, with what back-off, for which failures: the policy behind the lifecycle's
 * EXECUTE &rarr; VALIDATE &rarr; EXECUTE cycle. Each retry is a transition back to EXECUTE with the attempt number
 * incremented; when the policy stops, the state goes on to ERROR with the last failure.
 *
 * <h2>What is retried</h2>
 * Only {@link PaganticException}s whose {@link PaganticException#retryable()} is true; the emitter's flag is
 * authoritative (it defaults to the code's retryability and may be overridden, for an idempotent tool say).
 * {@link Builder#retryOn(ErrorCode...)} and {@link Builder#retryOn(FailureCategory...)} narrow this further to the
 * listed codes or categories (a failure qualifies when its code or its category is listed); they never widen it.
 * Cancellation ({@code CANCELLED_*}) is never retried. Any other exception (a bug, or an unwrapped library failure)
 * propagates at once, unretried.
 *
 * <h2>Back-off</h2>
 * The wait before attempt {@code n + 1} is {@code initialDelay * multiplier^(n-1)}, capped at {@code maxDelay}, then
 * jittered uniformly within {@code ±jitter} of itself (and capped at {@code maxDelay} again). Defaults: 3 attempts,
 * 500 ms, multiplier 2, at most 30 s, jitter 0.2. The jitter's random numbers come from an injectable
 * {@link RandomGenerator} (seed one in tests; a shared generator is used under a lock) or, by default,
 * {@link ThreadLocalRandom}.
 *
 * <h2>Deadline and cancellation</h2>
 * The policy never waits past the context's deadline: when the next wait would reach it, it stops at once with
 * {@link StopReason#DEADLINE} and reports the <em>last attempt's error</em> (more useful than a bare timeout); only
 * when the deadline has passed before any attempt is the failure {@code CANCELLED_TIMEOUT}. Cancellation is checked
 * before every attempt and interrupts the wait ({@link Sleeper#contextual()}); the failure is then
 * {@code CANCELLED_SIGNAL} ({@link StopReason#CANCELLED}). An attempt that itself fails with {@code CANCELLED_*} stops
 * the run with that error.
 *
 * <h2>Use</h2>
 * <pre>{@code
 * RetryPolicy policy = RetryPolicy.builder().maxAttempts(4).initialDelay(Duration.ofMillis(200)).build();
 * RetryOutcome<Result> outcome = policy.run(ctx, attempt -> engine.infer(ctx, request));
 * outcome.attempts();                       // every attempt, with its failure and the back-off that followed
 * Result result = policy.call(ctx, attempt -> engine.infer(ctx, request)); // or: value, or the final error
 * }</pre>
 * A loop that drives its own state machine asks {@link #decide} after each failed attempt instead. Immutable and
 * thread-safe.
 */
public final class RetryPolicy {

    /**
     * The detail of a failure that asks to be retried no sooner than this many milliseconds (set by engines from a
     * rate-limited server's {@code Retry-After}).
     */
    public static final String RETRY_AFTER_DETAIL = "retry_after_ms";

    /** Work retried under the policy: one attempt. */
    @FunctionalInterface
    public interface Work<T> {
        /**
         * Makes one attempt.
         *
         * @param attempt the attempt number, 1 for the first
         * @return the result; never null
         */
        T attempt(int attempt);
    }

    private final int maxAttempts;
    private final Duration initialDelay;
    private final double multiplier;
    private final Duration maxDelay;
    private final double jitter;
    private final Set<ErrorCode> codes;
    private final Set<FailureCategory> categories;
    private final Sleeper sleeper;
    private final @Nullable RandomGenerator random; // null: ThreadLocalRandom

    private RetryPolicy(Builder builder) {
        this.maxAttempts = builder.maxAttempts;
        this.initialDelay = builder.initialDelay;
        this.multiplier = builder.multiplier;
        this.maxDelay = builder.maxDelay;
        this.jitter = builder.jitter;
        this.codes = builder.codes.isEmpty() ? Set.of() : Set.copyOf(builder.codes);
        this.categories = builder.categories.isEmpty() ? Set.of() : Set.copyOf(builder.categories);
        this.sleeper = builder.sleeper;
        this.random = builder.random;
    }

    /** Starts building a policy from the defaults. */
    public static Builder builder() {
        return new Builder();
    }

    /** The default policy: 3 attempts, 500 ms doubling to at most 30 s, jitter 0.2. */
    public static RetryPolicy defaults() {
        return builder().build();
    }

    /** A policy that makes a single attempt and never retries. */
    public static RetryPolicy noRetry() {
        return builder().maxAttempts(1).build();
    }

    /** The most attempts, the first included. */
    public int maxAttempts() {
        return maxAttempts;
    }

    /** The base wait before the second attempt. */
    public Duration initialDelay() {
        return initialDelay;
    }

    /** The factor the base wait grows by after each retry. */
    public double multiplier() {
        return multiplier;
    }

    /** The longest wait. */
    public Duration maxDelay() {
        return maxDelay;
    }

    /** The jitter fraction in [0, 1]: each wait is drawn within {@code ±jitter} of its base. */
    public double jitter() {
        return jitter;
    }

    /**
     * Whether the failure qualifies for a retry: its own retryable flag is set, it is not a cancellation, and (when
     * the policy lists codes or categories) its code or category is listed. Attempts and deadline are not considered.
     */
    public boolean isRetryable(PaganticException failure) {
        Objects.requireNonNull(failure, "failure");
        if (!failure.retryable() || failure.category() == FailureCategory.CANCELLATION) {
            return false;
        }
        if (codes.isEmpty() && categories.isEmpty()) {
            return true;
        }
        return codes.contains(failure.code()) || categories.contains(failure.category());
    }

    /**
     * The wait before the given attempt without jitter: zero for the first, {@code initialDelay * multiplier^(n-2)}
     * for attempt {@code n >= 2}, capped at {@code maxDelay}.
     */
    public Duration baseDelay(int attempt) {
        requireAttempt(attempt);
        if (attempt == 1) {
            return Duration.ZERO;
        }
        double nanos = initialDelay.toNanos() * Math.pow(multiplier, attempt - 2.0);
        long cap = maxDelay.toNanos();
        return Duration.ofNanos(!Double.isFinite(nanos) || nanos >= cap ? cap : Math.round(nanos));
    }

    /** The wait before the given attempt with jitter applied: within {@code ±jitter} of the base, at most the cap. */
    public Duration delayBefore(int attempt) {
        Duration base = baseDelay(attempt);
        if (jitter == 0 || base.isZero()) {
            return base;
        }
        double u = nextDouble(); // [0, 1)
        double factor = 1 - jitter + 2 * jitter * u;
        long nanos = Math.round(base.toNanos() * factor);
        return Duration.ofNanos(Math.max(0, Math.min(nanos, maxDelay.toNanos())));
    }

    /**
     * Decides what follows a failed attempt: stop when the context is cancelled or the failure is a cancellation,
     * when the failure is not retryable, when {@code completedAttempts} has reached the maximum, or when the wait
     * would reach the deadline; otherwise retry after {@link #delayBefore(int) the jittered wait}, or after the delay
     * the failure itself asks for when that is longer: a failure with a {@value #RETRY_AFTER_DETAIL} detail (a
     * rate-limited server's {@code Retry-After}, in milliseconds) is never retried sooner.
     *
     * @param context           the call's context
     * @param completedAttempts how many attempts have been made, the failed one included (at least 1)
     * @param failure           the failed attempt's error
     */
    public RetryDecision decide(CallContext context, int completedAttempts, PaganticException failure) {
        Objects.requireNonNull(context, "context");
        requireAttempt(completedAttempts);
        Objects.requireNonNull(failure, "failure");
        if (context.isCancelled() || failure.code() == ErrorCode.CANCELLED_SIGNAL) {
            return RetryDecision.stop(StopReason.CANCELLED);
        }
        if (failure.code() == ErrorCode.CANCELLED_TIMEOUT) {
            return RetryDecision.stop(StopReason.DEADLINE);
        }
        if (!isRetryable(failure)) {
            return RetryDecision.stop(StopReason.NOT_RETRYABLE);
        }
        if (completedAttempts >= maxAttempts) {
            return RetryDecision.stop(StopReason.ATTEMPTS_EXHAUSTED);
        }
        Duration delay = delayBefore(completedAttempts + 1);
        Duration asked = askedDelay(failure);
        if (asked.compareTo(delay) > 0) {
            delay = asked;
        }
        Optional<Duration> remaining = context.remaining();
        if (remaining.isPresent() && delay.compareTo(remaining.get()) >= 0) {
            return RetryDecision.stop(StopReason.DEADLINE);
        }
        return RetryDecision.retryAfter(delay);
    }

    /** The wait a failure asks for in its {@value #RETRY_AFTER_DETAIL} detail; zero when it asks for none. */
    private static Duration askedDelay(PaganticException failure) {
        Object millis = failure.details().get(RETRY_AFTER_DETAIL);
        if (millis instanceof Number n && n.longValue() > 0) {
            return Duration.ofMillis(n.longValue());
        }
        return Duration.ZERO;
    }

    /**
     * Runs the work, retrying as the policy allows, and reports every attempt. Never throws a
     * {@link PaganticException} (the failure is in the outcome); other exceptions from the work propagate.
     *
     * @throws NullPointerException when the work returns null
     */
    public <T> RetryOutcome<T> run(CallContext context, Work<T> work) {
        Objects.requireNonNull(context, "context");
        Objects.requireNonNull(work, "work");
        List<Attempt> attempts = new ArrayList<>();
        PaganticException last = null;
        for (int number = 1; ; number++) {
            if (context.isDone()) {
                return stoppedBeforeAttempt(context, attempts, last);
            }
            Instant started = context.now();
            T value;
            try {
                value = work.attempt(number);
            } catch (PaganticException failure) {
                last = failure;
                Duration elapsed = elapsedSince(context, started);
                RetryDecision decision = decide(context, number, failure);
                if (!decision.retry()) {
                    attempts.add(new Attempt(number, started, elapsed, Optional.of(failure), Duration.ZERO));
                    StopReason reason = decision.stop().orElseThrow();
                    PaganticException reported = reason == StopReason.CANCELLED
                            && failure.code() != ErrorCode.CANCELLED_SIGNAL ? doneFailure(context) : failure;
                    return failed(reported, attempts, reason);
                }
                attempts.add(new Attempt(number, started, elapsed, Optional.of(failure), decision.delay()));
                try {
                    sleeper.sleep(context, decision.delay());
                } catch (PaganticException interrupted) {
                    if (interrupted.code() == ErrorCode.CANCELLED_SIGNAL) {
                        return failed(interrupted, attempts, StopReason.CANCELLED);
                    }
                    if (interrupted.code() == ErrorCode.CANCELLED_TIMEOUT) {
                        return failed(failure, attempts, StopReason.DEADLINE);
                    }
                    throw interrupted;
                }
                continue;
            }
            Objects.requireNonNull(value, "the retried work returned null");
            attempts.add(new Attempt(number, started, elapsedSince(context, started), Optional.empty(),
                    Duration.ZERO));
            return new RetryOutcome<>(Optional.of(value), Optional.empty(), attempts, StopReason.SUCCEEDED);
        }
    }

    /** Runs the work in a {@linkplain CallContext#background() background context}. */
    public <T> RetryOutcome<T> run(Work<T> work) {
        return run(CallContext.background(), work);
    }

    /**
     * Runs the work, retrying as the policy allows, and returns its value or throws the failure that ended it (see
     * the class description for which failure that is).
     */
    public <T> T call(CallContext context, Work<T> work) {
        return run(context, work).orElseThrow();
    }

    private static <T> RetryOutcome<T> stoppedBeforeAttempt(CallContext context, List<Attempt> attempts,
                                                            PaganticException last) {
        if (context.isCancelled()) {
            return failed(doneFailure(context), attempts, StopReason.CANCELLED);
        }
        return failed(last != null ? last : doneFailure(context), attempts, StopReason.DEADLINE);
    }

    private static <T> RetryOutcome<T> failed(PaganticException failure, List<Attempt> attempts, StopReason reason) {
        return new RetryOutcome<>(Optional.empty(), Optional.of(failure), attempts, reason);
    }

    /** The context's own cancellation or timeout error. */
    private static PaganticException doneFailure(CallContext context) {
        try {
            context.throwIfDone();
        } catch (PaganticException done) {
            return done;
        }
        return PaganticException.of(ErrorCode.CANCELLED_SIGNAL, "cancelled");
    }

    private static Duration elapsedSince(CallContext context, Instant started) {
        Duration elapsed = Duration.between(started, context.now());
        return elapsed.isNegative() ? Duration.ZERO : elapsed;
    }

    private double nextDouble() {
        if (random == null) {
            return ThreadLocalRandom.current().nextDouble();
        }
        synchronized (random) {
            return random.nextDouble();
        }
    }

    private static void requireAttempt(int attempt) {
        if (attempt < 1) {
            throw PaganticException.of(ErrorCode.CONFIG_INVALID, "attempt numbers start at 1: " + attempt);
        }
    }

    @Override
    public String toString() {
        return "RetryPolicy[maxAttempts=" + maxAttempts + ", initialDelay=" + initialDelay + ", multiplier="
                + multiplier + ", maxDelay=" + maxDelay + ", jitter=" + jitter + ", codes=" + codes
                + ", categories=" + categories + "]";
    }

    /** Builds a {@link RetryPolicy}; {@link #build()} throws {@code CONFIG_INVALID} if it is not valid. */
    public static final class Builder {
        private int maxAttempts = 3;
        private Duration initialDelay = Duration.ofMillis(500);
        private double multiplier = 2.0;
        private Duration maxDelay = Duration.ofSeconds(30);
        private double jitter = 0.2;
        private final Set<ErrorCode> codes = EnumSet.noneOf(ErrorCode.class);
        private final Set<FailureCategory> categories = EnumSet.noneOf(FailureCategory.class);
        private Sleeper sleeper = Sleeper.contextual();
        private @Nullable RandomGenerator random;

        private Builder() {
        }

        /** The most attempts, the first included (default 3; 1 means no retry). */
        public Builder maxAttempts(int value) {
            this.maxAttempts = value;
            return this;
        }

        /** The base wait before the second attempt (default 500 ms). */
        public Builder initialDelay(Duration value) {
            this.initialDelay = Objects.requireNonNull(value, "initialDelay");
            return this;
        }

        /** The growth factor of the wait, at least 1 (default 2; 1 is a constant back-off). */
        public Builder multiplier(double value) {
            this.multiplier = value;
            return this;
        }

        /** The longest wait (default 30 s). */
        public Builder maxDelay(Duration value) {
            this.maxDelay = Objects.requireNonNull(value, "maxDelay");
            return this;
        }

        /** The jitter fraction in [0, 1] (default 0.2); 0 makes waits exact. */
        public Builder jitter(double value) {
            this.jitter = value;
            return this;
        }

        /** Retries only failures with these codes (or with a category given to {@code retryOn(FailureCategory...)}). */
        public Builder retryOn(ErrorCode... values) {
            for (ErrorCode code : values) {
                codes.add(Objects.requireNonNull(code, "code"));
            }
            return this;
        }

        /** Retries only failures in these categories (or with a code given to {@link #retryOn(ErrorCode...)}). */
        public Builder retryOn(FailureCategory... values) {
            for (FailureCategory category : values) {
                categories.add(Objects.requireNonNull(category, "category"));
            }
            return this;
        }

        /** How to wait between attempts (default {@link Sleeper#contextual()}). */
        public Builder sleeper(Sleeper value) {
            this.sleeper = Objects.requireNonNull(value, "sleeper");
            return this;
        }

        /** The source of jitter (default {@link ThreadLocalRandom}); a seeded generator makes waits reproducible. */
        public Builder random(RandomGenerator value) {
            this.random = Objects.requireNonNull(value, "random");
            return this;
        }

        /**
         * Builds the policy.
         *
         * @throws PaganticException {@code CONFIG_INVALID} for fewer than 1 attempt, a negative delay, a maximum
         *                           below the initial delay, a multiplier below 1 (or not finite), or a jitter outside
         *                           [0, 1]
         */
        public RetryPolicy build() {
            check(maxAttempts >= 1, "maxAttempts must be at least 1: " + maxAttempts);
            check(!initialDelay.isNegative(), "initialDelay must not be negative: " + initialDelay);
            check(maxDelay.compareTo(initialDelay) >= 0,
                    "maxDelay (" + maxDelay + ") must not be below initialDelay (" + initialDelay + ")");
            check(Double.isFinite(multiplier) && multiplier >= 1, "multiplier must be finite and >= 1: " + multiplier);
            check(jitter >= 0 && jitter <= 1, "jitter must be within [0, 1]: " + jitter);
            try {
                maxDelay.toNanos();
            } catch (ArithmeticException tooLong) {
                check(false, "maxDelay is too long: " + maxDelay);
            }
            return new RetryPolicy(this);
        }

        private static void check(boolean condition, String message) {
            if (!condition) {
                throw PaganticException.of(ErrorCode.CONFIG_INVALID, message);
            }
        }
    }
}
