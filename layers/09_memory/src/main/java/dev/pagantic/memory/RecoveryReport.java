package dev.pagantic.memory;

import java.nio.file.Path;
import java.util.Objects;
import java.util.Optional;
import java.util.OptionalLong;

/**
 * What a store found when it opened a session's journal. A journal is read record by record; the first record that
 * is incomplete, fails its checksum or does not decode ends the valid prefix. Everything before it is recovered;
 * everything from it on is cut off, and the journal is truncated there so that new commits follow valid records.
 *
 * @param status           what was found
 * @param recordsRecovered how many records the valid prefix holds
 * @param validBytes       the length of the valid prefix (header included)
 * @param discardedBytes   how many bytes were cut off
 * @param problemOffset    the offset of the first bad record; empty when clean
 * @param problem          what was wrong with it; empty when clean
 * @param preservedCopy    for corruption, a copy of the whole journal as it was before truncation, kept for
 *                         inspection; empty otherwise
 */
public record RecoveryReport(Status status, long recordsRecovered, long validBytes, long discardedBytes,
        OptionalLong problemOffset, String problem, Optional<Path> preservedCopy) {

    /** The outcome of opening a journal. */
    public enum Status {
        /** Every byte belonged to a valid record. */
        CLEAN,
        /**
         * The last record was incomplete (or failed its checksum at the very end of the file): a write interrupted by
         * a crash. It was never committed (a commit returns only after the write is forced), so nothing committed is
         * lost; it was cut off.
         */
        TORN_TAIL_TRUNCATED,
        /**
         * A record before the end failed its checksum or did not decode: the file was damaged after it was written.
         * The valid prefix was recovered; the records after the damage are lost to this store, and the original file
         * is preserved in {@link #preservedCopy()}.
         */
        CORRUPTION_TRUNCATED
    }

    /** Checks that no component is null. */
    public RecoveryReport {
        Objects.requireNonNull(status, "status");
        Objects.requireNonNull(problemOffset, "problemOffset");
        Objects.requireNonNull(problem, "problem");
        Objects.requireNonNull(preservedCopy, "preservedCopy");
    }

    /** A clean report. */
    public static RecoveryReport clean(long records, long validBytes) {
        return new RecoveryReport(Status.CLEAN, records, validBytes, 0, OptionalLong.empty(), "", Optional.empty());
    }

    /** Whether the journal was intact. */
    public boolean isClean() {
        return status == Status.CLEAN;
    }
}
