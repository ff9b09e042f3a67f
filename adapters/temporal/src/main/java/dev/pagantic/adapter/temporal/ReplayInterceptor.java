package dev.pagantic.adapter.temporal;

import dev.pagantic.core.ErrorCode;
import dev.pagantic.core.PaganticException;
import dev.pagantic.orchestrate.spi.Interceptor;
import dev.pagantic.orchestrate.spi.Invocation;
import dev.pagantic.orchestrate.spi.InvocationKind;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;

/**
 * The interceptor that makes a request's work durable. For a request with an open session, each outermost
 * invocation ({@link InvocationKind#PLAN_STEP} in plan mode, {@link InvocationKind#INFERENCE} and
 * {@link InvocationKind#TOOL_CALL} otherwise) is answered from the session's journal (the outcomes Temporal recorded
 * in the workflow history) in order; the first invocation beyond the journal either runs once, with whatever it
 * nests, and is recorded, after which the rest of the run is abandoned ({@link Mode#ADVANCE}, inside an activity), or
 * is refused ({@link Mode#REPLAY}, when the final response is rebuilt from a completed workflow). Requests without a
 * session (the in-process path) run directly.
 */
final class ReplayInterceptor implements Interceptor {

    /** Whether the first unrecorded invocation runs (inside an activity) or is an error (rebuilding a response). */
    enum Mode { ADVANCE, REPLAY }

    private final Map<String, Session> sessions = new ConcurrentHashMap<>();
    private final ResultCodec codec = new ResultCodec();

    Session open(String requestId, List<JournalEntry> journal, Mode mode) {
        Session session = new Session(List.copyOf(journal), mode, codec);
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
        if (session == null) {
            return invocation.proceed();
        }
        return session.next(invocation);
    }

    /** Thrown to abandon the rest of a run once its next invocation has been recorded. */
    static final class Suspended extends RuntimeException {
        Suspended() {
            super("durable run suspended after recording its next invocation", null, false, false);
        }
    }

    /** One run of one request against its journal. */
    static final class Session {
        private final List<JournalEntry> journal;
        private final Mode mode;
        private final ResultCodec codec;
        private int cursor;
        private volatile boolean running;
        private boolean suspended;
        private JournalEntry recorded;
        private PaganticException failure;

        private Session(List<JournalEntry> journal, Mode mode, ResultCodec codec) {
            this.journal = journal;
            this.mode = mode;
            this.codec = codec;
        }

        /** The outcome recorded by this run, or null when the run needed no new invocation. */
        synchronized JournalEntry recorded() {
            return recorded;
        }

        /** The failure of the invocation this run attempted, or null. */
        synchronized PaganticException failure() {
            return failure;
        }

        @SuppressWarnings("unchecked")
        <T> T next(Invocation<T> invocation) {
            if (running) {
                // Nested in the invocation being recorded (an engine call inside a plan step): part of it.
                return invocation.proceed();
            }
            JournalEntry entry = claim(invocation);
            if (entry != null) {
                return (T) codec.value(entry);
            }
            try {
                JournalEntry outcome = codec.record(invocation.kind().name(), invocation.name(), invocation.proceed());
                synchronized (this) {
                    recorded = outcome;
                }
            } catch (PaganticException e) {
                // The activity reports it to Temporal, which retries or records it according to its code.
                synchronized (this) {
                    failure = e;
                }
            } finally {
                running = false;
            }
            throw new Suspended();
        }

        /** The recorded entry for the next invocation, or null when this run is to run it (and then suspend). */
        private synchronized JournalEntry claim(Invocation<?> invocation) {
            if (suspended) {
                throw new Suspended();
            }
            int index = cursor++;
            if (index < journal.size()) {
                JournalEntry entry = journal.get(index);
                if (!entry.failed() && !(invocation.kind().name().equals(entry.kind())
                        && invocation.name().equals(entry.name()))) {
                    throw PaganticException.of(ErrorCode.ORCHESTRATION_STEP_MISMATCH, "durable replay diverged at "
                            + "invocation " + index + ": recorded " + entry.kind() + " " + entry.name() + ", now "
                            + invocation.kind() + " " + invocation.name());
                }
                return entry;
            }
            if (mode == Mode.REPLAY) {
                throw PaganticException.of(ErrorCode.ORCHESTRATION_STEP_MISMATCH, "durable replay needs invocation "
                        + index + " (" + invocation.kind() + " " + invocation.name() + ") that the workflow did not run");
            }
            suspended = true;
            running = true;
            return null;
        }
    }
}
