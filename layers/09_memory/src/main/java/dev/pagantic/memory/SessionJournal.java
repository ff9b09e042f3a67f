package dev.pagantic.memory;

import dev.pagantic.core.ErrorCode;
import dev.pagantic.core.Message;
import dev.pagantic.core.PaganticException;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.channels.FileLock;
import java.nio.channels.OverlappingFileLockException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.StandardOpenOption;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Optional;
import java.util.OptionalLong;
import java.util.zip.CRC32C;
import org.jspecify.annotations.Nullable;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The append-only journal of one session: a file of checksummed records, replayed on open and appended to on every
 * commit. See {@link FileConversationStore} for the format. Every method is synchronized on the journal.
 */
final class SessionJournal {

    private static final Logger LOG = LoggerFactory.getLogger(SessionJournal.class);

    /** File magic: the ASCII bytes "PGMJ" (pagantic memory journal) as a big-endian int. */
    static final int MAGIC = 0x50474D4A;
    /** Format version, after the magic. */
    static final int VERSION = 1;
    /** Bytes of the file header: magic and version. */
    static final int FILE_HEADER_BYTES = 8;
    /** Bytes before each record's payload: its length and its checksum. */
    static final int RECORD_HEADER_BYTES = 8;
    /** Suffix of the temporary file that compaction writes before renaming it over the journal. */
    static final String COMPACT_SUFFIX = ".compact";
    /** Messages per record in a compacted journal. */
    static final int COMPACT_BATCH = 256;

    /** Where {@link #compact} may stop early, to simulate a crash in tests. */
    enum CompactionStep {
        /** The compacted copy is written and forced, not yet renamed over the journal. */
        WRITTEN,
        /** The copy has been renamed over the journal; the directory is not yet forced. */
        RENAMED,
        /** Compaction ran to the end. */
        DONE
    }

    private final String sessionId;
    private final Path path;
    private final boolean fsync;
    private final int maxRecordBytes;
    private final int writeChunkBytes;
    private final SessionData data;
    private final RecoveryReport recovery;
    private FileChannel channel;
    private FileLock lock;
    private long size;
    private long records;
    private boolean closed;

    private SessionJournal(String sessionId, Path path, boolean fsync, int maxRecordBytes, int writeChunkBytes,
            FileChannel channel, FileLock lock, Scan scan) {
        this.writeChunkBytes = writeChunkBytes;
        this.sessionId = sessionId;
        this.path = path;
        this.fsync = fsync;
        this.maxRecordBytes = maxRecordBytes;
        this.channel = channel;
        this.lock = lock;
        this.data = scan.data;
        this.recovery = scan.report;
        this.size = scan.report.validBytes();
        this.records = scan.report.recordsRecovered();
    }

    /** Opens (creating if absent) and recovers the journal at {@code path}. */
    static SessionJournal open(String sessionId, Path path, boolean fsync, int maxRecordBytes, int writeChunkBytes) {
        try {
            Files.deleteIfExists(compactPath(path)); // an interrupted compaction: the journal itself is complete
        } catch (IOException e) {
            throw StoreSupport.io("remove the leftover compaction file of", path, e);
        }
        boolean created = !Files.exists(path);
        FileChannel channel;
        try {
            channel = FileChannel.open(path, StandardOpenOption.READ, StandardOpenOption.WRITE,
                    StandardOpenOption.CREATE);
        } catch (IOException e) {
            throw StoreSupport.io("open", path, e);
        }
        try {
            FileLock lock = lock(channel, path, sessionId);
            Scan scan = recover(channel, path, maxRecordBytes);
            if (created && fsync) {
                FileConversationStore.forceDirectory(path.getParent());
            }
            return new SessionJournal(sessionId, path, fsync, maxRecordBytes, writeChunkBytes, channel, lock, scan);
        } catch (RuntimeException failure) {
            closeQuietly(channel);
            throw failure;
        } catch (IOException e) {
            closeQuietly(channel);
            throw StoreSupport.io("recover", path, e);
        }
    }

    synchronized RecoveryReport recovery() {
        return recovery;
    }

    synchronized long append(List<Message> messages) {
        commit(new JournalRecord.Messages(messages));
        return data.messages.size();
    }

    synchronized long appendAt(long position, List<Message> messages) {
        checkOpen();
        if (data.messages.size() != position) {
            throw StoreSupport.notAt(sessionId, position, data.messages.size());
        }
        return append(messages);
    }

    synchronized void put(String key, Object value) {
        commit(new JournalRecord.Put(key, value));
    }

    synchronized void remove(String key) {
        if (data.state.containsKey(key)) {
            commit(new JournalRecord.Remove(key));
        } else {
            checkOpen();
        }
    }

    synchronized StoredSession load() {
        checkOpen();
        return data.toStored(sessionId, recovery);
    }

    synchronized long records() {
        return records;
    }

    /** Writes one record and forces it; only then applies it in memory. */
    private void commit(JournalRecord record) {
        checkOpen();
        byte[] payload = JournalCodec.encode(record);
        if (payload.length > maxRecordBytes) {
            throw PaganticException.builder(ErrorCode.CONFIG_INVALID, "record of " + payload.length
                    + " bytes exceeds the store's limit of " + maxRecordBytes + " bytes")
                    .detail("sessionId", sessionId).detail("bytes", payload.length).build();
        }
        ByteBuffer frame = frame(payload);
        long start = size;
        try {
            if (writeChunkBytes > 0) {
                long at = start;
                while (frame.hasRemaining()) {
                    ByteBuffer slice = frame.slice();
                    slice.limit(Math.min(writeChunkBytes, slice.remaining()));
                    at = writeFully(channel, slice, at);
                    frame.position(frame.position() + slice.limit());
                }
            } else {
                writeFully(channel, frame, start);
            }
            if (fsync) {
                channel.force(false); // data and the file length (fdatasync)
            }
        } catch (IOException e) {
            try {
                channel.truncate(start); // do not leave a half-written record for the next commit to follow
            } catch (IOException ignored) {
                LOG.warn("session {}: could not cut a failed write back from {}", sessionId, path, ignored);
            }
            throw StoreSupport.io("commit to", path, e);
        }
        size = start + frame.capacity();
        records++;
        data.apply(record);
    }

    /**
     * Rewrites the journal as its minimal equivalent: a temporary file with the messages in batches and the state in
     * one record is written and forced, renamed over the journal atomically, and the directory forced.
     */
    synchronized void compact(CompactionStep stopAfter) {
        checkOpen();
        Path temp = compactPath(path);
        List<JournalRecord> compacted = new ArrayList<>();
        for (int from = 0; from < data.messages.size(); from += COMPACT_BATCH) {
            compacted.add(new JournalRecord.Messages(
                    data.messages.subList(from, Math.min(data.messages.size(), from + COMPACT_BATCH))));
        }
        if (!data.state.isEmpty()) {
            compacted.add(new JournalRecord.State(data.state));
        }
        FileChannel next = null;
        FileLock nextLock;
        long nextSize;
        try {
            Files.deleteIfExists(temp);
            next = FileChannel.open(temp, StandardOpenOption.READ, StandardOpenOption.WRITE,
                    StandardOpenOption.CREATE_NEW);
            nextLock = lock(next, temp, sessionId);
            nextSize = writeFully(next, header(), 0);
            for (JournalRecord record : compacted) {
                nextSize = writeFully(next, frame(JournalCodec.encode(record)), nextSize);
            }
            next.force(true);
            if (stopAfter == CompactionStep.WRITTEN) {
                next.close();
                return;
            }
            Files.move(temp, path, StandardCopyOption.ATOMIC_MOVE, StandardCopyOption.REPLACE_EXISTING);
        } catch (IOException e) {
            closeQuietly(next);
            try {
                Files.deleteIfExists(temp);
            } catch (IOException ignored) {
                LOG.debug("could not remove {}", temp, ignored);
            }
            throw StoreSupport.io("compact", path, e);
        }
        FileChannel old = channel;
        channel = next;
        lock = nextLock;
        size = nextSize;
        records = compacted.size();
        closeQuietly(old);
        if (stopAfter == CompactionStep.RENAMED) {
            return;
        }
        FileConversationStore.forceDirectory(path.getParent());
    }

    /** Releases the file. Idempotent. */
    synchronized void close() {
        if (closed) {
            return;
        }
        closed = true;
        try {
            if (lock != null && lock.isValid()) {
                lock.release();
            }
        } catch (IOException e) {
            LOG.debug("could not release the lock on {}", path, e);
        }
        closeQuietly(channel);
    }

    Path path() {
        return path;
    }

    private void checkOpen() {
        if (closed) {
            throw PaganticException.builder(ErrorCode.CONFIG_INVALID,
                    "the journal of session '" + sessionId + "' is closed (store closed or session deleted)")
                    .detail("sessionId", sessionId).build();
        }
    }

    // ---- format ----

    static Path compactPath(Path journal) {
        return journal.resolveSibling(journal.getFileName() + COMPACT_SUFFIX);
    }

    static ByteBuffer header() {
        ByteBuffer header = ByteBuffer.allocate(FILE_HEADER_BYTES);
        header.putInt(MAGIC).putInt(VERSION).flip();
        return header;
    }

    /** A record: payload length (int32, big-endian), CRC32C of the length's four bytes and the payload, payload. */
    static ByteBuffer frame(byte[] payload) {
        ByteBuffer frame = ByteBuffer.allocate(RECORD_HEADER_BYTES + payload.length);
        frame.putInt(payload.length);
        frame.putInt(checksum(payload.length, payload, 0));
        frame.put(payload).flip();
        return frame;
    }

    static int checksum(int length, byte[] bytes, int offset) {
        CRC32C crc = new CRC32C();
        crc.update(ByteBuffer.allocate(4).putInt(length).array());
        crc.update(bytes, offset, length);
        return (int) crc.getValue();
    }

    private static long writeFully(FileChannel channel, ByteBuffer buffer, long position) throws IOException {
        long at = position;
        while (buffer.hasRemaining()) {
            at += channel.write(buffer, at);
        }
        return at;
    }

    private static FileLock lock(FileChannel channel, Path path, String sessionId) {
        FileLock lock;
        try {
            lock = channel.tryLock();
        } catch (OverlappingFileLockException | IOException e) {
            lock = null;
        }
        if (lock == null) {
            throw PaganticException.builder(ErrorCode.ORCHESTRATION_CONCURRENT_USE,
                    "the journal of session '" + sessionId + "' is open in another store (this or another process)")
                    .detail("sessionId", sessionId).detail("path", path.toString()).build();
        }
        return lock;
    }

    // ---- recovery ----

    /** The outcome of reading a journal: the replayed contents and the report. */
    static final class Scan {
        final SessionData data;
        final RecoveryReport report;

        Scan(SessionData data, RecoveryReport report) {
            this.data = data;
            this.report = report;
        }
    }

    /**
     * Reads the whole file, replays the valid prefix, and, if anything follows it, cuts it off (preserving a copy of
     * the original first when it is corruption rather than a torn tail).
     */
    private static Scan recover(FileChannel channel, Path path, int maxRecordBytes) throws IOException {
        long length = channel.size();
        if (length > Integer.MAX_VALUE - 64) {
            throw new IOException("journal of " + length + " bytes is too large to replay; compact it");
        }
        ByteBuffer all = ByteBuffer.allocate((int) length);
        while (all.hasRemaining() && channel.read(all, all.position()) >= 0) {
            // read until full
        }
        byte[] bytes = Arrays.copyOf(all.array(), all.position());
        Scan scan = scan(bytes, maxRecordBytes);
        RecoveryReport report = scan.report;
        if (report.status() == RecoveryReport.Status.CLEAN && length >= FILE_HEADER_BYTES) {
            return scan;
        }
        Optional<Path> preserved = Optional.empty();
        if (report.status() == RecoveryReport.Status.CORRUPTION_TRUNCATED) {
            Path copy = path.resolveSibling(path.getFileName() + ".corrupt-" + System.currentTimeMillis());
            Files.write(copy, bytes, StandardOpenOption.CREATE_NEW, StandardOpenOption.WRITE);
            try (FileChannel copyChannel = FileChannel.open(copy, StandardOpenOption.WRITE)) {
                copyChannel.force(true);
            }
            preserved = Optional.of(copy);
            LOG.warn("journal {} is corrupt at offset {} ({}); recovered {} records ({} bytes), cut off {} bytes; "
                    + "the original is preserved in {}", path, report.problemOffset().orElse(-1), report.problem(),
                    report.recordsRecovered(), report.validBytes(), report.discardedBytes(), copy);
        } else if (report.status() == RecoveryReport.Status.TORN_TAIL_TRUNCATED) {
            LOG.info("journal {}: cut off a torn last record at offset {} ({} bytes: {})", path,
                    report.problemOffset().orElse(-1), report.discardedBytes(), report.problem());
        }
        long valid = report.validBytes();
        if (valid < FILE_HEADER_BYTES) { // new, torn in its header, or not a journal: start it afresh
            channel.truncate(0);
            writeFully(channel, header(), 0);
            valid = FILE_HEADER_BYTES;
        } else {
            channel.truncate(valid);
        }
        channel.force(true);
        RecoveryReport fixed = new RecoveryReport(report.status(), report.recordsRecovered(), valid,
                report.discardedBytes(), report.problemOffset(), report.problem(), preserved);
        return new Scan(scan.data, fixed);
    }

    /** Replays the bytes of a journal without touching the file. */
    static Scan scan(byte[] bytes, int maxRecordBytes) {
        SessionData data = new SessionData();
        int length = bytes.length;
        if (length < FILE_HEADER_BYTES) {
            byte[] expected = header().array();
            boolean prefix = Arrays.equals(bytes, 0, length, expected, 0, length);
            if (length == 0) {
                return new Scan(data, RecoveryReport.clean(0, 0));
            }
            return new Scan(data, prefix
                    ? problem(RecoveryReport.Status.TORN_TAIL_TRUNCATED, 0, 0, length, 0, "torn file header")
                    : problem(RecoveryReport.Status.CORRUPTION_TRUNCATED, 0, 0, length, 0, "not a journal"));
        }
        ByteBuffer buffer = ByteBuffer.wrap(bytes);
        int magic = buffer.getInt(0);
        int version = buffer.getInt(4);
        if (magic != MAGIC || version != VERSION) {
            return new Scan(data, problem(RecoveryReport.Status.CORRUPTION_TRUNCATED, 0, 0, length, 0,
                    magic == MAGIC ? "unsupported journal version " + version : "not a journal"));
        }
        int position = FILE_HEADER_BYTES;
        long count = 0;
        while (position < length) {
            int remaining = length - position;
            if (remaining < RECORD_HEADER_BYTES) {
                return new Scan(data, problem(RecoveryReport.Status.TORN_TAIL_TRUNCATED, count, position,
                        remaining, position, "incomplete record header"));
            }
            int payloadLength = buffer.getInt(position);
            int storedChecksum = buffer.getInt(position + 4);
            int end = position + RECORD_HEADER_BYTES + payloadLength;
            if (payloadLength <= 0 || payloadLength > maxRecordBytes) {
                // A damaged length field; at the very end it may be a torn write of zeros.
                boolean tail = allZero(bytes, position, length);
                return new Scan(data, problem(tail ? RecoveryReport.Status.TORN_TAIL_TRUNCATED
                        : RecoveryReport.Status.CORRUPTION_TRUNCATED, count, position, remaining, position,
                        "implausible record length " + payloadLength));
            }
            if (end > length || end < 0) {
                return new Scan(data, problem(RecoveryReport.Status.TORN_TAIL_TRUNCATED, count, position,
                        remaining, position, "record of " + payloadLength + " bytes extends past the end of the file"));
            }
            if (checksum(payloadLength, bytes, position + RECORD_HEADER_BYTES) != storedChecksum) {
                boolean tail = end == length;
                return new Scan(data, problem(tail ? RecoveryReport.Status.TORN_TAIL_TRUNCATED
                        : RecoveryReport.Status.CORRUPTION_TRUNCATED, count, position, remaining, position,
                        "checksum mismatch"));
            }
            JournalRecord record;
            try {
                record = JournalCodec.decode(Arrays.copyOfRange(bytes, position + RECORD_HEADER_BYTES, end));
            } catch (IllegalArgumentException undecodable) {
                return new Scan(data, problem(RecoveryReport.Status.CORRUPTION_TRUNCATED, count, position,
                        remaining, position, "undecodable record: " + undecodable.getMessage()));
            }
            data.apply(record);
            count++;
            position = end;
        }
        return new Scan(data, RecoveryReport.clean(count, position));
    }

    private static boolean allZero(byte[] bytes, int from, int to) {
        for (int i = from; i < to; i++) {
            if (bytes[i] != 0) {
                return false;
            }
        }
        return true;
    }

    private static RecoveryReport problem(RecoveryReport.Status status, long records, long valid, long discarded,
            long offset, String problem) {
        return new RecoveryReport(status, records, valid, discarded, OptionalLong.of(offset), problem,
                Optional.empty());
    }

    private static void closeQuietly(@Nullable FileChannel channel) {
        if (channel == null) {
            return;
        }
        try {
            channel.close();
        } catch (IOException e) {
            LOG.debug("could not close a journal channel", e);
        }
    }
}
