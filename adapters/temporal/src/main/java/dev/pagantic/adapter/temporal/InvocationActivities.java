package dev.pagantic.adapter.temporal;

import io.temporal.activity.ActivityInterface;
import io.temporal.activity.ActivityMethod;
import java.util.List;
import org.jspecify.annotations.Nullable;

/** The activity side: runs a request's next engine, tool or plan-step call on the worker that holds them. */
@ActivityInterface
public interface InvocationActivities {

    /**
     * Runs the request against the journal, answering the recorded calls from it, and then:
     * <ul>
     *   <li>with no {@code target}: when the run reaches one unrecorded call, runs it and returns its outcome; when it
     *       reaches several at once (concurrent replicas or voters), runs none and returns their keys, for the
     *       workflow to run each as its own activity; when it needs none, returns the final response;</li>
     *   <li>with a {@code target} key: runs only that call (the others it reaches are abandoned) and returns its
     *       outcome.</li>
     * </ul>
     * The activity heartbeats while it runs.
     *
     * <p>The journal is the first {@code known} entries of the run's journal, which this worker received with earlier
     * calls of the same workflow run (a per-worker cache), followed by {@code entries}; {@code known} 0 sends it
     * whole.
     *
     * @throws io.temporal.failure.ApplicationFailure typed with the {@link dev.pagantic.core.ErrorCode} name, and
     *                                                with the call's key as its detail, when the call failed;
     *                                                non-retryable when the code is; typed
     *                                                {@code JOURNAL_CACHE_MISS}, non-retryable, with the number of
     *                                                entries this worker holds as its detail, when it holds fewer
     *                                                than {@code known}
     */
    @ActivityMethod(name = "PaganticAdvance")
    Advance advance(String requestJson, int known, List<JournalEntry> entries, @Nullable String target);

    /**
     * One activity's outcome: exactly one of the three is set.
     *
     * @param next     the outcome of the call this activity ran, to append to the journal
     * @param pending  the keys of the calls the run reached concurrently, to run as parallel activities
     * @param response the final response ({@link ResultCodec}-encoded) when the request needed no further call
     */
    record Advance(@Nullable JournalEntry next, @Nullable List<String> pending, @Nullable JournalEntry response) {
    }
}
