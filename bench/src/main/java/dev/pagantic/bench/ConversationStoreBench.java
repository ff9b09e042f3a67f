package dev.pagantic.bench;

import com.zaxxer.hikari.HikariConfig;
import com.zaxxer.hikari.HikariDataSource;
import dev.pagantic.core.Message;
import dev.pagantic.memory.ConversationStore;
import dev.pagantic.memory.FileConversationStore;
import dev.pagantic.memory.InMemoryConversationStore;
import dev.pagantic.memory.JdbcConversationStore;
import dev.pagantic.memory.StoredSession;
import dev.pagantic.memory.tck.PostgresServer;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Comparator;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import java.util.stream.Stream;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Level;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Param;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.TearDown;

/**
 * The cost of persisting a chat turn in each {@link ConversationStore}, with each store's durable defaults: the file
 * journal forces every commit to the device; the JDBC store on embedded SQLite ({@code synchronous=FULL}, write-ahead
 * log) does too; the JDBC store on PostgreSQL (a server started for the run on the loopback address, {@code fsync} on,
 * a HikariCP pool of 4) commits through the server's write-ahead log. The in-memory store is the floor.
 *
 * <p>{@code appendTurn}: one turn (the user's ~55-character message and a ~66-character reply, one batch, as the facade
 * commits a turn) appended to a session that is replaced after 10 turns. {@code loadSession}: restoring a 10-turn
 * session (20 messages), as the facade does for a session that is not live.
 */
@State(Scope.Benchmark)
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.MICROSECONDS)
public class ConversationStoreBench {

    private static final int TURNS_PER_SESSION = 10;
    private static final List<Message> TURN = List.of(
            Message.user("What is the weather like in Paris this afternoon, please?"),
            Message.assistant("It is sunny in Paris this afternoon, 24 degrees, with a light breeze."));

    @Param({"memory", "file", "sqlite", "postgresql"})
    public String store;

    ConversationStore conversations;
    private Path directory;
    private PostgresServer server;
    private HikariDataSource pool;
    private final AtomicLong turns = new AtomicLong();

    @Setup(Level.Trial)
    public void open() throws IOException {
        directory = Files.createTempDirectory("pagantic-store-bench-");
        switch (store) {
            case "memory":
                conversations = new InMemoryConversationStore();
                break;
            case "file":
                conversations = FileConversationStore.open(directory);
                break;
            case "sqlite":
                conversations = JdbcConversationStore.embedded(directory.resolve("sessions.sqlite"));
                break;
            case "postgresql":
                server = PostgresServer.start(true);
                HikariConfig config = new HikariConfig();
                config.setJdbcUrl(server.jdbcUrl());
                config.setMaximumPoolSize(4);
                pool = new HikariDataSource(config);
                conversations = JdbcConversationStore.builder().dataSource(pool).build();
                break;
            default:
                throw new IllegalArgumentException("unknown store " + store);
        }
        for (int turn = 0; turn < TURNS_PER_SESSION; turn++) {
            conversations.append("restored", TURN);
        }
    }

    @TearDown(Level.Trial)
    public void close() throws IOException {
        conversations.close();
        if (pool != null) {
            pool.close();
        }
        if (server != null) {
            server.close();
        }
        try (Stream<Path> files = Files.walk(directory)) {
            for (Path file : (Iterable<Path>) files.sorted(Comparator.reverseOrder())::iterator) {
                Files.deleteIfExists(file);
            }
        }
    }

    /** One turn appended; a new session every 10 turns. */
    @Benchmark
    public long appendTurn() {
        long turn = turns.getAndIncrement();
        return conversations.append("session-" + turn / TURNS_PER_SESSION, TURN);
    }

    /** A 10-turn session loaded. */
    @Benchmark
    public StoredSession loadSession() {
        return conversations.load("restored");
    }
}
