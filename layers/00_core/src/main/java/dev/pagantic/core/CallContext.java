package dev.pagantic.core;

import java.time.Duration;
import java.time.Instant;
import java.time.InstantSource;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import java.util.Optional;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;

/**
 * The immutable context every call carries: correlation ids, an optional deadline, cancellation, and the clock and id
 * generator that make deadlines, retries and ids deterministic in tests. It is pagantic's counterpart of Go's
 * {@code context.Context}: passed first, derived (never mutated) for child work.
 *
 * <p>Cancellation and deadlines are cooperative: long-running code calls {@link #throwIfDone()} between units of work
 * (steps, tool calls, tokens), waits with {@link #sleep}, or registers {@link #onCancel} to interrupt I/O.
 *
 * <pre>{@code
 * CallContext ctx = CallContext.builder().timeout(Duration.ofSeconds(30)).sessionId("chat-42").build();
 * CallContext toolCtx = ctx.childSpan("call_1");   // new span, parent = ctx's span, caused by the tool call
 * }</pre>
 */
public final class CallContext {

    private final Correlation correlation;
    private final Instant deadline; // null: no deadline
    private final List<Cancellation> cancellations; // root first; cancelled when any is
    private final InstantSource clock;
    private final IdGenerator ids;

    private CallContext(Correlation correlation, Instant deadline, List<Cancellation> cancellations,
                        InstantSource clock, IdGenerator ids) {
        this.correlation = correlation;
        this.deadline = deadline;
        this.cancellations = List.copyOf(cancellations);
        this.clock = clock;
        this.ids = ids;
    }

    /** A context with fresh random ids, no deadline, no cancellation and the system clock. */
    public static CallContext background() {
        return builder().build();
    }

    /** Starts building a root context. */
    public static Builder builder() {
        return new Builder();
    }

    public Correlation correlation() {
        return correlation;
    }

    public String requestId() {
        return correlation.requestId();
    }

    public String sessionId() {
        return correlation.sessionId();
    }

    public String traceId() {
        return correlation.traceId();
    }

    public String spanId() {
        return correlation.spanId();
    }

    /** The instant after which work must stop, if any. */
    public Optional<Instant> deadline() {
        return Optional.ofNullable(deadline);
    }

    /** Time left until the deadline (zero once it has passed); empty when there is no deadline. */
    public Optional<Duration> remaining() {
        if (deadline == null) {
            return Optional.empty();
        }
        Duration left = Duration.between(clock.instant(), deadline);
        return Optional.of(left.isNegative() ? Duration.ZERO : left);
    }

    /** The current instant by this context's clock. */
    public Instant now() {
        return clock.instant();
    }

    public InstantSource clock() {
        return clock;
    }

    public IdGenerator idGenerator() {
        return ids;
    }

    /** A fresh identifier from this context's generator (tool call ids, span ids). */
    public String newId() {
        return ids.nextId();
    }

    /** Whether this context, or one it was derived from, has been cancelled. */
    public boolean isCancelled() {
        for (Cancellation cancellation : cancellations) {
            if (cancellation.isCancelled()) {
                return true;
            }
        }
        return false;
    }

    /** Whether the deadline has passed. */
    public boolean isExpired() {
        return deadline != null && !clock.instant().isBefore(deadline);
    }

    /** Whether work under this context must stop: cancelled or expired. */
    public boolean isDone() {
        return isCancelled() || isExpired();
    }

    /**
     * Throws {@code CANCELLED_SIGNAL} when cancelled, or {@code CANCELLED_TIMEOUT} when the deadline has passed; does
     * nothing otherwise. Cancellation wins when both hold.
     */
    public void throwIfDone() {
        for (Cancellation cancellation : cancellations) {
            if (cancellation.isCancelled()) {
                throw PaganticException.builder(ErrorCode.CANCELLED_SIGNAL,
                                "cancelled: " + cancellation.reason().orElse("cancelled by caller"))
                        .detail("request_id", correlation.requestId()).build();
            }
        }
        if (isExpired()) {
            throw PaganticException.builder(ErrorCode.CANCELLED_TIMEOUT, "deadline exceeded at " + deadline)
                    .detail("request_id", correlation.requestId())
                    .detail("deadline", deadline.toString()).build();
        }
    }

    /**
     * Runs the listener once when this context is cancelled (at once if it already is), however many cancellations
     * of its chain fire. Use it to interrupt blocking I/O.
     * The listener runs on the cancelling thread and must be quick. Close the registration when the work is done.
     * Deadlines do not trigger listeners: bound blocking waits by {@link #remaining()}.
     */
    public Registration onCancel(Runnable listener) {
        Objects.requireNonNull(listener, "listener");
        // Once per context: with several cancellations in the chain (parent and child), each may fire.
        AtomicBoolean ran = new AtomicBoolean();
        Runnable once = () -> {
            if (ran.compareAndSet(false, true)) {
                listener.run();
            }
        };
        List<Registration> registrations = new ArrayList<>(cancellations.size());
        for (Cancellation cancellation : cancellations) {
            registrations.add(cancellation.onCancel(once));
        }
        return () -> registrations.forEach(Registration::close);
    }

    /**
     * Waits for the given time, returning early with an exception if the context is cancelled or its deadline passes
     * first ({@code CANCELLED_SIGNAL} or {@code CANCELLED_TIMEOUT}). Use it for back-off and simulated latency.
     */
    public void sleep(Duration duration) {
        throwIfDone();
        Duration wait = duration;
        boolean deadlineFirst = false;
        Optional<Duration> left = remaining();
        if (left.isPresent() && left.get().compareTo(duration) <= 0) {
            wait = left.get();
            deadlineFirst = true;
        }
        CountDownLatch cancelled = new CountDownLatch(1);
        Registration registration = onCancel(cancelled::countDown);
        try {
            if (cancelled.await(saturatedNanos(wait), TimeUnit.NANOSECONDS)) {
                throwIfDone();
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw PaganticException.of(ErrorCode.CANCELLED_SIGNAL, "interrupted while waiting", e);
        } finally {
            registration.close();
        }
        if (deadlineFirst) {
            throw PaganticException.builder(ErrorCode.CANCELLED_TIMEOUT, "deadline exceeded at " + deadline)
                    .detail("request_id", correlation.requestId())
                    .detail("deadline", deadline.toString()).build();
        }
    }

    /** The duration in nanoseconds, capped at {@code Long.MAX_VALUE} (about 292 years) instead of overflowing. */
    private static long saturatedNanos(Duration duration) {
        try {
            return duration.toNanos();
        } catch (ArithmeticException tooLong) {
            return duration.isNegative() ? Long.MIN_VALUE : Long.MAX_VALUE;
        }
    }

    /** A child whose deadline is the earlier of this context's and now plus the timeout. */
    public CallContext withTimeout(Duration timeout) {
        if (timeout.isNegative()) {
            throw PaganticException.of(ErrorCode.CONFIG_INVALID, "timeout must not be negative: " + timeout);
        }
        return withDeadline(plusSaturated(clock.instant(), timeout));
    }

    /** The instant plus the duration, capped at {@link Instant#MAX}: a huge timeout means no practical deadline. */
    private static Instant plusSaturated(Instant instant, Duration duration) {
        try {
            return instant.plus(duration);
        } catch (java.time.DateTimeException | ArithmeticException tooFar) {
            return Instant.MAX;
        }
    }

    /** A child whose deadline is the earlier of this context's and the given instant. */
    public CallContext withDeadline(Instant newDeadline) {
        Objects.requireNonNull(newDeadline, "deadline");
        Instant effective = deadline != null && deadline.isBefore(newDeadline) ? deadline : newDeadline;
        return new CallContext(correlation, effective, cancellations, clock, ids);
    }

    /**
     * A child that is also cancelled by the given cancellation. Cancelling the child's cancellation leaves this
     * context alone; cancelling this context cancels the child.
     */
    public CallContext withCancellation(Cancellation cancellation) {
        Objects.requireNonNull(cancellation, "cancellation");
        List<Cancellation> chain = new ArrayList<>(cancellations);
        chain.add(cancellation);
        return new CallContext(correlation, deadline, chain, clock, ids);
    }

    /** A child in a new span whose parent is this context's span; the causal link is kept. */
    public CallContext childSpan() {
        return childSpan(correlation.causedBy());
    }

    /** A child in a new span whose parent is this context's span, caused by the given tool call id or step name. */
    public CallContext childSpan(String causedBy) {
        Objects.requireNonNull(causedBy, "causedBy");
        Correlation child = new Correlation(correlation.requestId(), correlation.sessionId(), correlation.traceId(),
                ids.nextId(), correlation.spanId(), causedBy);
        return new CallContext(child, deadline, cancellations, clock, ids);
    }

    /** A child in the same span with the given session id (for example when a request joins a conversation). */
    public CallContext withSessionId(String sessionId) {
        Objects.requireNonNull(sessionId, "sessionId");
        Correlation next = new Correlation(correlation.requestId(), sessionId, correlation.traceId(),
                correlation.spanId(), correlation.parentSpanId(), correlation.causedBy());
        return new CallContext(next, deadline, cancellations, clock, ids);
    }

    @Override
    public String toString() {
        return "CallContext[" + correlation + ", deadline=" + deadline + ", cancelled=" + isCancelled() + "]";
    }

    /**
     * Builds a root context. Ids that are not given are generated from the id generator when {@link #build()} runs:
     * request, trace and span ids are never empty.
     */
    public static final class Builder {
        private String requestId = "";
        private String sessionId = "";
        private String traceId = "";
        private String parentSpanId = "";
        private Instant deadline;
        private Duration timeout;
        private final List<Cancellation> cancellations = new ArrayList<>();
        private InstantSource clock = InstantSource.system();
        private IdGenerator ids = IdGenerator.random();

        private Builder() {
        }

        /** The request id; generated when absent. */
        public Builder requestId(String id) {
            this.requestId = Objects.requireNonNull(id, "requestId");
            return this;
        }

        /** The conversation's session id; empty for single-shot requests. */
        public Builder sessionId(String id) {
            this.sessionId = Objects.requireNonNull(id, "sessionId");
            return this;
        }

        /** The trace id propagated from a caller; generated when absent. */
        public Builder traceId(String id) {
            this.traceId = Objects.requireNonNull(id, "traceId");
            return this;
        }

        /** The caller's span, when this request continues a trace started elsewhere. */
        public Builder parentSpanId(String id) {
            this.parentSpanId = Objects.requireNonNull(id, "parentSpanId");
            return this;
        }

        /** An absolute deadline. */
        public Builder deadline(Instant instant) {
            this.deadline = Objects.requireNonNull(instant, "deadline");
            return this;
        }

        /** A deadline relative to the clock's instant at {@link #build()}. */
        public Builder timeout(Duration duration) {
            Objects.requireNonNull(duration, "timeout");
            if (duration.isNegative()) {
                throw PaganticException.of(ErrorCode.CONFIG_INVALID, "timeout must not be negative: " + duration);
            }
            this.timeout = duration;
            return this;
        }

        /** A cancellation that the caller keeps in order to cancel the work. */
        public Builder cancellation(Cancellation cancellation) {
            this.cancellations.add(Objects.requireNonNull(cancellation, "cancellation"));
            return this;
        }

        /** The clock for deadlines and timestamps; inject a controllable one in tests. */
        public Builder clock(InstantSource source) {
            this.clock = Objects.requireNonNull(source, "clock");
            return this;
        }

        /** The generator of request, trace, span and tool call ids; inject a sequential one in tests. */
        public Builder idGenerator(IdGenerator generator) {
            this.ids = Objects.requireNonNull(generator, "idGenerator");
            return this;
        }

        public CallContext build() {
            Correlation correlation = new Correlation(orNew(requestId), sessionId, orNew(traceId), ids.nextId(),
                    parentSpanId, "");
            Instant effective = deadline;
            if (timeout != null) {
                Instant fromTimeout = plusSaturated(clock.instant(), timeout);
                effective = effective == null || fromTimeout.isBefore(effective) ? fromTimeout : effective;
            }
            return new CallContext(correlation, effective, cancellations, clock, ids);
        }

        private String orNew(String id) {
            return id.isEmpty() ? ids.nextId() : id;
        }
    }
}
