package dev.pagantic.memory;

import dev.pagantic.core.ErrorCode;
import dev.pagantic.core.Message;
import dev.pagantic.core.PaganticException;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.OptionalLong;
import java.util.concurrent.ThreadLocalRandom;
import javax.sql.DataSource;
import org.jspecify.annotations.Nullable;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * A {@link ConversationStore} in a relational database through JDBC: sessions, their messages (tool calls and tool
 * results included) and their session state in three tables, shared by every store instance that uses the database,
 * in one process or in many.
 *
 * <h2>Databases</h2>
 * PostgreSQL for services (pass the application's pooled {@link DataSource}: HikariCP, the application server's), and
 * SQLite as the zero-setup embedded database ({@link #embedded(Path)}: one file, no server; the application adds
 * {@code org.xerial:sqlite-jdbc}). The SQL is standard and the same for both; other databases with standard SQL may
 * work, but only these two are tested. This module depends on no driver: the driver is the application's choice.
 *
 * <h2>Schema</h2>
 * Version 1 is the script {@value #SCHEMA_RESOURCE} in this jar: {@code pagantic_session} (id, message count, created
 * and updated times), {@code pagantic_message} (session, sequence number, role, the message as JSON) and
 * {@code pagantic_state} (session, key, the value as JSON). By default {@link Builder#build()} runs it (every
 * statement is {@code CREATE TABLE IF NOT EXISTS}); with {@link Builder#createSchema createSchema(false)} the tables
 * must exist already (run the script with a migration tool), and {@code build()} checks that they do.
 *
 * <h2>Concurrency</h2>
 * Optimistic: an append reads the session's message count, writes its messages after it, and moves the count on only
 * if it is still the count it read ({@code UPDATE ... WHERE message_count = ?}), all in one transaction. A writer
 * that loses the race to another commits nothing and tries again from the new count, after a short randomised pause
 * from the third try on, at most {@link Builder#maxAttempts} times; so two store instances (or two services) appending
 * to one session never lose a message, and every batch lands whole, after the batches committed before it.
 * {@link #appendAt} is the same write with the caller's count, which fails instead of retrying. Only failures before
 * the commit are retried: a batch is never written twice.
 *
 * <h2>Failures and recovery</h2>
 * The store holds no connection between operations (except the embedded database's single connection, which is
 * reopened after a failure), so after a database restart the next operation works as soon as the pool hands out a
 * working connection; what was committed before the restart is there, because every commit is the database's
 * commit. Database failures are {@code CONFIG_INVALID} (core has no storage code, as for the file store), retryable
 * when the database was unreachable or shutting down, with the operation, session and SQLState in the details; when
 * the failure struck during the commit, the message says that the outcome is unknown (load the session to see).
 * A stored message that no longer decodes (edited by hand) fails the load with {@code CONFIG_INVALID}; the rows are
 * left as they are.
 *
 * <p>Session ids and state keys may not contain the character U+0000, which PostgreSQL cannot store; message contents
 * and state values may (they are stored as JSON, which escapes it). Thread-safe.
 *
 * <p>Why this file is longer than 500 lines: its {@link Builder} (about 100 lines) is nested, as every builder of the
 * library is; the store itself is the optimistic write protocol with its transactions and failure mapping, which
 * share one connection policy.
 */
public final class JdbcConversationStore implements ConversationStore {

    private static final Logger LOG = LoggerFactory.getLogger(JdbcConversationStore.class);

    /** The class-path resource of the schema script. */
    public static final String SCHEMA_RESOURCE = JdbcSchema.RESOURCE;
    /** The default number of tries of a write that keeps meeting conflicting writers. */
    public static final int DEFAULT_MAX_ATTEMPTS = 50;
    /** The longest pause between two tries of a conflicting write, in milliseconds. */
    private static final long MAX_BACKOFF_MILLIS = 50;

    private final JdbcConnections connections;
    private final SqlDialect dialect;
    private final int maxAttempts;
    private volatile boolean closed;

    private JdbcConversationStore(JdbcConnections connections, SqlDialect dialect, int maxAttempts) {
        this.connections = connections;
        this.dialect = dialect;
        this.maxAttempts = maxAttempts;
    }

    /**
     * A store in an embedded SQLite database file (created, with its directory, if absent), with the schema created
     * on demand: the zero-setup store that survives a restart. Needs {@code org.xerial:sqlite-jdbc} on the class path.
     * Several stores, in this process or others, may share the file.
     *
     * @throws PaganticException {@code CONFIG_INVALID} if the driver is missing or the file cannot be opened
     */
    public static JdbcConversationStore embedded(Path file) {
        return builder().embedded(file).build();
    }

    /** A builder. */
    public static Builder builder() {
        return new Builder();
    }

    @Override
    public long append(String sessionId, List<Message> messages) {
        List<Message> batch = List.copyOf(Objects.requireNonNull(messages, "messages"));
        checkSessionId(sessionId);
        return write("append to", sessionId,
                connection -> appendBatch(connection, sessionId, OptionalLong.empty(), batch));
    }

    @Override
    public long appendAt(String sessionId, long position, List<Message> messages) {
        List<Message> batch = List.copyOf(Objects.requireNonNull(messages, "messages"));
        checkSessionId(sessionId);
        return write("append to", sessionId,
                connection -> appendBatch(connection, sessionId, OptionalLong.of(position), batch));
    }

    @Override
    public void putState(String sessionId, String key, Object value) {
        checkKey(StateValues.requireKey(key));
        String json = JournalCodec.valueJson(StateValues.normalize(key, value));
        checkSessionId(sessionId);
        write("put state in", sessionId, connection -> {
            touchSession(connection, sessionId, true);
            if (update(connection, "UPDATE pagantic_state SET state_value = ? WHERE session_id = ? AND state_key = ?",
                    json, sessionId, key) == 0) {
                update(connection, "INSERT INTO pagantic_state (session_id, state_key, state_value) VALUES (?, ?, ?)",
                        sessionId, key, json);
            }
            return null;
        });
    }

    @Override
    public void removeState(String sessionId, String key) {
        Objects.requireNonNull(key, "key");
        checkSessionId(sessionId);
        write("remove state from", sessionId, connection -> {
            if (update(connection, "DELETE FROM pagantic_state WHERE session_id = ? AND state_key = ?",
                    sessionId, key) > 0) {
                touchSession(connection, sessionId, false);
            }
            return null;
        });
    }

    @Override
    public StoredSession load(String sessionId) {
        checkSessionId(sessionId);
        return read("load", sessionId, connection -> {
            List<Message> messages = new ArrayList<>();
            try (PreparedStatement select = prepare(connection,
                    "SELECT seq, message FROM pagantic_message WHERE session_id = ? ORDER BY seq", sessionId);
                 ResultSet rows = select.executeQuery()) {
                while (rows.next()) {
                    messages.add(decodeMessage(sessionId, rows.getLong(1), rows.getString(2)));
                }
            }
            Map<String, Object> state = new LinkedHashMap<>();
            try (PreparedStatement select = prepare(connection,
                    "SELECT state_key, state_value FROM pagantic_state WHERE session_id = ?", sessionId);
                 ResultSet rows = select.executeQuery()) {
                while (rows.next()) {
                    state.put(rows.getString(1), decodeValue(sessionId, rows.getString(1), rows.getString(2)));
                }
            }
            return new StoredSession(sessionId, messages, state, RecoveryReport.clean(0, 0));
        });
    }

    @Override
    public boolean contains(String sessionId) {
        checkSessionId(sessionId);
        return read("look up", sessionId, connection -> messageCount(connection, sessionId).isPresent());
    }

    @Override
    public List<String> sessions() {
        return read("list the sessions", null, connection -> {
            List<String> ids = new ArrayList<>();
            try (Statement select = connection.createStatement();
                 ResultSet rows = select.executeQuery("SELECT session_id FROM pagantic_session")) {
                while (rows.next()) {
                    ids.add(rows.getString(1));
                }
            }
            Collections.sort(ids); // in Java's order, not the database collation's
            return List.copyOf(ids);
        });
    }

    @Override
    public void delete(String sessionId) {
        checkSessionId(sessionId);
        write("delete", sessionId, connection -> {
            update(connection, "DELETE FROM pagantic_message WHERE session_id = ?", sessionId);
            update(connection, "DELETE FROM pagantic_state WHERE session_id = ?", sessionId);
            update(connection, "DELETE FROM pagantic_session WHERE session_id = ?", sessionId);
            return null;
        });
    }

    /** Closes the embedded database's connection; an application's data source stays open. Idempotent. */
    @Override
    public void close() {
        closed = true;
        connections.close();
    }

    // ------------------------------------------------------------------------------------------------- the writes

    /**
     * One try of an append: the session's count, the messages after it, the count moved on if nobody moved it first.
     * With a position, a count that differs from it fails the call; without, the batch goes after whatever is there.
     */
    private long appendBatch(Connection connection, String sessionId, OptionalLong position, List<Message> batch)
            throws SQLException, Conflict {
        OptionalLong stored = messageCount(connection, sessionId);
        long at = stored.orElse(0);
        if (position.isPresent() && position.getAsLong() != at) {
            throw StoreSupport.notAt(sessionId, position.getAsLong(), at);
        }
        long now = System.currentTimeMillis();
        if (stored.isEmpty()) {
            update(connection, "INSERT INTO pagantic_session (session_id, message_count, created_at, updated_at) "
                    + "VALUES (?, ?, ?, ?)", sessionId, (long) batch.size(), now, now); // a twin insert: a conflict
        } else if (update(connection, "UPDATE pagantic_session SET message_count = ?, updated_at = ? "
                + "WHERE session_id = ? AND message_count = ?", at + batch.size(), now, sessionId, at) == 0) {
            throw new Conflict("another writer appended first");
        }
        if (!batch.isEmpty()) {
            try (PreparedStatement insert = connection.prepareStatement(
                    "INSERT INTO pagantic_message (session_id, seq, role, message) VALUES (?, ?, ?, ?)")) {
                for (int i = 0; i < batch.size(); i++) {
                    Message message = batch.get(i);
                    insert.setString(1, sessionId);
                    insert.setLong(2, at + i);
                    insert.setString(3, message.role().wireName());
                    insert.setString(4, JournalCodec.messageJson(message));
                    insert.addBatch();
                }
                insert.executeBatch();
            }
        }
        return at + batch.size();
    }

    /** Stamps the session's update time; creates it (with no messages) if {@code create} and it does not exist. */
    private static void touchSession(Connection connection, String sessionId, boolean create) throws SQLException {
        long now = System.currentTimeMillis();
        if (update(connection, "UPDATE pagantic_session SET updated_at = ? WHERE session_id = ?", now, sessionId) == 0
                && create) {
            update(connection, "INSERT INTO pagantic_session (session_id, message_count, created_at, updated_at) "
                    + "VALUES (?, ?, ?, ?)", sessionId, 0L, now, now);
        }
    }

    private static OptionalLong messageCount(Connection connection, String sessionId) throws SQLException {
        try (PreparedStatement select = prepare(connection,
                "SELECT message_count FROM pagantic_session WHERE session_id = ?", sessionId);
             ResultSet row = select.executeQuery()) {
            return row.next() ? OptionalLong.of(row.getLong(1)) : OptionalLong.empty();
        }
    }

    // ------------------------------------------------------------------------------------- transactions and retries

    /** A write on a connection, in a transaction. */
    @FunctionalInterface
    private interface Work<T extends @Nullable Object> {
        T run(Connection connection) throws SQLException, Conflict;
    }

    /** A read on a connection. */
    @FunctionalInterface
    private interface Query<T extends @Nullable Object> {
        T run(Connection connection) throws SQLException;
    }

    /** A write that lost a race to another writer and committed nothing: try again. */
    private static final class Conflict extends Exception {
        private static final long serialVersionUID = 1L;

        Conflict(String reason) {
            super(reason, null, false, false);
        }
    }

    /** Runs a write in a transaction, again after a conflict, up to {@code maxAttempts} times. */
    private <T extends @Nullable Object> T write(String operation, String sessionId, Work<T> work) {
        for (int attempt = 1; ; attempt++) {
            checkOpen();
            try {
                return transaction(operation, sessionId, work);
            } catch (Conflict conflict) {
                if (attempt >= maxAttempts) {
                    throw PaganticException.builder(ErrorCode.ORCHESTRATION_CONCURRENT_USE, "could not " + operation
                                    + " session '" + sessionId + "': other writers kept changing it (" + maxAttempts
                                    + " tries; last: " + conflict.getMessage() + ")")
                            .retryable(true).detail("sessionId", sessionId).detail("attempts", maxAttempts).build();
                }
                LOG.debug("session {}: {} conflicted ({}), try {} of {}", sessionId, operation, conflict.getMessage(),
                        attempt, maxAttempts);
                pause(attempt);
            }
        }
    }

    /**
     * One transaction. An {@link SQLException} before the commit rolls back; a conflicting one becomes a
     * {@link Conflict}, the rest a {@link PaganticException}. A failed commit is reported with its outcome unknown,
     * never retried.
     */
    private <T extends @Nullable Object> T transaction(String operation, String sessionId, Work<T> work)
            throws Conflict {
        Connection connection = acquire(operation, sessionId);
        boolean healthy = false;
        boolean committing = false;
        try {
            connection.setAutoCommit(false);
            T result = work.run(connection);
            committing = true;
            connection.commit();
            healthy = endTransaction(connection);
            return result;
        } catch (SQLException failure) {
            rollbackQuietly(connection);
            if (!committing && dialect.isConflict(failure)) {
                healthy = endTransaction(connection);
                throw new Conflict(failure.getMessage());
            }
            throw failure(operation, sessionId, failure, committing);
        } catch (RuntimeException | Conflict failure) {
            rollbackQuietly(connection);
            healthy = endTransaction(connection);
            throw failure;
        } finally {
            connections.release(connection, healthy);
        }
    }

    /** Reads with the connection as it comes (auto-commit: each statement sees the latest commits). */
    private <T extends @Nullable Object> T read(String operation, @Nullable String sessionId, Query<T> query) {
        checkOpen();
        Connection connection = acquire(operation, sessionId);
        boolean healthy = false;
        try {
            T result = query.run(connection);
            healthy = true;
            return result;
        } catch (SQLException failure) {
            throw failure(operation, sessionId, failure, false);
        } finally {
            connections.release(connection, healthy);
        }
    }

    private Connection acquire(String operation, @Nullable String sessionId) {
        try {
            return connections.acquire();
        } catch (SQLException failure) {
            throw failure(operation, sessionId, failure, false);
        }
    }

    /** Back to auto-commit; false if the connection refuses, which means that it is broken. */
    private static boolean endTransaction(Connection connection) {
        try {
            connection.setAutoCommit(true);
            return true;
        } catch (SQLException broken) {
            LOG.debug("could not restore auto-commit", broken);
            return false;
        }
    }

    /**
     * A database failure as a {@link PaganticException}.
     *
     * @param sessionId the session, or null for an operation on the whole store
     */
    private PaganticException failure(String operation, @Nullable String sessionId, SQLException failure,
                                      boolean committing) {
        StringBuilder message = new StringBuilder("conversation store could not ").append(operation);
        if (sessionId != null) {
            message.append(" session '").append(sessionId).append('\'');
        }
        message.append(": ").append(failure.getMessage());
        if (committing) {
            message.append(" (the commit's outcome is unknown: load the session to see whether it was applied)");
        }
        PaganticException.Builder builder = PaganticException.builder(ErrorCode.CONFIG_INVALID, message.toString())
                .retryable(dialect.isTransient(failure) || dialect.isConflict(failure))
                .detail("operation", operation).detail("sqlState", String.valueOf(failure.getSQLState()))
                .cause(failure);
        if (sessionId != null) {
            builder.detail("sessionId", sessionId);
        }
        return builder.build();
    }

    /** No pause for the first two retries (the winner has usually committed), then up to 2^attempt ms, capped. */
    private static void pause(int attempt) {
        if (attempt < 3) {
            return;
        }
        long ceiling = Math.min(MAX_BACKOFF_MILLIS, 1L << Math.min(attempt, 6));
        try {
            Thread.sleep(ThreadLocalRandom.current().nextLong(1, ceiling + 1));
        } catch (InterruptedException interrupted) {
            Thread.currentThread().interrupt();
            throw PaganticException.of(ErrorCode.CANCELLED_SIGNAL, "interrupted while retrying a conflicting write",
                    interrupted);
        }
    }

    static void rollbackQuietly(Connection connection) {
        try {
            connection.rollback();
        } catch (SQLException e) {
            LOG.debug("rollback failed", e);
        }
    }

    // ------------------------------------------------------------------------------------------------ statements

    private static PreparedStatement prepare(Connection connection, String sql, Object... parameters)
            throws SQLException {
        PreparedStatement statement = connection.prepareStatement(sql);
        try {
            for (int i = 0; i < parameters.length; i++) {
                statement.setObject(i + 1, parameters[i]);
            }
            return statement;
        } catch (SQLException | RuntimeException failure) {
            statement.close();
            throw failure;
        }
    }

    private static int update(Connection connection, String sql, Object... parameters) throws SQLException {
        try (PreparedStatement statement = prepare(connection, sql, parameters)) {
            return statement.executeUpdate();
        }
    }

    private static Message decodeMessage(String sessionId, long seq, String json) {
        try {
            return JournalCodec.message(json);
        } catch (IllegalArgumentException invalid) {
            throw PaganticException.builder(ErrorCode.CONFIG_INVALID, "session '" + sessionId + "': stored message "
                            + seq + " is not a valid message: " + invalid.getMessage())
                    .detail("sessionId", sessionId).detail("seq", seq).cause(invalid).build();
        }
    }

    private static Object decodeValue(String sessionId, String key, String json) {
        try {
            return JournalCodec.value(key, json);
        } catch (IllegalArgumentException | PaganticException invalid) {
            throw PaganticException.builder(ErrorCode.CONFIG_INVALID, "session '" + sessionId
                            + "': stored state value '" + key + "' is not a valid value: " + invalid.getMessage())
                    .detail("sessionId", sessionId).detail("key", key).cause(invalid).build();
        }
    }

    // ------------------------------------------------------------------------------------------------ validation

    private void checkSessionId(String sessionId) {
        checkOpen();
        StoreSupport.requireSessionId(sessionId);
        if (sessionId.indexOf('\0') >= 0) {
            throw PaganticException.of(ErrorCode.CONFIG_INVALID, "a session id stored in a database cannot contain "
                    + "the character U+0000");
        }
    }

    private static void checkKey(String key) {
        if (key.indexOf('\0') >= 0) {
            throw PaganticException.of(ErrorCode.CONFIG_INVALID, "a state key stored in a database cannot contain "
                    + "the character U+0000");
        }
    }

    private void checkOpen() {
        if (closed) {
            throw StoreSupport.closed();
        }
    }

    /** Builds a {@link JdbcConversationStore}; validated, and the database reached, at {@link #build()}. */
    public static final class Builder {
        private @Nullable DataSource dataSource;
        private @Nullable Path embeddedFile;
        private boolean createSchema = true;
        private int maxAttempts = DEFAULT_MAX_ATTEMPTS;

        private Builder() {
        }

        /**
         * The application's data source, normally a connection pool; the store borrows a connection per operation
         * and never closes the data source. Either this or {@link #embedded(Path)}.
         */
        public Builder dataSource(DataSource dataSource) {
            this.dataSource = dataSource;
            return this;
        }

        /**
         * An embedded SQLite database in this file (created, with its directory, if absent); needs
         * {@code org.xerial:sqlite-jdbc}. Either this or {@link #dataSource(DataSource)}.
         */
        public Builder embedded(Path file) {
            this.embeddedFile = file;
            return this;
        }

        /**
         * Whether {@link #build()} creates the tables that do not exist (default true). With false it only checks
         * that they exist, for databases whose schema is managed elsewhere.
         */
        public Builder createSchema(boolean createSchema) {
            this.createSchema = createSchema;
            return this;
        }

        /** How many times a write that meets conflicting writers is tried before it fails (default 50, at least 1). */
        public Builder maxAttempts(int maxAttempts) {
            this.maxAttempts = maxAttempts;
            return this;
        }

        /**
         * The store: connects once to learn the database, and creates or checks the schema.
         *
         * @throws PaganticException {@code CONFIG_INVALID} if neither or both of a data source and an embedded file are
         *                           given, {@code maxAttempts} is below 1, the database cannot be reached, or the
         *                           tables are missing and {@code createSchema} is off
         */
        public JdbcConversationStore build() {
            if ((dataSource == null) == (embeddedFile == null)) {
                throw PaganticException.of(ErrorCode.CONFIG_INVALID,
                        "a JdbcConversationStore needs either a dataSource or an embedded database file");
            }
            if (maxAttempts < 1) {
                throw PaganticException.builder(ErrorCode.CONFIG_INVALID, "maxAttempts must be at least 1, got "
                        + maxAttempts).detail("maxAttempts", maxAttempts).build();
            }
            JdbcConnections connections = dataSource != null ? JdbcConnections.of(dataSource) : embedded();
            try {
                SqlDialect dialect = prepare(connections);
                return new JdbcConversationStore(connections, dialect, maxAttempts);
            } catch (RuntimeException failure) {
                connections.close();
                throw failure;
            }
        }

        private JdbcConnections embedded() {
            Path file = embeddedFile.toAbsolutePath();
            try {
                Files.createDirectories(file.getParent());
            } catch (IOException e) {
                throw StoreSupport.io("create the directory", file.getParent(), e);
            }
            return JdbcConnections.sqlite(file);
        }

        private SqlDialect prepare(JdbcConnections connections) {
            Connection connection;
            try {
                connection = connections.acquire();
            } catch (SQLException unreachable) {
                String hint = embeddedFile != null && unreachable.getMessage() != null
                        && unreachable.getMessage().contains("No suitable driver")
                        ? ": the embedded store needs the SQLite JDBC driver (org.xerial:sqlite-jdbc) on the class path"
                        : "";
                throw PaganticException.builder(ErrorCode.CONFIG_INVALID, "the conversation store cannot reach its "
                                + "database: " + unreachable.getMessage() + hint)
                        .retryable(hint.isEmpty()).detail("sqlState", String.valueOf(unreachable.getSQLState()))
                        .cause(unreachable).build();
            }
            boolean healthy = false;
            try {
                SqlDialect dialect = SqlDialect.of(connection.getMetaData().getDatabaseProductName());
                JdbcSchema.check(connection, createSchema ? JdbcSchema.create(connection) : null);
                healthy = true;
                return dialect;
            } catch (SQLException failure) {
                throw PaganticException.builder(ErrorCode.CONFIG_INVALID, "the conversation store could not prepare "
                        + "its database: " + failure.getMessage()).cause(failure).build();
            } finally {
                connections.release(connection, healthy);
            }
        }
    }
}
