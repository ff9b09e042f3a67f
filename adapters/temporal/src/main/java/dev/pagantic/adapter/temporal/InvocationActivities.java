package dev.pagantic.adapter.temporal;

import io.temporal.activity.ActivityInterface;
import io.temporal.activity.ActivityMethod;
import java.util.List;

/** The activity side: runs a request's next engine or tool call on the worker that holds the engines and tools. */
@ActivityInterface
public interface InvocationActivities {

    /**
     * Runs the request against the journal, replaying the recorded calls, and runs the first unrecorded call.
     *
     * @return that call's outcome, or the final response when the request needed no further call
     * @throws io.temporal.failure.ApplicationFailure typed with the {@link dev.pagantic.core.ErrorCode} name when the
     *                                                call failed; non-retryable when the code is
     */
    @ActivityMethod(name = "PaganticAdvance")
    Advance advance(String requestJson, List<JournalEntry> journal);

    /**
     * One activity's outcome: the next call's recorded outcome, or (when null) the final response.
     *
     * @param next         the outcome to append to the journal; null when the request is complete
     * @param responseJson the final response in the facade's wire format when {@code next} is null
     */
    record Advance(JournalEntry next, String responseJson) {
    }
}
