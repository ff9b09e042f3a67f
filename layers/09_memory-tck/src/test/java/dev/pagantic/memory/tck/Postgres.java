package dev.pagantic.memory.tck;

import com.zaxxer.hikari.HikariConfig;
import com.zaxxer.hikari.HikariDataSource;
import java.sql.Connection;
import java.sql.SQLException;
import java.sql.Statement;
import org.junit.jupiter.api.Assumptions;

/**
 * The PostgreSQL server of this module's tests: one per test JVM, started on first use, {@code fsync} off. When
 * PostgreSQL is not installed or does not start, the tests that need it fail under {@code CI=true} (CI installs it:
 * see {@code .ci/run}) and are skipped with the reason otherwise.
 */
final class Postgres {

    private static final Object LOCK = new Object();
    private static PostgresServer server; // guarded by LOCK
    private static IllegalStateException unavailable; // guarded by LOCK

    private Postgres() {
    }

    /** The shared server, started if needed; fails or skips the test when there is none. */
    static PostgresServer server() {
        synchronized (LOCK) {
            if (server == null && unavailable == null) {
                try {
                    server = PostgresServer.start(false);
                } catch (IllegalStateException failure) {
                    unavailable = failure;
                }
            }
            if (unavailable != null) {
                if ("true".equalsIgnoreCase(System.getenv("CI"))) {
                    throw new AssertionError("PostgreSQL is required under CI=true: " + unavailable.getMessage(),
                            unavailable);
                }
                Assumptions.abort("PostgreSQL tests skipped: " + unavailable.getMessage());
            }
            return server;
        }
    }

    /** A connection pool on the shared server, as a service would have. */
    static HikariDataSource pool(int size) {
        HikariConfig config = new HikariConfig();
        config.setJdbcUrl(server().jdbcUrl());
        config.setMaximumPoolSize(size);
        config.setConnectionTimeout(2_000); // a request waits this long for a connection while the server is down
        config.setPoolName("pagantic-test");
        return new HikariDataSource(config);
    }

    /** Drops the store's tables, so that the next store starts from an empty database and creates them. */
    static void dropTables() {
        try (HikariDataSource pool = pool(1); Connection connection = pool.getConnection();
             Statement statement = connection.createStatement()) {
            statement.execute("DROP TABLE IF EXISTS pagantic_message, pagantic_state, pagantic_session");
        } catch (SQLException e) {
            throw new IllegalStateException("cannot reset the test database: " + e, e);
        }
    }
}
