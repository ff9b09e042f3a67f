package dev.pagantic.testkit;

import dev.pagantic.core.CallContext;
import dev.pagantic.core.ErrorCode;
import dev.pagantic.core.PaganticException;
import dev.pagantic.inference.Engine;
import dev.pagantic.inference.Request;
import dev.pagantic.inference.Result;
import dev.pagantic.inference.StreamHandler;
import java.util.Objects;
import java.util.concurrent.atomic.AtomicInteger;
import org.jspecify.annotations.Nullable;

/**
 * An engine whose backend fails the first N calls with a chosen error and then recovers, delegating to another engine
 * (an {@link EchoEngine} by default): the fixture for retry, fallback and circuit-breaking code.
 *
 * <pre>{@code
 * FailingEngine engine = FailingEngine.builder()
 *         .failures(2)                                  // calls 1 and 2 fail...
 *         .code(ErrorCode.INFERENCE_SATURATED)          // ...with this code and its default retryability
 *         .delegate(ScriptedEngine.replying("done"))    // call 3 answers
 *         .build();
 * }</pre>
 *
 * <p>A call is refused before it is counted when the engine is closed ({@code INFERENCE_ENGINE_CLOSED}), its context
 * is cancelled or expired ({@code CANCELLED_*}) or it needs a capability the delegate does not declare
 * ({@code CONFIG_UNSUPPORTED_CAPABILITY}), as a real engine refuses before reaching its backend; so the N failures
 * always go to the first N admitted calls. The engine owns its delegate: closing it closes the delegate. Thread-safe.
 */
public final class FailingEngine extends DecoratingEngine {

    private final int failures;
    private final ErrorCode code;
    private final String message;
    private final boolean retryable;
    private final AtomicInteger calls = new AtomicInteger();

    private FailingEngine(Builder builder) {
        super(builder.delegate != null ? builder.delegate : EchoEngine.create());
        this.failures = builder.failures;
        this.code = builder.code;
        this.message = builder.message;
        this.retryable = builder.retryable != null ? builder.retryable : builder.code.retryable();
    }

    /** Starts building; the defaults fail the first call with a retryable {@code INFERENCE_ENGINE_ERROR}. */
    public static Builder builder() {
        return new Builder();
    }

    /** Fails while within the first N admitted calls, then delegates. */
    @Override
    public Result infer(CallContext context, Request request) {
        admit(context, request, StreamHandler.NOOP);
        return delegate.infer(context, request);
    }

    /** Fails while within the first N admitted calls, then delegates, passing the handler on. */
    @Override
    public Result infer(CallContext context, Request request, StreamHandler handler) {
        admit(context, request, handler);
        return delegate.infer(context, request, handler);
    }

    /** Admitted calls so far, failed and delegated. */
    public int callCount() {
        return calls.get();
    }

    /** Calls that have failed so far. */
    public int failureCount() {
        return Math.min(calls.get(), failures);
    }

    @Override
    public String toString() {
        return "FailingEngine[" + code + ", failures=" + failureCount() + ", calls=" + calls.get() + ", delegate="
                + delegate + "]";
    }

    private void admit(CallContext context, Request request, StreamHandler handler) {
        requireOpen(context, request, handler);
        context.throwIfDone();
        modelInfo().requireSupported(request);
        int call = calls.incrementAndGet();
        if (call <= failures) {
            throw PaganticException.builder(code, message.isEmpty() ? defaultMessage(call) : message)
                    .retryable(retryable)
                    .detail("model", modelInfo().name())
                    .detail("call", call)
                    .build();
        }
    }

    private String defaultMessage(int call) {
        String scope = failures == Integer.MAX_VALUE ? "every call fails" : "the first " + failures + " fail";
        return "simulated backend failure of call " + call + " (" + scope + ")";
    }

    /** Builds a {@link FailingEngine}; {@link #build()} throws {@code CONFIG_INVALID} on a bad setting. */
    public static final class Builder {
        private int failures = 1;
        private ErrorCode code = ErrorCode.INFERENCE_ENGINE_ERROR;
        private String message = "";
        private @Nullable Boolean retryable;
        private @Nullable Engine delegate;

        private Builder() {
        }

        /** How many of the first admitted calls fail (0 or more); default 1. */
        public Builder failures(int count) {
            this.failures = count;
            return this;
        }

        /** Every call fails; the delegate is never reached. */
        public Builder failAlways() {
            this.failures = Integer.MAX_VALUE;
            return this;
        }

        /** The code of the failures; default {@code INFERENCE_ENGINE_ERROR}. Any code may be simulated. */
        public Builder code(ErrorCode errorCode) {
            this.code = Objects.requireNonNull(errorCode, "code");
            return this;
        }

        /** The failures' message; by default one naming the call. */
        public Builder message(String text) {
            this.message = Objects.requireNonNull(text, "message");
            return this;
        }

        /** Overrides the code's default retryability (a server that said "retry after", for example). */
        public Builder retryable(boolean value) {
            this.retryable = value;
            return this;
        }

        /** The engine that answers once the failures are spent; default a fresh {@link EchoEngine}. */
        public Builder delegate(Engine engine) {
            this.delegate = Objects.requireNonNull(engine, "delegate");
            return this;
        }

        /** Validates the settings and builds the engine. */
        public FailingEngine build() {
            Config.require(failures >= 0, "failures must not be negative: " + failures);
            return new FailingEngine(this);
        }
    }
}
