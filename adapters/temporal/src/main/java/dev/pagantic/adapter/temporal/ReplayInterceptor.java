package dev.pagantic.adapter.temporal;

import dev.pagantic.core.ErrorCode;
import dev.pagantic.core.PaganticException;
import dev.pagantic.orchestrate.spi.Interceptor;
import dev.pagantic.orchestrate.spi.Invocation;
import dev.pagantic.orchestrate.spi.InvocationKind;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.TimeUnit;
import org.jspecify.annotations.Nullable;

/**
 * The interceptor that makes a request's work durable. For a request with an open {@link Session}, each outermost
 * invocation ({@link InvocationKind#PLAN_STEP} in plan mode, {@link InvocationKind#INFERENCE} and
 * {@link InvocationKind#TOOL_CALL} otherwise) is answered from the session's journal by its key
 * ({@link ResultCodec#key} and its occurrence); an unrecorded one is either run once, with whatever it nests, and
 * recorded, or reported as pending, and the rest of the run is abandoned ({@link Suspended}). Requests without a
 * session (the in-process path) run directly.
 */
final class ReplayInterceptor implements Interceptor {

    private final Map<String, Session> sessions = new ConcurrentHashMap<>();
    private final ResultCodec codec;

    ReplayInterceptor(ResultCodec codec) {
        this.codec = codec;
    }

    /**
     * Opens a run of the request against its journal.
     *
     * @param target    the key of the one invocation to run, or null to run or report what the run reaches first
     * @param fanOutWindow how long a run that reached an unrecorded invocation off the request's own thread waits for
     *                  concurrent siblings before deciding (only when {@code target} is null)
     * @throws PaganticException {@code ORCHESTRATION_CONCURRENT_USE} when a run of the same request id is open here
     */
    Session open(String requestId, List<JournalEntry> journal, @Nullable String target, Duration fanOutWindow) {
        Session session = new Session(journal, target, fanOutWindow, codec, Thread.currentThread());
        if (sessions.putIfAbsent(requestId, session) != null) {
            throw PaganticException.of(ErrorCode.ORCHESTRATION_CONCURRENT_USE,
                    "request " + requestId + " is already running on this worker");
        }
        return session;
    }

    /** Ends the session; a no-op when another session has taken the request id since (a stale attempt's close). */
    void close(String requestId, Session session) {
        sessions.remove(requestId, session);
    }

    @Override
    public <T> T intercept(Invocation<T> invocation) {
        Session session = sessions.get(invocation.context().requestId());
        if (invocation.context().isCancelled()) {
            // A straggler of a durable run that is over: a replica or voter thread the orchestrator did not wait for,
            // reaching its call after the activity cancelled the run. It must neither run as if in process (no
            // session) nor count in the next run of the same request (a new session): the cancellation precedes
            // the close, so a session found by then is already a later one. In-process requests through
            // DurableOrchestrator are never cancelled.
            throw new Suspended();
        }
        if (session == null) {
            return invocation.proceed();
        }
        return session.next(invocation);
    }

    /** Thrown to abandon the rest of a run once its outcome (a recorded call or the pending keys) is known. */
    static final class Suspended extends RuntimeException {
        private static final long serialVersionUID = 1L;

        Suspended() {
            super("durable run suspended", null, false, false);
        }
    }

    /**
     * One run of one request against its journal. Thread-safe: the orchestrator may issue invocations from several
     * threads (concurrent redundant replicas, multi-model voters).
     *
     * <p>Without a target, the first unrecorded invocation decides: issued on the thread that opened the session (the
     * orchestrator's own thread, so nothing else is in flight), it runs at once; issued on another thread (a replica),
     * it waits, parked, until no further unrecorded invocation has arrived for the fan-out window, and then the single
     * one runs or, when several arrived, none runs and their keys are reported. The window bounds only how much
     * parallelism is found, never correctness: a sibling that arrives late is found by the next activity.
     */
    static final class Session {
        private final Map<String, JournalEntry> journal = new HashMap<>();
        private final @Nullable String target;
        private final long windowNanos;
        private final ResultCodec codec;
        private final Thread root;
        /** Marks the threads inside the invocation being run, whose own invocations are part of it. */
        private final ThreadLocal<Boolean> inside = new ThreadLocal<>();

        private final Map<String, Integer> occurrences = new HashMap<>();
        private final Set<String> consumed = new HashSet<>();
        private final Set<String> pending = new TreeSet<>();
        private long lastPending;
        private boolean decided;
        private @Nullable String running;
        private @Nullable InvocationKind runningKind;
        private boolean started;
        private boolean finished;
        private @Nullable List<String> reported;
        private @Nullable JournalEntry recorded;
        private @Nullable PaganticException failure;
        private @Nullable RuntimeException bug;
        private @Nullable PaganticException diverged;

        private Session(List<JournalEntry> entries, @Nullable String target, Duration fanOutWindow, ResultCodec codec,
                        Thread root) {
            entries.forEach(entry -> journal.put(entry.key(), entry));
            this.target = target;
            this.windowNanos = fanOutWindow.toNanos();
            this.codec = codec;
            this.root = root;
            if (target != null) {
                decided = true;
                running = target;
            }
        }

        /**
         * Waits until this run's outcome is known, after the orchestrator has returned (or thrown): the invocation it
         * ran finished, or the pending keys were reported, or it needed nothing. A run that was to run a target waits
         * up to {@code grace} for it to be reached (a sibling's suspension may end the orchestrator's call first).
         */
        synchronized void awaitOutcome(Duration grace) throws InterruptedException {
            long deadline = System.nanoTime() + grace.toNanos();
            while (diverged == null && reported == null && !finished) {
                if (!started && (target == null || System.nanoTime() >= deadline)) {
                    if (target != null) {
                        diverged = PaganticException.of(ErrorCode.ORCHESTRATION_STEP_MISMATCH,
                                "durable replay never reached invocation " + target);
                    }
                    return;
                }
                TimeUnit.NANOSECONDS.timedWait(this, started ? TimeUnit.SECONDS.toNanos(1)
                        : Math.max(1, deadline - System.nanoTime()));
            }
        }

        /** The outcome of the invocation this run ran, or null. */
        synchronized @Nullable JournalEntry recorded() {
            return recorded;
        }

        /** The failure of the invocation this run ran, or null. */
        synchronized @Nullable PaganticException failure() {
            return failure;
        }

        /** An unexpected exception of the invocation this run ran, or null. */
        synchronized @Nullable RuntimeException bug() {
            return bug;
        }

        /** The keys of the invocations the run reached concurrently, to run as parallel activities, or null. */
        synchronized @Nullable List<String> reported() {
            return reported;
        }

        /** Why the run does not follow its journal, or null. */
        synchronized @Nullable PaganticException diverged() {
            return diverged;
        }

        /** The key of the invocation this run ran (or was to run), or null. */
        synchronized @Nullable String running() {
            return started ? running : null;
        }

        @SuppressWarnings("unchecked")
        <T> T next(Invocation<T> invocation) {
            if (nested(invocation)) {
                return invocation.proceed();
            }
            String key;
            JournalEntry entry;
            synchronized (this) {
                String base = codec.key(invocation.kind().name(), invocation.name(), invocation.input());
                int occurrence = occurrences.merge(base, 1, Integer::sum) - 1;
                key = base + "#" + occurrence;
                entry = journal.get(key);
                if (entry != null) {
                    consumed.add(key);
                }
            }
            if (entry != null) {
                return (T) codec.value(entry);
            }
            if (!claim(key, invocation.kind())) {
                throw new Suspended();
            }
            inside.set(Boolean.TRUE);
            try {
                JournalEntry outcome = codec.record(key, invocation.kind().name(), invocation.name(),
                        invocation.proceed());
                synchronized (this) {
                    recorded = outcome;
                }
            } catch (PaganticException e) {
                // The activity reports it to Temporal, which retries or records it according to its code.
                synchronized (this) {
                    failure = e;
                }
            } catch (RuntimeException e) {
                synchronized (this) {
                    bug = e;
                }
            } finally {
                inside.remove();
                synchronized (this) {
                    finished = true;
                    notifyAll();
                }
            }
            throw new Suspended();
        }

        /**
         * An invocation made by the one being run is part of it: one on a thread inside it, or any engine or tool call
         * while a plan step runs (a step's calls are never outermost).
         */
        private synchronized boolean nested(Invocation<?> invocation) {
            return Boolean.TRUE.equals(inside.get()) || (started && !finished
                    && runningKind == InvocationKind.PLAN_STEP && invocation.kind() != InvocationKind.PLAN_STEP);
        }

        /** Whether the calling thread is to run the unrecorded invocation {@code key}; false: abandon the run. */
        private synchronized boolean claim(String key, InvocationKind kind) {
            if (!decided) {
                if (Thread.currentThread() == root && pending.isEmpty()) {
                    decided = true;
                    if (consumed.size() < journal.size()) {
                        // Everything the orchestrator forked was joined before its own thread went on, so a
                        // deterministic replay has used every recorded outcome by now.
                        diverged = PaganticException.of(ErrorCode.ORCHESTRATION_STEP_MISMATCH, "durable replay "
                                + "diverged: it reached " + key + " with " + (journal.size() - consumed.size())
                                + " recorded outcome(s) unused (is every worker configured the same way?)");
                        notifyAll();
                        return false;
                    }
                    running = key;
                } else {
                    awaitDecision(key);
                }
            }
            if (key.equals(running) && !started) {
                started = true;
                runningKind = kind;
                return true;
            }
            return false;
        }

        /** Parks an unrecorded invocation until the run decides what to do with the pending ones. */
        private void awaitDecision(String key) {
            pending.add(key);
            lastPending = System.nanoTime();
            notifyAll();
            try {
                while (!decided) {
                    long wait = lastPending + windowNanos - System.nanoTime();
                    if (wait <= 0) {
                        decided = true;
                        if (pending.size() == 1) {
                            running = pending.iterator().next();
                        } else {
                            reported = List.copyOf(new ArrayList<>(pending));
                        }
                        notifyAll();
                        return;
                    }
                    TimeUnit.NANOSECONDS.timedWait(this, wait);
                }
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                throw new Suspended();
            }
        }
    }
}
