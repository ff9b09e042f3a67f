package dev.pagantic.memory;

import dev.pagantic.core.ErrorCode;
import dev.pagantic.core.PaganticException;
import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.List;
import org.jspecify.annotations.Nullable;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/** The tables of {@link JdbcConversationStore}: the shipped script, run on demand, and the check that they exist. */
final class JdbcSchema {

    private static final Logger LOG = LoggerFactory.getLogger(JdbcSchema.class);

    /** The class-path resource of the schema script. */
    static final String RESOURCE = "/dev/pagantic/memory/jdbc-conversation-store.sql";

    private JdbcSchema() {
    }

    /** The statements of the schema script. */
    static List<String> statements() {
        String script;
        try (InputStream in = JdbcSchema.class.getResourceAsStream(RESOURCE)) {
            if (in == null) {
                throw new IllegalStateException("missing resource " + RESOURCE);
            }
            script = new String(in.readAllBytes(), StandardCharsets.UTF_8);
        } catch (IOException e) {
            throw new IllegalStateException("cannot read " + RESOURCE, e);
        }
        List<String> statements = new ArrayList<>();
        StringBuilder statement = new StringBuilder();
        for (String line : script.split("\n")) {
            String trimmed = line.strip();
            if (trimmed.isEmpty() || trimmed.startsWith("--")) {
                continue;
            }
            statement.append(line).append('\n');
            if (trimmed.endsWith(";")) {
                statements.add(statement.substring(0, statement.lastIndexOf(";")).strip());
                statement.setLength(0);
            }
        }
        return List.copyOf(statements);
    }

    /**
     * Creates the tables (in one transaction) unless they exist.
     *
     * @return the failure, if creating them failed: another store may have created them at the same moment, so the
     *         caller checks the schema before it reports it
     */
    static @Nullable SQLException create(Connection connection) throws SQLException {
        connection.setAutoCommit(false);
        try (Statement statement = connection.createStatement()) {
            for (String sql : statements()) {
                statement.execute(sql);
            }
            connection.commit();
            return null;
        } catch (SQLException raced) {
            JdbcConversationStore.rollbackQuietly(connection);
            LOG.debug("creating the schema failed; checking whether another store created it", raced);
            return raced;
        } finally {
            connection.setAutoCommit(true);
        }
    }

    /**
     * Checks that the tables and columns of the schema exist.
     *
     * @param creationFailure why creating them failed, or null
     */
    static void check(Connection connection, @Nullable SQLException creationFailure) {
        String[] probes = {
            "SELECT session_id, message_count, created_at, updated_at FROM pagantic_session WHERE 1 = 0",
            "SELECT session_id, seq, role, message FROM pagantic_message WHERE 1 = 0",
            "SELECT session_id, state_key, state_value FROM pagantic_state WHERE 1 = 0"
        };
        for (String probe : probes) {
            try (Statement statement = connection.createStatement();
                 ResultSet ignored = statement.executeQuery(probe)) {
                LOG.trace("schema probe passed: {}", probe);
            } catch (SQLException missing) {
                PaganticException failure = PaganticException.builder(ErrorCode.CONFIG_INVALID, "the conversation "
                                + "store's tables are missing or differ from schema version 1 (" + missing.getMessage()
                                + "): run the script " + RESOURCE + " from pagantic-memory, or build the store "
                                + "with createSchema(true)")
                        .detail("probe", probe).cause(missing).build();
                if (creationFailure != null) {
                    failure.addSuppressed(creationFailure);
                }
                throw failure;
            }
        }
    }
}
