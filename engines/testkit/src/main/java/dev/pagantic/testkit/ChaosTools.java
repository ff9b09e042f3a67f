package dev.pagantic.testkit;

import dev.pagantic.core.CallContext;
import dev.pagantic.core.PaganticException;
import java.time.Duration;
import java.util.Map;
import java.util.Objects;
import java.util.Random;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.Consumer;
import org.jspecify.annotations.Nullable;

/**
 * Tool bodies that misbehave: they throw, hang without honouring interruption or their context, or are slow. They
 * have the shape of the tool layer's handler ({@code (ctx, arguments) -> result}), so they plug into a tool by method
 * reference without the testkit depending on the tool layer:
 *
 * <pre>{@code
 * ChaosTools chaos = ChaosTools.builder().seed(7)
 *         .failure(0.05).hang(0.01, Duration.ofMillis(300)).slow(0.1, Duration.ofMillis(5))
 *         .listener(fault -> faults.add(fault))
 *         .build();
 * Tool lookup = Tool.builder(definition).handler(chaos.wrap((ctx, args) -> "found " + args.get("key"))::execute)
 *         .timeout(Duration.ofMillis(50)).build();
 * Tool stuck = Tool.builder(definition).handler(ChaosTools.hanging(Duration.ofSeconds(1))::execute).build();
 * }</pre>
 *
 * <ul>
 *   <li>{@link Fault#THROW}: the body throws an {@link IllegalStateException} (a plain bug, not a
 *       {@link PaganticException}: the executor must wrap it as {@code TOOL_EXECUTION_FAILED});</li>
 *   <li>{@link Fault#HANG}: the body sleeps for the hang duration and ignores interruption (it swallows each
 *       interrupt and goes back to sleep) and its context's cancellation and deadline: a non-cooperative tool that no
 *       timeout can stop, which ends on its own after the hang duration and then returns its normal result;</li>
 *   <li>{@link Fault#SLOW}: the body waits a uniform time up to the slow delay with {@link CallContext#sleep} (a
 *       cooperative wait that its timeout or cancellation ends), then runs normally.</li>
 * </ul>
 * At most one fault per call, drawn from a seeded {@link Random} (the probabilities must add up to at most 1); each
 * injected fault is reported to the {@linkplain Builder#listener listener}, on the tool's thread, before it takes
 * effect. Thread-safe.
 */
public final class ChaosTools {

    /** The shape of a tool's body: the tool layer's {@code Tool.Handler}. */
    @FunctionalInterface
    public interface Body {
        /** Runs the tool; see the tool layer's {@code Tool.execute}. */
        String execute(CallContext ctx, Map<String, Object> arguments) throws Exception;
    }

    /** What a call can get. */
    public enum Fault {
        /** The body throws. */
        THROW,
        /** The body hangs, ignoring interruption and its context. */
        HANG,
        /** The body waits cooperatively before running. */
        SLOW
    }

    /**
     * One injected fault.
     *
     * @param fault     what was injected
     * @param requestId the request id of the tool's context
     * @param delay     the hang duration or the slow wait; zero for {@link Fault#THROW}
     */
    public record Injection(Fault fault, String requestId, Duration delay) {
        public Injection {
            Objects.requireNonNull(fault, "fault");
            Objects.requireNonNull(requestId, "requestId");
            Objects.requireNonNull(delay, "delay");
        }
    }

    private final Random random;
    private final double failureProbability;
    private final double hangProbability;
    private final Duration hangDuration;
    private final double slowProbability;
    private final Duration slowDelay;
    private final @Nullable Consumer<Injection> listener;
    private final AtomicLong calls = new AtomicLong();

    private ChaosTools(Builder builder) {
        this.random = new Random(builder.seed);
        this.failureProbability = builder.failureProbability;
        this.hangProbability = builder.hangProbability;
        this.hangDuration = builder.hangDuration;
        this.slowProbability = builder.slowProbability;
        this.slowDelay = builder.slowDelay;
        this.listener = builder.listener;
    }

    /** Starts building; every probability is 0 by default. */
    public static Builder builder() {
        return new Builder();
    }

    /** A body that always throws an {@link IllegalStateException} with this message. */
    public static Body throwing(String message) {
        Objects.requireNonNull(message, "message");
        return (ctx, arguments) -> {
            throw new IllegalStateException(message);
        };
    }

    /** A body that sleeps for the duration, ignoring interruption and its context, then returns {@code "woke up"}. */
    public static Body hanging(Duration duration) {
        Config.requireNonNegative(duration, "duration");
        return (ctx, arguments) -> {
            sleepUninterruptibly(duration);
            return "woke up";
        };
    }

    /** A body that waits cooperatively ({@link CallContext#sleep}) for the delay, then runs the given body. */
    public static Body slow(Duration delay, Body body) {
        Config.requireNonNegative(delay, "delay");
        Objects.requireNonNull(body, "body");
        return (ctx, arguments) -> {
            ctx.sleep(delay);
            return body.execute(ctx, arguments);
        };
    }

    /** The body with this instance's faults injected by their probabilities; otherwise it runs unchanged. */
    public Body wrap(Body body) {
        Objects.requireNonNull(body, "body");
        return (ctx, arguments) -> {
            calls.incrementAndGet();
            double roll;
            double fraction;
            synchronized (random) {
                roll = random.nextDouble();
                fraction = random.nextDouble();
            }
            if (roll < failureProbability) {
                report(Fault.THROW, ctx, Duration.ZERO);
                throw new IllegalStateException("chaos: injected tool failure");
            }
            if (roll < failureProbability + hangProbability) {
                report(Fault.HANG, ctx, hangDuration);
                sleepUninterruptibly(hangDuration);
                return body.execute(ctx, arguments);
            }
            if (roll < failureProbability + hangProbability + slowProbability) {
                Duration wait = Duration.ofNanos((long) (slowDelay.toNanos() * fraction));
                report(Fault.SLOW, ctx, wait);
                ctx.sleep(wait);
            }
            return body.execute(ctx, arguments);
        };
    }

    /** Calls of wrapped bodies so far. */
    public long callCount() {
        return calls.get();
    }

    private void report(Fault fault, CallContext ctx, Duration delay) {
        if (listener != null) {
            listener.accept(new Injection(fault, ctx.requestId(), delay));
        }
    }

    /**
     * Sleeps the whole duration whatever happens: an interrupt is swallowed (and restored at the end, so the thread's
     * owner can still see it), which is exactly what a badly written tool does.
     */
    private static void sleepUninterruptibly(Duration duration) {
        long end = System.nanoTime() + duration.toNanos();
        boolean interrupted = false;
        long left;
        while ((left = end - System.nanoTime()) > 0) {
            try {
                Thread.sleep(left / 1_000_000, (int) (left % 1_000_000));
            } catch (InterruptedException ignored) {
                interrupted = true;
            }
        }
        if (interrupted) {
            Thread.currentThread().interrupt();
        }
    }

    /** Builds {@link ChaosTools}; {@link #build()} throws {@code CONFIG_INVALID} on a bad setting. */
    public static final class Builder {
        private long seed = 1;
        private double failureProbability;
        private double hangProbability;
        private Duration hangDuration = Duration.ZERO;
        private double slowProbability;
        private Duration slowDelay = Duration.ZERO;
        private @Nullable Consumer<Injection> listener;

        private Builder() {
        }

        /** The seed of the random draws; default 1. */
        public Builder seed(long value) {
            this.seed = value;
            return this;
        }

        /** The probability that a call throws; default 0. */
        public Builder failure(double probability) {
            this.failureProbability = probability;
            return this;
        }

        /** The probability that a call hangs for the duration, ignoring interruption; default 0. */
        public Builder hang(double probability, Duration duration) {
            this.hangProbability = probability;
            this.hangDuration = duration;
            return this;
        }

        /** The probability that a call first waits a uniform time up to the delay, cooperatively; default 0. */
        public Builder slow(double probability, Duration delay) {
            this.slowProbability = probability;
            this.slowDelay = delay;
            return this;
        }

        /** Receives every injected fault, on the tool's thread, before it takes effect; none by default. */
        public Builder listener(Consumer<Injection> value) {
            this.listener = value;
            return this;
        }

        /** Validates the settings and builds the tools. */
        public ChaosTools build() {
            for (double p : new double[] {failureProbability, hangProbability, slowProbability}) {
                Config.require(p >= 0 && p <= 1, "probabilities must be within [0, 1]: " + p);
            }
            Config.require(failureProbability + hangProbability + slowProbability <= 1.0 + 1e-9,
                    "the fault probabilities add up to more than 1");
            Config.requireNonNegative(hangDuration, "hangDuration");
            Config.requireNonNegative(slowDelay, "slowDelay");
            if (hangProbability > 0) {
                Config.require(!hangDuration.isZero(), "a hang needs a positive duration");
            }
            return new ChaosTools(this);
        }
    }
}
