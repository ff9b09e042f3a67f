package dev.pagantic.memory;

import java.sql.SQLException;
import java.sql.SQLRecoverableException;
import java.sql.SQLTransientException;
import java.util.Locale;
import org.jspecify.annotations.Nullable;

/**
 * What {@link JdbcConversationStore} needs to know about a database: which failures are write conflicts, safe to
 * retry because the transaction did not commit, and which are transient outages. The SQL itself is the same for every
 * database.
 */
enum SqlDialect {
    /** PostgreSQL: conflicts by SQLState. */
    POSTGRESQL,
    /** SQLite (xerial sqlite-jdbc): conflicts by SQLite result code, since the driver sets no SQLState. */
    SQLITE,
    /** Any other database: conflicts by the standard SQLStates. */
    OTHER;

    private static final int SQLITE_BUSY = 5;
    private static final int SQLITE_LOCKED = 6;
    private static final int SQLITE_CONSTRAINT = 19;
    /** How far a chain of causes and next exceptions is followed (drivers have been seen to chain in a loop). */
    private static final int MAX_CHAIN = 16;

    /** The dialect of a database, by the product name its driver reports. */
    static SqlDialect of(@Nullable String productName) {
        String name = productName == null ? "" : productName.toLowerCase(Locale.ROOT);
        if (name.contains("postgresql")) {
            return POSTGRESQL;
        }
        return name.contains("sqlite") ? SQLITE : OTHER;
    }

    /**
     * Whether a failure (or one chained to it) is a write conflict: a serialization failure or deadlock (SQLState class
     * 40), a unique key another writer inserted first (23505), or SQLite's busy or locked database. Only failures
     * before the commit are retried, so a conflict never means that the change may have been applied.
     */
    boolean isConflict(SQLException failure) {
        int depth = 0;
        for (SQLException e = failure; e != null && depth++ < MAX_CHAIN; e = next(e)) {
            String state = e.getSQLState();
            if (state != null && (state.startsWith("40") || state.equals("23505"))) {
                return true;
            }
            if (this == SQLITE && isSqliteConflict(e)) {
                return true;
            }
        }
        return false;
    }

    /**
     * Whether a failure is an outage that a later call may not meet: a lost or refused connection (class 08), a
     * server shutting down or starting (57P), a lack of resources (53), or what the driver calls transient.
     */
    boolean isTransient(SQLException failure) {
        int depth = 0;
        for (SQLException e = failure; e != null && depth++ < MAX_CHAIN; e = next(e)) {
            String state = e.getSQLState();
            boolean outage = state != null
                    && (state.startsWith("08") || state.startsWith("57P") || state.startsWith("53"));
            if (outage || e instanceof SQLTransientException || e instanceof SQLRecoverableException) {
                return true;
            }
        }
        return false;
    }

    private static boolean isSqliteConflict(SQLException e) {
        int primary = e.getErrorCode() & 0xff; // the driver reports extended result codes
        String message = String.valueOf(e.getMessage());
        return primary == SQLITE_BUSY || primary == SQLITE_LOCKED
                || (primary == SQLITE_CONSTRAINT && (message.contains("UNIQUE") || message.contains("PRIMARYKEY")));
    }

    private static @Nullable SQLException next(SQLException e) {
        if (e.getNextException() != null) {
            return e.getNextException();
        }
        return e.getCause() instanceof SQLException cause && cause != e ? cause : null;
    }
}
