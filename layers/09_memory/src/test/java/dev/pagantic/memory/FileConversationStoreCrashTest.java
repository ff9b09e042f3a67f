package dev.pagantic.memory;

import static org.assertj.core.api.Assertions.assertThat;

import dev.pagantic.core.Message;
import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;
import org.slf4j.LoggerFactory;

/**
 * Kills a child JVM with SIGKILL while it commits to a {@link FileConversationStore}, again and again on the same
 * journal, and checks after every kill that reopening yields every record the child reported committed, in order,
 * and nothing partial. Lane 0 writes each record in one system call, as production does; the other lanes write in
 * 256-byte slices so that kills often land inside a record and leave a torn tail to cut off. {@value #LANES} lanes
 * (each its own directory and journal) run side by side to keep the wall time down; each runs
 * {@value #LOOPS_PER_LANE} kill loops, {@value #KILL_LOOPS} in all. Every third loop compacts the journal before the
 * next child appends to it.
 */
class FileConversationStoreCrashTest {

    private static final int LANES = 3;
    private static final int LOOPS_PER_LANE = 8;
    private static final int KILL_LOOPS = LANES * LOOPS_PER_LANE;
    private static final String SESSION = "crash-session";

    @TempDir
    Path directory;

    /** Every child started, so that a failing or timed-out run kills them all. */
    private final List<Process> children = new java.util.concurrent.CopyOnWriteArrayList<>();

    @org.junit.jupiter.api.AfterEach
    void killEveryChild() {
        children.forEach(child -> child.toHandle().destroyForcibly());
    }

    /** What one lane saw. */
    private record LaneResult(int loops, int tornTails, int completeButUnreported, int compactions, int messages) {
    }

    @Test
    @Timeout(value = 3, unit = TimeUnit.MINUTES)
    void everyCommittedRecordSurvivesAKillNineAndNoTornRecordIsVisible() throws Exception {
        long started = System.nanoTime();
        ExecutorService pool = Executors.newFixedThreadPool(LANES);
        List<Future<LaneResult>> lanes = new ArrayList<>();
        for (int lane = 0; lane < LANES; lane++) {
            Path laneDirectory = Files.createDirectories(directory.resolve("lane-" + lane));
            long seed = 20261122L + lane;
            int chunk = lane == 0 ? 0 : 256; // lane 0 writes as production does; the others in 256-byte slices
            lanes.add(pool.submit(() -> runLane(laneDirectory, seed, chunk)));
        }
        pool.shutdown();
        int loops = 0;
        int torn = 0;
        int unreported = 0;
        int messages = 0;
        int compactions = 0;
        for (Future<LaneResult> lane : lanes) {
            LaneResult result = lane.get(120, TimeUnit.SECONDS);
            loops += result.loops();
            torn += result.tornTails();
            unreported += result.completeButUnreported();
            messages += result.messages();
            compactions += result.compactions();
        }
        assertThat(loops).isEqualTo(KILL_LOOPS).isGreaterThanOrEqualTo(20);
        LoggerFactory.getLogger(FileConversationStoreCrashTest.class).info(
                "crash test: {} kill loops in {} ms ({} lanes), {} messages recovered, {} torn tails cut off, "
                        + "{} kills left a complete but unreported batch, {} compactions between kills", loops,
                TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - started), LANES, messages, torn, unreported,
                compactions);
    }

    private LaneResult runLane(Path laneDirectory, long seed, int writeChunkBytes) throws Exception {
        Random random = new Random(seed);
        int tornTails = 0;
        int unreported = 0;
        int compactions = 0;
        for (int loop = 0; loop < LOOPS_PER_LANE; loop++) {
            Process child = startChild(laneDirectory, writeChunkBytes);
            children.add(child);
            long reported;
            try {
                reported = commitUntilKilled(child, laneDirectory, random);
            } finally {
                child.toHandle().destroyForcibly(); // never leave a child appending after a failed assertion
            }
            assertThat(child.waitFor(10, TimeUnit.SECONDS)).isTrue();
            assertThat(child.exitValue()).as("killed by SIGKILL").isEqualTo(128 + 9);

            try (FileConversationStore store = FileConversationStore.open(laneDirectory)) {
                StoredSession session = store.load(SESSION);
                List<Message> messages = session.messages();
                String where = laneDirectory.getFileName() + " loop " + loop;

                assertThat(messages.size()).as("%s: every reported commit is there", where)
                        .isGreaterThanOrEqualTo((int) reported);
                assertThat(CrashChild.steps(messages.size()))
                        .as("%s: at most the one batch in flight beyond the last report", where)
                        .isLessThanOrEqualTo(CrashChild.steps((int) reported) + 1);
                assertThat(messages).as("%s: complete batches, in order, byte for byte", where)
                        .isEqualTo(expectedPrefix(messages.size()));
                assertThat(session.recovery().status()).as("%s: a kill tears at most the tail", where)
                        .isNotEqualTo(RecoveryReport.Status.CORRUPTION_TRUNCATED);
                if (session.recovery().status() == RecoveryReport.Status.TORN_TAIL_TRUNCATED) {
                    tornTails++;
                }
                if (messages.size() > reported) {
                    unreported++;
                }
                if (loop % 3 == 2) {
                    store.compact(SESSION); // the next child recovers and appends to a compacted journal
                    compactions++;
                }
            }
        }
        try (FileConversationStore store = FileConversationStore.open(laneDirectory)) {
            StoredSession last = store.load(SESSION);
            assertThat(last.recovery().isClean()).isTrue();
            assertThat(last.messages()).isEqualTo(expectedPrefix(last.messages().size()));
            return new LaneResult(LOOPS_PER_LANE, tornTails, unreported, compactions, last.messages().size());
        }
    }

    /**
     * Reads the child's reports until a random number of commits, then kills it with SIGKILL and drains the pipe.
     *
     * @return the message count of the last commit the child reported
     */
    private static long commitUntilKilled(Process child, Path laneDirectory, Random random) throws Exception {
        try (BufferedReader out = new BufferedReader(new InputStreamReader(child.getInputStream(),
                StandardCharsets.UTF_8))) {
            String ready = out.readLine();
            assertThat(ready).as("child started (%s)", stderr(laneDirectory)).startsWith("ready ");
            long reported = CrashChild.messagesAfter(Integer.parseInt(ready.substring("ready ".length())));
            int waitFor = 1 + random.nextInt(12);
            for (int i = 0; i < waitFor; i++) {
                String line = out.readLine();
                assertThat(line).as("child reports commits (%s)", stderr(laneDirectory)).isNotNull();
                reported = Long.parseLong(line);
            }
            // Land somewhere inside the next commit: encoding, writing or forcing.
            java.util.concurrent.locks.LockSupport.parkNanos(random.nextInt(3_000_000));
            // SIGKILL through the handle: Process.destroyForcibly would also close our end of the pipe.
            assertThat(child.toHandle().destroyForcibly()).isTrue();
            // Lines already in the pipe were printed after their commit returned: they count too.
            for (String line = out.readLine(); line != null; line = out.readLine()) {
                reported = Long.parseLong(line);
            }
            return reported;
        }
    }

    /** The messages of complete batches, as many as were recovered (more if that is not a batch edge). */
    private static List<Message> expectedPrefix(int size) {
        List<Message> expected = new ArrayList<>();
        for (int step = 0; expected.size() < size; step++) {
            expected.addAll(CrashChild.batch(step));
        }
        return expected;
    }

    private Process startChild(Path laneDirectory, int writeChunkBytes) throws IOException {
        String java = Path.of(System.getProperty("java.home"), "bin", "java").toString();
        List<String> command = List.of(java, "-Xshare:auto", "-XX:TieredStopAtLevel=1", "-XX:+UseSerialGC",
                "-Xmx128m", "-XX:-UsePerfData", "-cp", System.getProperty("java.class.path"),
                CrashChild.class.getName(), laneDirectory.toString(), SESSION, String.valueOf(writeChunkBytes));
        return new ProcessBuilder(command)
                .redirectError(laneDirectory.resolve("child-stderr.txt").toFile())
                .start();
    }

    private static String stderr(Path laneDirectory) {
        try {
            return "stderr: " + Files.readString(laneDirectory.resolve("child-stderr.txt"));
        } catch (IOException e) {
            return "stderr unreadable: " + e;
        }
    }
}
