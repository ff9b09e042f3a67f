package dev.pagantic.memory;

import dev.pagantic.core.ErrorCode;
import dev.pagantic.core.Message;
import dev.pagantic.core.PaganticException;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.nio.channels.FileChannel;
import java.nio.charset.StandardCharsets;
import java.nio.file.DirectoryStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Objects;
import java.util.Optional;
import java.util.concurrent.ConcurrentHashMap;
import org.jspecify.annotations.Nullable;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * A {@link ConversationStore} on the file system: one append-only journal per session, so that a session's history
 * and state survive a crash of the process (a {@code kill -9} in the middle of a write included).
 *
 * <h2>Journal format</h2>
 * The file {@code <encoded-session-id>.journal} (the id percent-encoded to {@code [A-Za-z0-9_-]}) holds an 8-byte
 * header, the ASCII magic {@code PGMJ} and the format version as a big-endian int32 (1), followed by records:
 * <pre>
 *   int32  payload length n (big-endian, 1 .. maxRecordBytes)
 *   int32  CRC32C over the four length bytes and the payload
 *   n      payload: one UTF-8 JSON object, {"t":"messages"|"put"|"remove"|"state", ...}
 * </pre>
 * A commit ({@link #append}, {@link #putState}, {@link #removeState}) writes one record at the end of the file and
 * forces it to the device ({@link FileChannel#force}) before it returns; a batch of messages is one record, so it is
 * committed whole or not at all.
 *
 * <h2>Recovery</h2>
 * Opening a session replays its records. The first record that is incomplete, has an implausible length, fails its
 * checksum or does not decode ends the valid prefix; the file is truncated there, and the session's
 * {@link StoredSession#recovery() recovery report} says what was found. A bad record at the very end is a torn write
 * (never committed, since commits return only after the force) and is cut off silently; a bad record followed by
 * more data is corruption: it is logged as a warning, the original file is kept beside the journal as
 * {@code <journal>.corrupt-<millis>}, and the valid prefix is recovered rather than failing the whole session.
 *
 * <h2>Compaction</h2>
 * {@link #compact} writes the session's contents as a new journal ({@code <journal>.compact}), forces it, renames it
 * over the journal with an atomic move, and forces the directory, so a crash at any point leaves either the old or the
 * new journal, complete; a leftover {@code .compact} file is deleted when the session is next opened.
 *
 * <h2>Sharing</h2>
 * Thread-safe. An open journal is locked with an OS file lock, so a second store (in this process or another) that
 * opens the same session fails with {@code ORCHESTRATION_CONCURRENT_USE} instead of interleaving writes. Each open
 * session's contents are held in memory.
 */
public final class FileConversationStore implements ConversationStore {

    private static final Logger LOG = LoggerFactory.getLogger(FileConversationStore.class);

    /** The suffix of journal files. */
    public static final String JOURNAL_SUFFIX = ".journal";
    /** The default largest record payload: 64 MiB. */
    public static final int DEFAULT_MAX_RECORD_BYTES = 64 * 1024 * 1024;
    private static final int MAX_FILE_NAME_LENGTH = 240;

    private final Path directory;
    private final boolean fsync;
    private final int maxRecordBytes;
    private final int writeChunkBytes;
    private final Object openLock = new Object();
    private final ConcurrentHashMap<String, SessionJournal> journals = new ConcurrentHashMap<>();
    private volatile boolean closed;

    private FileConversationStore(Builder builder) {
        this.directory = builder.directory;
        this.fsync = builder.fsync;
        this.maxRecordBytes = builder.maxRecordBytes;
        this.writeChunkBytes = builder.writeChunkBytes;
    }

    /** A store in the directory (created if absent), with the defaults: fsync on commit, 64 MiB records. */
    public static FileConversationStore open(Path directory) {
        return builder().directory(directory).build();
    }

    /** A builder. */
    public static Builder builder() {
        return new Builder();
    }

    /** The directory the journals are in. */
    public Path directory() {
        return directory;
    }

    @Override
    public long append(String sessionId, List<Message> messages) {
        List<Message> batch = List.copyOf(Objects.requireNonNull(messages, "messages"));
        return journal(sessionId, true).orElseThrow().append(batch);
    }

    @Override
    public long appendAt(String sessionId, long position, List<Message> messages) {
        List<Message> batch = List.copyOf(Objects.requireNonNull(messages, "messages"));
        return journal(sessionId, position == 0) // a call that must fail creates no journal
                .orElseThrow(() -> StoreSupport.notAt(sessionId, position, 0)).appendAt(position, batch);
    }

    @Override
    public void putState(String sessionId, String key, Object value) {
        StateValues.requireKey(key);
        Object normalized = StateValues.normalize(key, value);
        journal(sessionId, true).orElseThrow().put(key, normalized);
    }

    @Override
    public void removeState(String sessionId, String key) {
        Objects.requireNonNull(key, "key");
        journal(sessionId, false).ifPresent(journal -> journal.remove(key));
    }

    @Override
    public StoredSession load(String sessionId) {
        return journal(sessionId, false).map(SessionJournal::load)
                .orElseGet(() -> new SessionData().toStored(sessionId, RecoveryReport.clean(0, 0)));
    }

    @Override
    public boolean contains(String sessionId) {
        checkOpen();
        StoreSupport.requireSessionId(sessionId);
        return journals.containsKey(sessionId) || Files.exists(journalPath(sessionId));
    }

    @Override
    public List<String> sessions() {
        checkOpen();
        List<String> ids = new ArrayList<>();
        try (DirectoryStream<Path> files = Files.newDirectoryStream(directory, "*" + JOURNAL_SUFFIX)) {
            for (Path file : files) {
                String name = file.getFileName().toString();
                decode(name.substring(0, name.length() - JOURNAL_SUFFIX.length())).ifPresent(ids::add);
            }
        } catch (IOException e) {
            throw StoreSupport.io("list", directory, e);
        }
        Collections.sort(ids);
        return List.copyOf(ids);
    }

    @Override
    public void delete(String sessionId) {
        checkOpen();
        StoreSupport.requireSessionId(sessionId);
        synchronized (openLock) {
            SessionJournal journal = journals.remove(sessionId);
            if (journal != null) {
                journal.close();
            }
            Path path = journalPath(sessionId);
            try {
                if (Files.deleteIfExists(path) && fsync) {
                    forceDirectory(directory);
                }
            } catch (IOException e) {
                throw StoreSupport.io("delete", path, e);
            }
        }
    }

    @Override
    public void compact(String sessionId) {
        compact(sessionId, SessionJournal.CompactionStep.DONE);
    }

    /** Compaction that may stop after a step, leaving the files as a crash there would: for tests. */
    void compact(String sessionId, SessionJournal.CompactionStep stopAfter) {
        journal(sessionId, false).ifPresent(journal -> journal.compact(stopAfter));
    }

    /** The number of records in the session's journal (after recovery and compaction), or 0 if it does not exist. */
    long records(String sessionId) {
        return journal(sessionId, false).map(SessionJournal::records).orElse(0L);
    }

    /** The path of a session's journal. */
    Path journalPath(String sessionId) {
        String name = encode(sessionId);
        if (name.length() > MAX_FILE_NAME_LENGTH) {
            throw PaganticException.builder(ErrorCode.CONFIG_INVALID,
                    "session id is too long for a file name once encoded").detail("sessionId", sessionId).build();
        }
        return directory.resolve(name + JOURNAL_SUFFIX);
    }

    @Override
    public void close() {
        synchronized (openLock) {
            closed = true;
            journals.values().forEach(SessionJournal::close);
            journals.clear();
        }
    }

    private Optional<SessionJournal> journal(String sessionId, boolean create) {
        checkOpen();
        StoreSupport.requireSessionId(sessionId);
        SessionJournal journal = journals.get(sessionId);
        if (journal != null) {
            return Optional.of(journal);
        }
        synchronized (openLock) {
            checkOpen();
            journal = journals.get(sessionId);
            if (journal != null) {
                return Optional.of(journal);
            }
            Path path = journalPath(sessionId);
            if (!create && !Files.exists(path)) {
                return Optional.empty();
            }
            journal = SessionJournal.open(sessionId, path, fsync, maxRecordBytes, writeChunkBytes);
            journals.put(sessionId, journal);
            return Optional.of(journal);
        }
    }

    private void checkOpen() {
        if (closed) {
            throw StoreSupport.closed();
        }
    }

    /** Forces a directory's entries (a created, renamed or deleted file) to the device, where the platform can. */
    static void forceDirectory(Path directory) {
        try (FileChannel channel = FileChannel.open(directory, StandardOpenOption.READ)) {
            channel.force(true);
        } catch (IOException | UnsupportedOperationException e) {
            LOG.debug("cannot force directory {} on this platform", directory, e);
        }
    }

    /** Percent-encodes every UTF-8 byte outside {@code [A-Za-z0-9_-]}. */
    static String encode(String sessionId) {
        StringBuilder out = new StringBuilder();
        for (byte b : sessionId.getBytes(StandardCharsets.UTF_8)) {
            int c = b & 0xff;
            if ((c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == '_' || c == '-') {
                out.append((char) c);
            } else {
                out.append('%').append(Character.toUpperCase(Character.forDigit(c >> 4, 16)))
                        .append(Character.toUpperCase(Character.forDigit(c & 0xf, 16)));
            }
        }
        return out.toString();
    }

    /** The session id of an encoded file name, or empty if the name is not one this store wrote. */
    static Optional<String> decode(String name) {
        ByteArrayOutputStream bytes = new ByteArrayOutputStream();
        for (int i = 0; i < name.length(); i++) {
            char c = name.charAt(i);
            if (c == '%') {
                if (i + 2 >= name.length()) {
                    return Optional.empty();
                }
                int high = Character.digit(name.charAt(i + 1), 16);
                int low = Character.digit(name.charAt(i + 2), 16);
                if (high < 0 || low < 0) {
                    return Optional.empty();
                }
                bytes.write(high << 4 | low);
                i += 2;
            } else {
                bytes.write(c);
            }
        }
        String id = bytes.toString(StandardCharsets.UTF_8);
        return encode(id).equals(name) && !id.isBlank() ? Optional.of(id) : Optional.empty();
    }

    /** Builds a {@link FileConversationStore}; validated at {@link #build()}. */
    public static final class Builder {
        private @Nullable Path directory;
        private boolean fsync = true;
        private int maxRecordBytes = DEFAULT_MAX_RECORD_BYTES;
        private int writeChunkBytes;

        private Builder() {
        }

        /**
         * Writes each record in slices of this many bytes, one system call each, instead of in one call: for the
         * crash test only, to make a kill in the middle of a record likely. 0 (the default) writes in one call.
         */
        Builder writeChunkBytes(int writeChunkBytes) {
            this.writeChunkBytes = writeChunkBytes;
            return this;
        }

        /** The directory for the journals (required; created if absent). */
        public Builder directory(Path directory) {
            this.directory = directory;
            return this;
        }

        /**
         * Whether each commit forces the file to the device (default true). Without it a commit survives a crash of
         * the process but not of the machine; for tests and throw-away sessions only.
         */
        public Builder fsync(boolean fsync) {
            this.fsync = fsync;
            return this;
        }

        /** The largest record payload accepted, in bytes (default 64 MiB; at least 1 KiB). */
        public Builder maxRecordBytes(int maxRecordBytes) {
            this.maxRecordBytes = maxRecordBytes;
            return this;
        }

        /**
         * The store.
         *
         * @throws PaganticException {@code CONFIG_INVALID} if no directory is given, it cannot be created or is not a
         *                           directory, or the record limit is below 1 KiB
         */
        public FileConversationStore build() {
            if (directory == null) {
                throw PaganticException.of(ErrorCode.CONFIG_INVALID, "a FileConversationStore needs a directory");
            }
            if (maxRecordBytes < 1024) {
                throw PaganticException.builder(ErrorCode.CONFIG_INVALID,
                        "maxRecordBytes must be at least 1024, got " + maxRecordBytes)
                        .detail("maxRecordBytes", maxRecordBytes).build();
            }
            try {
                Files.createDirectories(directory);
            } catch (IOException e) {
                throw StoreSupport.io("create the directory", directory, e);
            }
            if (!Files.isDirectory(directory)) {
                throw PaganticException.builder(ErrorCode.CONFIG_INVALID, "not a directory: " + directory)
                        .detail("path", directory.toString()).build();
            }
            return new FileConversationStore(this);
        }
    }
}
