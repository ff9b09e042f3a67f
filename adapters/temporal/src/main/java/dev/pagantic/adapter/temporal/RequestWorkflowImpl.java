package dev.pagantic.adapter.temporal;

import dev.pagantic.core.ErrorCode;
import io.temporal.activity.ActivityOptions;
import io.temporal.failure.ActivityFailure;
import io.temporal.failure.ApplicationFailure;
import io.temporal.workflow.Workflow;
import java.util.ArrayList;
import java.util.List;

/**
 * The deterministic workflow: it only calls activities and keeps the journal of their outcomes. Each activity runs
 * one engine or tool call (replaying the ones before it), so a call that completed is never run again, whichever
 * worker picks up the rest. A call that failed for good is recorded as a failure, so the orchestrator sees the same
 * exception it would have seen in process and answers with the same error response.
 */
final class RequestWorkflowImpl implements RequestWorkflow {

    private final InvocationActivities activities;

    RequestWorkflowImpl(ActivityOptions options) {
        this.activities = Workflow.newActivityStub(InvocationActivities.class, options);
    }

    @Override
    public DurableResult run(String requestJson) {
        List<JournalEntry> journal = new ArrayList<>();
        while (true) {
            try {
                InvocationActivities.Advance advance = activities.advance(requestJson, List.copyOf(journal));
                if (advance.next() == null) {
                    return new DurableResult(journal, advance.responseJson());
                }
                journal.add(advance.next());
            } catch (ActivityFailure failure) {
                if (failure.getCause() instanceof ApplicationFailure cause && errorCode(cause.getType()) != null) {
                    journal.add(JournalEntry.failure(cause.getType(), cause.getOriginalMessage()));
                } else {
                    throw failure;
                }
            }
        }
    }

    /** The error code an activity failure's type names, or null when it names none. */
    static ErrorCode errorCode(String type) {
        for (ErrorCode code : ErrorCode.values()) {
            if (code.name().equals(type)) {
                return code;
            }
        }
        return null;
    }
}
