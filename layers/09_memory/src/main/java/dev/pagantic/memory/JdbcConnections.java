package dev.pagantic.memory;

import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.SQLException;
import java.util.Objects;
import java.util.Properties;
import java.util.concurrent.locks.ReentrantLock;
import javax.sql.DataSource;
import org.jspecify.annotations.Nullable;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Where {@link JdbcConversationStore} gets a connection for one operation, and gives it back. Either the
 * application's {@link DataSource} (its pool; a connection is borrowed per operation and closed, which returns it), or
 * the embedded SQLite database, one connection that operations take turns on.
 */
interface JdbcConnections {

    /** A connection for one operation; give it back with {@link #release}. */
    Connection acquire() throws SQLException;

    /**
     * Gives a connection back.
     *
     * @param healthy false when an operation on it failed with an {@link SQLException}: it may be broken
     */
    void release(Connection connection, boolean healthy);

    /** Closes what this source opened itself (never the application's data source). */
    void close();

    /** Connections borrowed from the application's data source. */
    static JdbcConnections of(DataSource dataSource) {
        Objects.requireNonNull(dataSource, "dataSource");
        return new JdbcConnections() {
            @Override
            public Connection acquire() throws SQLException {
                return dataSource.getConnection();
            }

            @Override
            public void release(Connection connection, boolean healthy) {
                Embedded.closeQuietly(connection);
            }

            @Override
            public void close() {
                // the application's pool: the application closes it
            }
        };
    }

    /**
     * The embedded SQLite database in a file. One connection, opened on first use and kept: SQLite has one writer at a
     * time anyway, and closing its last connection would checkpoint and delete the write-ahead log on every
     * operation. Settings: write-ahead log, {@code synchronous=FULL} (a commit is forced to the device before it
     * returns, as the file journal's), foreign keys on, writes that take the database's write lock when they begin
     * (so that two connections never both read and then both try to write) and wait up to 10 s for it.
     */
    static JdbcConnections sqlite(Path file) {
        return new Embedded(file);
    }

    /** The embedded database's single connection, held by one operation at a time. */
    final class Embedded implements JdbcConnections {

        private static final Logger LOG = LoggerFactory.getLogger(Embedded.class);

        private final String url;
        private final Properties settings = new Properties();
        private final ReentrantLock lock = new ReentrantLock();
        private @Nullable Connection connection; // guarded by lock
        private boolean closed; // guarded by lock

        Embedded(Path file) {
            this.url = "jdbc:sqlite:" + file.toAbsolutePath();
            settings.setProperty("journal_mode", "WAL");
            settings.setProperty("synchronous", "FULL");
            settings.setProperty("foreign_keys", "true");
            settings.setProperty("busy_timeout", "10000");
            settings.setProperty("transaction_mode", "IMMEDIATE");
        }

        String url() {
            return url;
        }

        @Override
        public Connection acquire() throws SQLException {
            lock.lock();
            try {
                if (closed) {
                    throw new SQLException("the embedded database is closed", "08003");
                }
                if (connection == null) {
                    connection = DriverManager.getConnection(url, settings);
                }
                return connection;
            } catch (SQLException | RuntimeException failure) {
                lock.unlock();
                throw failure;
            }
        }

        @Override
        public void release(Connection released, boolean healthy) {
            try {
                if (!healthy && released == connection) {
                    closeQuietly(connection); // a failed operation may have broken it: the next one opens afresh
                    connection = null;
                }
            } finally {
                lock.unlock();
            }
        }

        @Override
        public void close() {
            lock.lock();
            try {
                closed = true;
                closeQuietly(connection);
                connection = null;
            } finally {
                lock.unlock();
            }
        }

        static void closeQuietly(Connection connection) {
            if (connection == null) {
                return;
            }
            try {
                connection.close();
            } catch (SQLException e) {
                LOG.debug("closing a connection failed", e);
            }
        }
    }
}
