package dev.pagantic.memory.tck;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowable;

import com.zaxxer.hikari.HikariDataSource;
import dev.pagantic.core.ErrorCode;
import dev.pagantic.core.Message;
import dev.pagantic.core.PaganticException;
import dev.pagantic.core.Role;
import dev.pagantic.memory.JdbcConversationStore;
import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collections;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/** The JDBC store on a real PostgreSQL server: what only a server shows (lock waits, restarts, a DBA's script). */
class PostgresJdbcConversationStoreTest {

    private final List<AutoCloseable> resources = new ArrayList<>();

    @BeforeEach
    void emptyDatabase() {
        Postgres.dropTables();
    }

    @AfterEach
    void close() throws Exception {
        Collections.reverse(resources);
        for (AutoCloseable resource : resources) {
            resource.close();
        }
    }

    private HikariDataSource pool(int size) {
        HikariDataSource pool = Postgres.pool(size);
        resources.add(pool);
        return pool;
    }

    private JdbcConversationStore store(HikariDataSource pool, int maxAttempts) {
        JdbcConversationStore store = JdbcConversationStore.builder().dataSource(pool).maxAttempts(maxAttempts).build();
        resources.add(store);
        return store;
    }

    @Test
    void aWriterThatLosesTheRaceToAnotherCommitsNothingAndRetriesAfterTheWinner() throws Exception {
        JdbcConversationStore store = store(pool(2), JdbcConversationStore.DEFAULT_MAX_ATTEMPTS);
        store.append("race", Message.user("first"));

        Future<Long> loser = raceAgainstASneakedInMessage(store, "race", "mine");

        assertThat(loser.get(30, TimeUnit.SECONDS)).isEqualTo(3);
        assertThat(store.load("race").messages()).extracting(Message::content)
                .containsExactly("first", "sneaked in", "mine");
    }

    @Test
    void aWriterOutOfAttemptsFailsWithConcurrentUseAndHasWrittenNothing() throws Exception {
        JdbcConversationStore store = store(pool(2), 1);
        store.append("race", Message.user("first"));

        Future<Long> loser = raceAgainstASneakedInMessage(store, "race", "lost");

        Throwable failure = catchThrowable(() -> loser.get(30, TimeUnit.SECONDS)).getCause();
        assertThat(failure).isInstanceOf(PaganticException.class);
        assertThat(((PaganticException) failure).code()).isEqualTo(ErrorCode.ORCHESTRATION_CONCURRENT_USE);
        assertThat(((PaganticException) failure).retryable()).isTrue();
        assertThat(store.load("race").messages()).extracting(Message::content).containsExactly("first", "sneaked in");
    }

    /**
     * Another writer (a plain connection) moves the session's count on and holds its row lock; the store's append,
     * started meanwhile, reads the old count and waits for the lock; then the other writer commits.
     */
    private Future<Long> raceAgainstASneakedInMessage(JdbcConversationStore store, String session, String content)
            throws SQLException, InterruptedException {
        HikariDataSource other = pool(2);
        try (Connection winner = other.getConnection(); Connection observer = other.getConnection()) {
            winner.setAutoCommit(false);
            try (Statement statement = winner.createStatement()) {
                statement.executeUpdate("UPDATE pagantic_session SET message_count = 2 WHERE session_id = '"
                        + session + "'");
                statement.executeUpdate("INSERT INTO pagantic_message (session_id, seq, role, message) VALUES ('"
                        + session + "', 1, 'user', '{\"role\":\"user\",\"content\":\"sneaked in\"}')");
            }
            CompletableFuture<Long> loser = CompletableFuture.supplyAsync(
                    () -> store.append(session, Message.user(content)));
            awaitALockWait(observer);
            winner.commit();
            return loser;
        }
    }

    private static void awaitALockWait(Connection observer) throws SQLException, InterruptedException {
        long deadline = System.nanoTime() + Duration.ofSeconds(30).toNanos();
        while (System.nanoTime() < deadline) {
            try (Statement statement = observer.createStatement(); ResultSet row = statement.executeQuery(
                    "SELECT count(*) FROM pg_stat_activity WHERE wait_event_type = 'Lock'")) {
                row.next();
                if (row.getInt(1) > 0) {
                    return;
                }
            }
            Thread.sleep(10);
        }
        throw new AssertionError("the store's append never waited for the other writer's lock");
    }

    @Test
    void aServerRestartMidRunLosesNoCommittedMessageAndTheStoreRecovers() throws Exception {
        PostgresServer server = Postgres.server();
        JdbcConversationStore store = store(pool(4), JdbcConversationStore.DEFAULT_MAX_ATTEMPTS);
        AtomicInteger acknowledged = new AtomicInteger();
        AtomicBoolean restarted = new AtomicBoolean();
        int writers = 2;
        List<Writer> all = new ArrayList<>();
        ExecutorService pool = Executors.newFixedThreadPool(writers);
        for (int w = 0; w < writers; w++) {
            Writer writer = new Writer("w" + w, store, acknowledged, restarted);
            all.add(writer);
            pool.submit(writer);
        }
        awaitAcknowledged(acknowledged, 20);
        server.stop(true); // its processes quit at once, as in a crash
        Thread.sleep(500);
        server.restart();
        restarted.set(true);
        pool.shutdown();
        assertThat(pool.awaitTermination(120, TimeUnit.SECONDS)).as("writers finished").isTrue();

        List<Message> messages = store.load("restart").messages();
        Set<String> stored = new HashSet<>();
        for (int m = 0; m < messages.size(); m += 2) {
            assertThat(messages.get(m).role()).isEqualTo(Role.USER);
            assertThat(messages.get(m + 1).content()).as("turns are whole").isEqualTo(messages.get(m).content() + "!");
            assertThat(stored.add(messages.get(m).content())).as("no turn twice").isTrue();
        }
        for (Writer writer : all) {
            assertThat(writer.failures).as("%s met the outage", writer.name).isNotEmpty()
                    .allSatisfy(failure -> assertThat(failure.retryable()).as(failure.getMessage()).isTrue());
            assertThat(writer.acknowledgedAfterRestart).as("%s wrote after the restart", writer.name).isPositive();
            assertThat(stored).as("%s's acknowledged turns", writer.name).containsAll(writer.acknowledged);
            List<String> own = new ArrayList<>();
            messages.stream().filter(m -> m.role() == Role.USER && m.content().startsWith(writer.name + ":"))
                    .forEach(m -> own.add(m.content()));
            assertThat(writer.attempted).as("%s's turns, in its order", writer.name).containsSubsequence(own);
        }
    }

    /** Appends turns to one session until it has written 10 after the restart (or 60 s have passed). */
    private static final class Writer implements Runnable {
        final String name;
        final JdbcConversationStore store;
        final AtomicInteger acknowledgedTotal;
        final AtomicBoolean restarted;
        final List<String> attempted = new ArrayList<>();
        final List<String> acknowledged = new ArrayList<>();
        final List<PaganticException> failures = new ArrayList<>();
        int acknowledgedAfterRestart;

        Writer(String name, JdbcConversationStore store, AtomicInteger acknowledgedTotal, AtomicBoolean restarted) {
            this.name = name;
            this.store = store;
            this.acknowledgedTotal = acknowledgedTotal;
            this.restarted = restarted;
        }

        @Override
        public void run() {
            long deadline = System.nanoTime() + Duration.ofSeconds(60).toNanos();
            for (int i = 0; acknowledgedAfterRestart < 10 && System.nanoTime() < deadline; i++) {
                boolean afterRestart = restarted.get();
                String turn = name + ":" + i;
                attempted.add(turn);
                try {
                    store.append("restart", List.of(Message.user(turn), Message.assistant(turn + "!")));
                    acknowledged.add(turn);
                    acknowledgedTotal.incrementAndGet();
                    if (afterRestart) {
                        acknowledgedAfterRestart++;
                    }
                } catch (PaganticException failure) {
                    failures.add(failure);
                }
                pause();
            }
        }

        private static void pause() {
            try {
                Thread.sleep(5);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
        }
    }

    private static void awaitAcknowledged(AtomicInteger acknowledged, int count) throws InterruptedException {
        long deadline = System.nanoTime() + Duration.ofSeconds(60).toNanos();
        while (acknowledged.get() < count) {
            assertThat(System.nanoTime()).as("writers made no progress").isLessThan(deadline);
            Thread.sleep(5);
        }
    }

    @Test
    void aDatabasePreparedWithTheShippedScriptNeedsNoSchemaCreation() throws Exception {
        HikariDataSource pool = pool(2);
        assertThat(catchThrowable(() -> JdbcConversationStore.builder().dataSource(pool).createSchema(false).build()))
                .isInstanceOf(PaganticException.class).hasMessageContaining("pagantic_session");

        try (InputStream script = JdbcConversationStore.class.getResourceAsStream(
                JdbcConversationStore.SCHEMA_RESOURCE); Connection connection = pool.getConnection();
             Statement statement = connection.createStatement()) {
            statement.execute(read(script)); // as psql -f would: the whole script, comments and all
        }
        try (JdbcConversationStore store = JdbcConversationStore.builder().dataSource(pool).createSchema(false)
                .build()) {
            assertThat(store.append("s", Message.user("on the DBA's tables"))).isEqualTo(1);
        }
    }

    private static String read(InputStream in) throws IOException {
        return new String(in.readAllBytes(), StandardCharsets.UTF_8);
    }
}
