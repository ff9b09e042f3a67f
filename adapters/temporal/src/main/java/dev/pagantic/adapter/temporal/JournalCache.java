package dev.pagantic.adapter.temporal;

import io.temporal.failure.ApplicationFailure;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.jspecify.annotations.Nullable;

/**
 * The journals a worker has received, per workflow run, so that the workflow need send each activity only the entries
 * added since its previous activity instead of the whole journal (which made the history grow with the square of the
 * number of calls). A workflow's journal only grows by appending, so every journal a run sends is a prefix of the
 * next: the first {@code known} entries of the longest one held here are those the workflow means.
 *
 * <p>A worker that holds fewer than {@code known} entries (another worker ran the previous activity, this one
 * restarted, or the run was evicted) refuses the call with a non-retryable {@value #MISS} failure naming how many it
 * holds, and the workflow sends it again from there. Bounded: the least recently used runs are evicted beyond
 * {@code maxRuns}. Thread-safe.
 */
final class JournalCache {

    /** The failure type of a call whose journal this worker does not hold; its detail is the count it holds. */
    static final String MISS = "JOURNAL_CACHE_MISS";

    private final Map<String, List<JournalEntry>> runs;

    JournalCache(int maxRuns) {
        this.runs = new LinkedHashMap<>(16, 0.75f, true) {
            private static final long serialVersionUID = 1L;

            @Override
            protected boolean removeEldestEntry(Map.Entry<String, List<JournalEntry>> eldest) {
                return size() > maxRuns;
            }
        };
    }

    /**
     * The whole journal: the first {@code known} entries held for the run, then {@code entries}; remembered for the
     * run's next call.
     *
     * @param run the workflow run ({@code workflowId/runId}), or null outside an activity (nothing is held)
     * @throws ApplicationFailure {@value #MISS}, non-retryable, when fewer than {@code known} entries are held
     */
    synchronized List<JournalEntry> resolve(@Nullable String run, int known, List<JournalEntry> entries) {
        List<JournalEntry> held = run == null ? null : runs.get(run);
        int have = held == null ? 0 : held.size();
        if (known > have) {
            throw ApplicationFailure.newNonRetryableFailure("this worker holds " + have + " of the " + known
                    + " journal entries the call assumes", MISS, have);
        }
        List<JournalEntry> journal;
        if (known == 0) {
            journal = List.copyOf(entries);
        } else {
            List<JournalEntry> joined = new ArrayList<>(known + entries.size());
            joined.addAll(held.subList(0, known));
            joined.addAll(entries);
            journal = List.copyOf(joined);
        }
        if (run != null && journal.size() >= have) {
            runs.put(run, journal);
        }
        return journal;
    }

    /** Forgets a run that is over. */
    synchronized void forget(@Nullable String run) {
        if (run != null) {
            runs.remove(run);
        }
    }
}
