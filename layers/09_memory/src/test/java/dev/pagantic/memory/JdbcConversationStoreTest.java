package dev.pagantic.memory;

import static dev.pagantic.memory.Failures.assertConfigInvalid;
import static org.assertj.core.api.Assertions.assertThat;

import dev.pagantic.core.Message;
import dev.pagantic.core.PaganticException;
import java.lang.reflect.Proxy;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.List;
import java.util.concurrent.atomic.AtomicBoolean;
import javax.sql.DataSource;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The JDBC store's own behaviour, on its embedded database (SQLite): settings, schema, validation, failures. What
 * every store does is checked by the conversation-store kit ({@code pagantic-memory-tck}), whose tests run it on
 * SQLite and on a real PostgreSQL server.
 */
class JdbcConversationStoreTest {

    @TempDir
    Path directory;

    private Path file() {
        return directory.resolve("sessions.sqlite");
    }

    private Connection connect() throws SQLException {
        return DriverManager.getConnection("jdbc:sqlite:" + file());
    }

    private static String pragma(Connection connection, String name) throws SQLException {
        try (Statement statement = connection.createStatement();
             ResultSet row = statement.executeQuery("PRAGMA " + name)) {
            row.next();
            return row.getString(1);
        }
    }

    @Test
    void theEmbeddedDatabaseForcesEveryCommitToTheDeviceThroughAWriteAheadLog() throws SQLException {
        JdbcConnections connections = JdbcConnections.sqlite(file());
        Connection connection = connections.acquire();
        try {
            assertThat(pragma(connection, "journal_mode")).isEqualTo("wal");
            assertThat(pragma(connection, "synchronous")).isEqualTo("2"); // FULL
            assertThat(pragma(connection, "foreign_keys")).isEqualTo("1");
            assertThat(pragma(connection, "busy_timeout")).isEqualTo("10000");
        } finally {
            connections.release(connection, true);
            connections.close();
        }
    }

    @Test
    void theShippedScriptCreatesTheThreeTablesThatTheStoreUses() throws SQLException {
        assertThat(JdbcConversationStore.class.getResource(JdbcConversationStore.SCHEMA_RESOURCE)).isNotNull();
        assertThat(JdbcSchema.statements()).hasSize(3).allSatisfy(sql -> assertThat(sql)
                .startsWith("CREATE TABLE IF NOT EXISTS pagantic_").doesNotContain(";"));

        try (JdbcConversationStore store = JdbcConversationStore.embedded(file())) {
            store.append("s", Message.user("hi"));
        }
        try (Connection connection = connect(); Statement statement = connection.createStatement();
             ResultSet rows = statement.executeQuery("SELECT s.message_count, m.seq, m.role, m.message "
                     + "FROM pagantic_session s JOIN pagantic_message m ON m.session_id = s.session_id")) {
            assertThat(rows.next()).isTrue();
            assertThat(rows.getLong(1)).isEqualTo(1);
            assertThat(rows.getLong(2)).isEqualTo(0);
            assertThat(rows.getString(3)).isEqualTo("user");
            assertThat(rows.getString(4)).isEqualTo("{\"role\":\"user\",\"content\":\"hi\"}");
        }
    }

    @Test
    void withoutSchemaCreationMissingTablesAreAClearErrorUntilTheScriptHasRun() throws SQLException {
        PaganticException missing = assertConfigInvalid(
                () -> JdbcConversationStore.builder().embedded(file()).createSchema(false).build());
        assertThat(missing.getMessage()).contains("pagantic_session", JdbcConversationStore.SCHEMA_RESOURCE);

        try (Connection connection = connect(); Statement statement = connection.createStatement()) {
            for (String sql : JdbcSchema.statements()) {
                statement.execute(sql);
            }
        }
        try (JdbcConversationStore store = JdbcConversationStore.builder().embedded(file()).createSchema(false)
                .build()) {
            assertThat(store.append("s", Message.user("works"))).isEqualTo(1);
        }
    }

    @Test
    void theBuilderNeedsExactlyOneDatabaseAndAtLeastOneAttempt() {
        DataSource unused = dataSource(new AtomicBoolean(false));
        assertConfigInvalid(() -> JdbcConversationStore.builder().build());
        assertConfigInvalid(() -> JdbcConversationStore.builder().dataSource(unused).embedded(file()).build());
        assertConfigInvalid(() -> JdbcConversationStore.builder().embedded(file()).maxAttempts(0).build());
    }

    @Test
    void aStoredMessageThatNoLongerDecodesFailsTheLoadAndIsLeftAsItIs() throws SQLException {
        try (JdbcConversationStore store = JdbcConversationStore.embedded(file())) {
            store.append("s", List.of(Message.user("fine"), Message.user("about to be damaged")));
            try (Connection connection = connect(); Statement statement = connection.createStatement()) {
                statement.executeUpdate("UPDATE pagantic_message SET message = '{\"role\":\"nobody\"}' WHERE seq = 1");
            }

            PaganticException failure = assertConfigInvalid(() -> store.load("s"));

            assertThat(failure.details()).containsEntry("seq", 1L).containsEntry("sessionId", "s");
            assertThat(store.contains("s")).isTrue();
            assertThat(store.append("s", Message.user("appends still work"))).isEqualTo(3);
        }
    }

    @Test
    void idsAndKeysThatADatabaseCannotHoldAreRefusedBeforeAnythingIsWritten() {
        try (JdbcConversationStore store = JdbcConversationStore.embedded(file())) {
            assertConfigInvalid(() -> store.append("a\u0000b", Message.user("x")));
            assertConfigInvalid(() -> store.putState("s", "k\u0000", "v"));
            assertThat(store.sessions()).isEmpty();
        }
    }

    @Test
    void anUnreachableDatabaseIsARetryableFailureAndTheNextCallAfterItsReturnWorks() {
        AtomicBoolean down = new AtomicBoolean(true);
        PaganticException atBuild = assertConfigInvalid(
                () -> JdbcConversationStore.builder().dataSource(dataSource(down)).build());
        assertThat(atBuild.retryable()).isTrue();

        down.set(false);
        try (JdbcConversationStore store = JdbcConversationStore.builder().dataSource(dataSource(down)).build()) {
            store.append("s", Message.user("before"));
            down.set(true);
            PaganticException during = assertConfigInvalid(() -> store.append("s", Message.user("during")));
            assertThat(during.retryable()).isTrue();
            assertThat(during.details()).containsEntry("sqlState", "08006").containsEntry("sessionId", "s");

            down.set(false);
            assertThat(store.append("s", Message.user("after"))).isEqualTo(2);
            assertThat(store.load("s").messages()).extracting(Message::content).containsExactly("before", "after");
        }
    }

    /** A data source on the test's SQLite file that refuses connections, as a stopped server does, while down. */
    private DataSource dataSource(AtomicBoolean down) {
        return (DataSource) Proxy.newProxyInstance(getClass().getClassLoader(), new Class<?>[] {DataSource.class},
                (proxy, method, arguments) -> {
                    if (!method.getName().equals("getConnection")) {
                        throw new UnsupportedOperationException(method.getName());
                    }
                    if (down.get()) {
                        throw new SQLException("Connection refused", "08006");
                    }
                    return connect();
                });
    }
}
