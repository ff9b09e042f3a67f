package dev.pagantic.testkit;

import dev.pagantic.core.CallContext;
import dev.pagantic.core.ToolCall;
import dev.pagantic.inference.Engine;
import dev.pagantic.inference.Request;
import dev.pagantic.inference.Result;
import dev.pagantic.inference.StreamHandler;
import java.time.Duration;
import java.util.Objects;
import org.jspecify.annotations.Nullable;

/**
 * An engine that adds latency to another (an {@link EchoEngine} by default): a delay before the call starts (time to
 * first token) and a delay before every streamed reasoning or content delta. It is the fixture for timeouts,
 * cancellation and progress display.
 *
 * <pre>{@code
 * SlowEngine engine = SlowEngine.builder().initialDelay(Duration.ofSeconds(30)).build();
 * CallContext ctx = CallContext.builder().timeout(Duration.ofMillis(100)).build();
 * engine.infer(ctx, request);   // fails with CANCELLED_TIMEOUT after about 100 ms, not 30 s
 * }</pre>
 *
 * <p>Every wait is a {@link CallContext#sleep(Duration)}, so a cancellation from another thread or a passing deadline
 * ends it at once with {@code CANCELLED_SIGNAL} or {@code CANCELLED_TIMEOUT}; the delay never outlives the call's
 * context. The per-token delay always applies, even to the two-argument {@code infer}, which streams to a no-op
 * handler; a delegate that does not stream delivers its reply in one delta, so it is delayed once. The engine owns
 * its delegate: closing it closes the delegate. Thread-safe.
 */
public final class SlowEngine extends DecoratingEngine {

    private final Duration initialDelay;
    private final Duration delayPerToken;

    private SlowEngine(Builder builder) {
        super(builder.delegate != null ? builder.delegate : EchoEngine.create());
        this.initialDelay = builder.initialDelay;
        this.delayPerToken = builder.delayPerToken;
    }

    /** Starts building; without delays the engine behaves like its delegate. */
    public static Builder builder() {
        return new Builder();
    }

    /** Waits, then runs the delegate, waiting before each delta passed on to the handler. */
    @Override
    public Result infer(CallContext context, Request request, StreamHandler handler) {
        requireOpen(context, request, handler);
        pause(context, initialDelay);
        return delegate.infer(context, request, new DelayingHandler(context, handler));
    }

    @Override
    public String toString() {
        return "SlowEngine[initialDelay=" + initialDelay + ", delayPerToken=" + delayPerToken + ", delegate="
                + delegate + "]";
    }

    /** Waits for the delay, or just checks the context when there is none (every wait is a cancellation point). */
    private static void pause(CallContext context, Duration delay) {
        if (delay.isZero()) {
            context.throwIfDone();
        } else {
            context.sleep(delay);
        }
    }

    /** Runs on the generating thread: a wait that fails here aborts the delegate's call with that failure. */
    private final class DelayingHandler implements StreamHandler {
        private final CallContext context;
        private final StreamHandler target;

        DelayingHandler(CallContext context, StreamHandler target) {
            this.context = context;
            this.target = target;
        }

        @Override
        public void onContent(String delta) {
            pause(context, delayPerToken);
            target.onContent(delta);
        }

        @Override
        public void onReasoning(String delta) {
            pause(context, delayPerToken);
            target.onReasoning(delta);
        }

        @Override
        public void onToolCall(ToolCall call) {
            target.onToolCall(call);
        }
    }

    /** Builds a {@link SlowEngine}; {@link #build()} throws {@code CONFIG_INVALID} on a bad setting. */
    public static final class Builder {
        private @Nullable Engine delegate;
        private Duration initialDelay = Duration.ZERO;
        private Duration delayPerToken = Duration.ZERO;

        private Builder() {
        }

        /** The engine that answers; default a fresh {@link EchoEngine}. */
        public Builder delegate(Engine engine) {
            this.delegate = Objects.requireNonNull(engine, "delegate");
            return this;
        }

        /** The wait before the delegate is called (time to first token); default none. */
        public Builder initialDelay(Duration delay) {
            this.initialDelay = delay;
            return this;
        }

        /** The wait before each streamed reasoning or content delta; default none. */
        public Builder delayPerToken(Duration delay) {
            this.delayPerToken = delay;
            return this;
        }

        /** Validates the settings and builds the engine. */
        public SlowEngine build() {
            Config.requireNonNegative(initialDelay, "initialDelay");
            Config.requireNonNegative(delayPerToken, "delayPerToken");
            return new SlowEngine(this);
        }
    }
}
