package dev.pagantic.adapter.temporal;

import dev.pagantic.core.ErrorCode;
import io.temporal.activity.ActivityOptions;
import io.temporal.failure.ActivityFailure;
import io.temporal.failure.ApplicationFailure;
import io.temporal.workflow.Async;
import io.temporal.workflow.Promise;
import io.temporal.workflow.Workflow;
import java.util.ArrayList;
import java.util.List;
import org.jspecify.annotations.Nullable;

/**
 * The deterministic workflow: it only calls activities and keeps the journal of their outcomes. Each activity runs
 * one engine, tool or plan-step call (replaying the ones before it), so a call that completed is never run again,
 * whichever worker picks up the rest. When a run reaches several calls at once (concurrent redundant replicas or
 * voters), the activity reports their keys and the workflow runs one activity per key, all started before any is
 * awaited, and records their outcomes in the order of the keys. A call that failed for good is recorded as a failure,
 * so the orchestrator sees the same exception it would have seen in process and answers with the same error response.
 *
 * <p>Determinism: no clock, randomness or I/O here; the order of everything recorded comes from activity results,
 * which are in the history.
 */
final class RequestWorkflowImpl implements RequestWorkflow {

    private final InvocationActivities activities;

    RequestWorkflowImpl(ActivityOptions options) {
        this.activities = Workflow.newActivityStub(InvocationActivities.class, options);
    }

    @Override
    public DurableResult run(String requestJson) {
        List<JournalEntry> journal = new ArrayList<>();
        // How many entries of the journal an activity has already received: the workers' caches may hold them, so
        // only the rest is sent (JournalCache); a worker that lacks them says so and gets the entries it lacks.
        int sent = 0;
        while (true) {
            int known = sent;
            sent = journal.size();
            InvocationActivities.Advance advance;
            try {
                advance = call(requestJson, journal, known, null);
            } catch (ActivityFailure failure) {
                journal.add(recordedFailure(failure));
                continue;
            }
            if (advance.response() != null) {
                return new DurableResult(journal, advance.response());
            }
            if (advance.next() != null) {
                journal.add(advance.next());
                continue;
            }
            // Nothing was added since the activity that found them, which received the whole journal.
            List<JournalEntry> snapshot = List.copyOf(journal);
            int fanOutKnown = sent;
            List<Promise<InvocationActivities.Advance>> calls = new ArrayList<>();
            for (String key : advance.pending()) {
                calls.add(Async.function(() -> call(requestJson, snapshot, fanOutKnown, key)));
            }
            for (Promise<InvocationActivities.Advance> call : calls) {
                try {
                    JournalEntry next = call.get().next();
                    if (next == null) {
                        throw ApplicationFailure.newNonRetryableFailure("a fanned-out call recorded nothing",
                                ErrorCode.ORCHESTRATION_STEP_MISMATCH.name());
                    }
                    journal.add(next);
                } catch (ActivityFailure failure) {
                    journal.add(recordedFailure(failure));
                }
            }
        }
    }

    /**
     * Runs one activity with the journal entries from {@code known} on; when its worker holds fewer than
     * {@code known} of them, runs it again from as many as that worker holds (each such miss lowers {@code known},
     * down to 0, which no worker can miss).
     */
    private InvocationActivities.Advance call(String requestJson, List<JournalEntry> journal, int known,
                                              @Nullable String target) {
        int from = known;
        while (true) {
            try {
                return activities.advance(requestJson, from, List.copyOf(journal.subList(from, journal.size())),
                        target);
            } catch (ActivityFailure failure) {
                Integer held = heldOnMiss(failure);
                if (held == null || held >= from) {
                    throw failure;
                }
                from = held;
            }
        }
    }

    /** The number of entries a worker that missed the journal holds, or null when the failure is no such miss. */
    private static @Nullable Integer heldOnMiss(ActivityFailure failure) {
        if (failure.getCause() instanceof ApplicationFailure cause && JournalCache.MISS.equals(cause.getType())
                && cause.getDetails().getSize() > 0) {
            return cause.getDetails().get(Integer.class);
        }
        return null;
    }

    /**
     * The journal entry of a call that failed for good: its error code and message under its key. A failure that
     * names no code or no call (a divergence, a bug) fails the workflow instead.
     */
    private static JournalEntry recordedFailure(ActivityFailure failure) {
        if (failure.getCause() instanceof ApplicationFailure cause && errorCode(cause.getType()) != null
                && cause.getDetails().getSize() > 0) {
            String key = cause.getDetails().get(String.class);
            if (key != null) {
                return JournalEntry.failure(key, cause.getType(), cause.getOriginalMessage());
            }
        }
        throw failure;
    }

    /** The error code an activity failure's type names, or null when it names none. */
    static @Nullable ErrorCode errorCode(String type) {
        for (ErrorCode code : ErrorCode.values()) {
            if (code.name().equals(type)) {
                return code;
            }
        }
        return null;
    }
}
