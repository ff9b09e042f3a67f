package dev.pagantic.memory.tck;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.Paths;
import java.nio.file.attribute.UserPrincipal;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * A throw-away PostgreSQL server for tests and benchmarks: a new cluster in a temporary directory ({@code initdb}),
 * started with {@code pg_ctl} on a free loopback port, trusted local user {@value #USER}, removed again by
 * {@link #close()} (or when the JVM exits). It uses the binaries of an installed PostgreSQL: {@code $PAGANTIC_PG_BIN},
 * else the newest {@code /usr/lib/postgresql/<version>/bin} (Debian's {@code postgresql} package), else
 * {@code initdb} on the {@code PATH}. PostgreSQL refuses to run as root, so as root the commands run as the
 * {@code postgres} user (which Debian's package creates) through {@code runuser}.
 *
 * <p>With {@code fsync} off the server still writes every commit to the operating system before it acknowledges it,
 * so a commit survives a crash or restart of the server (not of the machine): enough for tests, and faster on a
 * shared disk. Benchmarks that compare with stores that force their commits to the device keep it on.
 */
public final class PostgresServer implements AutoCloseable {

    private static final Logger LOG = LoggerFactory.getLogger(PostgresServer.class);

    /** The database user, a superuser trusted without a password on the loopback address. */
    public static final String USER = "pagantic";
    private static final String SYSTEM_USER = "postgres";
    private static final long COMMAND_TIMEOUT_SECONDS = 120;

    private final Path binaries;
    private final Path base;
    private final Path data;
    private final boolean runAsSystemUser;
    private final boolean fsync;
    private final Thread cleanup = new Thread(this::close, "pagantic-postgres-cleanup");
    private int port;
    private boolean running;
    private boolean closed;

    private PostgresServer(Path binaries, Path base, boolean runAsSystemUser, boolean fsync) {
        this.binaries = binaries;
        this.base = base;
        this.data = base.resolve("data");
        this.runAsSystemUser = runAsSystemUser;
        this.fsync = fsync;
    }

    /**
     * Creates a cluster and starts it.
     *
     * @param fsync whether the server forces its writes to the device (PostgreSQL's default; off for tests)
     * @throws IllegalStateException with the reason and the server's log if PostgreSQL is not installed or does not
     *                               start
     */
    public static PostgresServer start(boolean fsync) {
        Path binaries = findBinaries().orElseThrow(() -> new IllegalStateException("PostgreSQL is not installed: no "
                + "initdb in $PAGANTIC_PG_BIN, /usr/lib/postgresql/*/bin or the PATH (Debian: apt-get install "
                + "postgresql)"));
        boolean asSystemUser = "root".equals(System.getProperty("user.name"));
        Path base;
        try {
            base = Files.createTempDirectory("pagantic-postgres-");
            if (asSystemUser) {
                UserPrincipal postgres = base.getFileSystem().getUserPrincipalLookupService()
                        .lookupPrincipalByName(SYSTEM_USER);
                Files.setOwner(base, postgres);
            }
        } catch (IOException e) {
            throw new IllegalStateException("cannot prepare a directory for PostgreSQL"
                    + (asSystemUser ? " owned by the user '" + SYSTEM_USER + "'" : "") + ": " + e, e);
        }
        PostgresServer server = new PostgresServer(binaries, base, asSystemUser, fsync);
        try {
            server.run("initdb", "-D", server.data.toString(), "-U", USER, "-A", "trust", "-E", "UTF8",
                    "--locale=C", "-N");
            server.startServer();
            Runtime.getRuntime().addShutdownHook(server.cleanup);
            return server;
        } catch (RuntimeException failure) {
            server.close();
            throw failure;
        }
    }

    /** The JDBC URL of the {@code postgres} database, with the user. */
    public String jdbcUrl() {
        return "jdbc:postgresql://127.0.0.1:" + port + "/postgres?user=" + USER;
    }

    /** The port the server listens on (loopback only). */
    public int port() {
        return port;
    }

    /**
     * Stops the server. {@code immediate}: its processes quit at once, as in a crash, and the next start recovers
     * from the write-ahead log; otherwise a fast shutdown (clients disconnected, everything written out).
     */
    public synchronized void stop(boolean immediate) {
        if (running) {
            run("pg_ctl", "-D", data.toString(), "-m", immediate ? "immediate" : "fast", "-w", "stop");
            running = false;
        }
    }

    /** Starts a stopped server again, on the same port. */
    public synchronized void restart() {
        if (!running) {
            startServer();
        }
    }

    /** Stops the server at once and deletes its directory. Idempotent. */
    @Override
    public synchronized void close() {
        if (closed) {
            return;
        }
        closed = true;
        try {
            stop(true);
        } catch (RuntimeException failure) {
            LOG.warn("could not stop the PostgreSQL server in {}", base, failure);
        }
        try (Stream<Path> files = Files.walk(base)) {
            files.sorted(Comparator.reverseOrder()).forEach(PostgresServer::deleteQuietly);
        } catch (IOException | UncheckedIOException e) {
            LOG.warn("could not delete {}", base, e);
        }
        if (Thread.currentThread() != cleanup) {
            try {
                Runtime.getRuntime().removeShutdownHook(cleanup);
            } catch (IllegalStateException exiting) {
                LOG.debug("the JVM is exiting", exiting);
            } catch (IllegalArgumentException neverAdded) {
                LOG.debug("no shutdown hook to remove", neverAdded);
            }
        }
    }

    private void startServer() {
        if (port == 0) {
            port = freePort();
        }
        String options = "-p " + port + " -k " + base + " -c listen_addresses=127.0.0.1 -c max_connections=50"
                + " -c fsync=" + (fsync ? "on" : "off");
        run("pg_ctl", "-D", data.toString(), "-l", base.resolve("server.log").toString(), "-o", options, "-w",
                "-t", "60", "start");
        running = true;
        LOG.info("PostgreSQL started on port {} in {}", port, base);
    }

    private void run(String program, String... arguments) {
        List<String> command = new ArrayList<>();
        if (runAsSystemUser) {
            command.addAll(List.of("runuser", "-u", SYSTEM_USER, "--"));
        }
        command.add(binaries.resolve(program).toString());
        command.addAll(List.of(arguments));
        Path output = base.resolve(program + ".out");
        try {
            Process process = new ProcessBuilder(command).redirectErrorStream(true)
                    .redirectOutput(output.toFile()).start();
            if (!process.waitFor(COMMAND_TIMEOUT_SECONDS, TimeUnit.SECONDS)) {
                process.destroyForcibly();
                throw new IllegalStateException(program + " did not finish in " + COMMAND_TIMEOUT_SECONDS + " s"
                        + diagnostics(output));
            }
            if (process.exitValue() != 0) {
                throw new IllegalStateException(String.join(" ", command) + " failed with exit code "
                        + process.exitValue() + diagnostics(output));
            }
        } catch (IOException e) {
            throw new IllegalStateException("cannot run " + String.join(" ", command) + ": " + e, e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("interrupted while running " + program, e);
        }
    }

    /** The command's output and the tail of the server's log, for a failure message. */
    private String diagnostics(Path output) {
        StringBuilder text = new StringBuilder();
        for (Path file : List.of(output, base.resolve("server.log"))) {
            try {
                if (Files.exists(file)) {
                    String content = Files.readString(file, StandardCharsets.UTF_8);
                    text.append("\n--- ").append(file.getFileName()).append(" ---\n")
                            .append(content.substring(Math.max(0, content.length() - 2000)));
                }
            } catch (IOException e) {
                text.append("\n(cannot read ").append(file).append(": ").append(e).append(')');
            }
        }
        return text.toString();
    }

    private static Optional<Path> findBinaries() {
        String configured = System.getenv("PAGANTIC_PG_BIN");
        if (configured != null && !configured.isBlank()) {
            return Optional.of(Paths.get(configured)).filter(dir -> Files.isExecutable(dir.resolve("initdb")));
        }
        Path debian = Paths.get("/usr/lib/postgresql");
        if (Files.isDirectory(debian)) {
            try (Stream<Path> versions = Files.list(debian)) {
                Optional<Path> newest = versions.map(version -> version.resolve("bin"))
                        .filter(bin -> Files.isExecutable(bin.resolve("initdb")))
                        .max(Comparator.comparing(PostgresServer::majorVersion));
                if (newest.isPresent()) {
                    return newest;
                }
            } catch (IOException e) {
                LOG.debug("cannot list {}", debian, e);
            }
        }
        String path = System.getenv("PATH");
        return path == null ? Optional.empty() : Stream.of(path.split(java.io.File.pathSeparator))
                .map(Paths::get).filter(dir -> Files.isExecutable(dir.resolve("initdb"))).findFirst();
    }

    private static int majorVersion(Path bin) {
        try {
            return Integer.parseInt(bin.getParent().getFileName().toString());
        } catch (NumberFormatException notANumber) {
            return -1;
        }
    }

    private static int freePort() {
        try (ServerSocket socket = new ServerSocket(0, 1, InetAddress.getLoopbackAddress())) {
            return socket.getLocalPort();
        } catch (IOException e) {
            throw new IllegalStateException("no free port on the loopback address: " + e, e);
        }
    }

    private static void deleteQuietly(Path file) {
        try {
            Files.deleteIfExists(file);
        } catch (IOException e) {
            LOG.debug("cannot delete {}", file, e);
        }
    }
}
