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
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.LockSupport;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.slf4j.LoggerFactory;

/**
 * Kills a child JVM ({@link CrashChild}) with SIGKILL while it commits to a {@link FileConversationStore}, again and
 * again on the same journal, and checks after every kill that the journal holds every record the child reported
 * committed, in order, byte for byte, and nothing partial.
 *
 * <ul>
 *   <li><b>Torn records.</b> Lane 0 writes each record in one system call, as production does; the other lanes write
 *       in 256-byte slices, so that kills often land inside a record and leave a torn tail.</li>
 *   <li><b>A torn tail never corrupts later appends.</b> After every other kill the parent checks the journal
 *       read-only ({@link SessionJournal#scan}, which cuts nothing), so the next child itself finds the torn tail,
 *       cuts it and appends after it; the check after the next kill covers those appends. After the other kills the
 *       parent opens the store (which cuts the tail) and, every third time, compacts the journal before the next
 *       child appends to it.</li>
 *   <li><b>Kills during compaction.</b> The child compacts its journal every {@value #CHILD_COMPACT_EVERY} commits,
 *       and a third of the kills are aimed at the moment it starts one: a kill then leaves the old journal, or the
 *       new one, complete, and perhaps a leftover compaction file that the next open removes.</li>
 *   <li><b>Sessions.</b> A lane moves to a new session every {@value #LOOPS_PER_SESSION} kills (after a last clean
 *       check, the finished session is deleted), so that each loop costs the same however many loops run.</li>
 * </ul>
 * {@value #LANES} lanes (each its own directory) run side by side. The number of kill loops is the system property
 * {@value #LOOPS_PROPERTY} (default {@value #DEFAULT_LOOPS}, at least 20); the long run is
 * {@code mvn -o test -pl layers/09_memory -Dtest=FileConversationStoreCrashTest -Dpagantic.crash.loops=500}.
 */
class FileConversationStoreCrashTest {

    static final String LOOPS_PROPERTY = "pagantic.crash.loops";
    private static final int DEFAULT_LOOPS = 24;
    private static final int LANES = 3;
    private static final int LOOPS_PER_SESSION = 8;
    private static final int CHILD_COMPACT_EVERY = 5;
    private static final String SESSION = "crash-session";

    @TempDir
    Path directory;

    /** Every child started, so that a failing or timed-out run kills them all. */
    private final List<Process> children = new CopyOnWriteArrayList<>();

    @AfterEach
    void killEveryChild() {
        children.forEach(child -> child.toHandle().destroyForcibly());
    }

    /** What one lane saw. */
    private record LaneResult(int loops, int tornTailsCutByTheParent, int tornTailsCutByTheNextChild,
                              int completeButUnreported, int parentCompactions, int childCompactions,
                              int killsDuringCompaction, int leftoverCompactionFiles, long messages) {

        LaneResult plus(LaneResult o) {
            return new LaneResult(loops + o.loops, tornTailsCutByTheParent + o.tornTailsCutByTheParent,
                    tornTailsCutByTheNextChild + o.tornTailsCutByTheNextChild,
                    completeButUnreported + o.completeButUnreported, parentCompactions + o.parentCompactions,
                    childCompactions + o.childCompactions, killsDuringCompaction + o.killsDuringCompaction,
                    leftoverCompactionFiles + o.leftoverCompactionFiles, messages + o.messages);
        }
    }

    /** What the parent read from a child before and after killing it. */
    private record Kill(long reported, int compactionsDone, boolean duringCompaction) {
    }

    /** The journal's contents after a kill, as the parent checked them. */
    private record Seen(List<Message> messages, RecoveryReport.Status status) {
    }

    @Test
    void everyCommittedRecordSurvivesAKillNineAndNoTornRecordIsVisible() throws Exception {
        int loops = Integer.getInteger(LOOPS_PROPERTY, DEFAULT_LOOPS);
        assertThat(loops).as("-D%s", LOOPS_PROPERTY).isGreaterThanOrEqualTo(20);
        long started = System.nanoTime();
        ExecutorService pool = Executors.newFixedThreadPool(LANES);
        List<Future<LaneResult>> lanes = new ArrayList<>();
        for (int lane = 0; lane < LANES; lane++) {
            Path laneDirectory = Files.createDirectories(directory.resolve("lane-" + lane));
            long seed = 20261122L + lane;
            int chunk = lane == 0 ? 0 : 256; // lane 0 writes as production does; the others in 256-byte slices
            int laneLoops = loops / LANES + (lane < loops % LANES ? 1 : 0);
            lanes.add(pool.submit(() -> runLane(laneDirectory, laneLoops, seed, chunk)));
        }
        pool.shutdown();
        LaneResult total = new LaneResult(0, 0, 0, 0, 0, 0, 0, 0, 0);
        long perLaneLimit = 60 + loops * 3L; // a hang guard, not a speed limit
        for (Future<LaneResult> lane : lanes) {
            total = total.plus(lane.get(perLaneLimit, TimeUnit.SECONDS));
        }
        assertThat(total.loops()).isEqualTo(loops);
        LoggerFactory.getLogger(FileConversationStoreCrashTest.class).info(
                "crash test: {} kill loops in {} ms ({} lanes); {} messages recovered, none lost; torn tails cut off: "
                        + "{} by the parent's open, {} by the next child's; {} kills left a complete but unreported "
                        + "batch; compactions: {} by the parent between kills, {} by the children, {} kills during "
                        + "one ({} left a compaction file behind)", total.loops(),
                TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - started), LANES, total.messages(),
                total.tornTailsCutByTheParent(), total.tornTailsCutByTheNextChild(), total.completeButUnreported(),
                total.parentCompactions(), total.childCompactions(), total.killsDuringCompaction(),
                total.leftoverCompactionFiles());
    }

    private LaneResult runLane(Path laneDirectory, int loops, long seed, int writeChunkBytes) throws Exception {
        Random random = new Random(seed);
        LaneResult result = new LaneResult(0, 0, 0, 0, 0, 0, 0, 0, 0);
        for (int loop = 0; loop < loops; loop++) {
            String session = SESSION + "-" + loop / LOOPS_PER_SESSION;
            Path journal = journalPath(laneDirectory, session);
            Process child = startChild(laneDirectory, session, writeChunkBytes);
            children.add(child);
            Kill kill;
            try {
                kill = commitUntilKilled(child, laneDirectory, random, random.nextInt(3) == 0);
            } finally {
                child.toHandle().destroyForcibly(); // never leave a child appending after a failed assertion
            }
            assertThat(child.waitFor(10, TimeUnit.SECONDS)).isTrue();
            assertThat(child.exitValue()).as("killed by SIGKILL").isEqualTo(128 + 9);
            children.remove(child);

            String where = laneDirectory.getFileName() + " loop " + loop;
            boolean leftover = Files.exists(SessionJournal.compactPath(journal));
            boolean readOnly = loop % 2 == 0;
            int parentCompactions = 0;
            Seen seen;
            if (readOnly) { // leave a torn tail, if any, for the next child to cut
                seen = scan(journal);
            } else {
                try (FileConversationStore store = FileConversationStore.open(laneDirectory)) {
                    StoredSession stored = store.load(session);
                    seen = new Seen(stored.messages(), stored.recovery().status());
                    assertThat(SessionJournal.compactPath(journal)).as("%s: the leftover compaction file is gone",
                            where).doesNotExist();
                    if (loop % 3 == 2) {
                        store.compact(session); // the next child recovers and appends to a compacted journal
                        parentCompactions = 1;
                    }
                }
            }
            List<Message> messages = seen.messages();
            assertThat(messages.size()).as("%s: every reported commit is there", where)
                    .isGreaterThanOrEqualTo((int) kill.reported());
            assertThat(CrashChild.steps(messages.size()))
                    .as("%s: at most the one batch in flight beyond the last report", where)
                    .isLessThanOrEqualTo(CrashChild.steps((int) kill.reported()) + 1);
            assertThat(messages).as("%s: complete batches, in order, byte for byte", where)
                    .isEqualTo(expectedPrefix(messages.size()));
            assertThat(seen.status()).as("%s: a kill tears at most the tail", where)
                    .isNotEqualTo(RecoveryReport.Status.CORRUPTION_TRUNCATED);
            boolean torn = seen.status() == RecoveryReport.Status.TORN_TAIL_TRUNCATED;
            result = result.plus(new LaneResult(1, torn && !readOnly ? 1 : 0, torn && readOnly ? 1 : 0,
                    messages.size() > kill.reported() ? 1 : 0, parentCompactions, kill.compactionsDone(),
                    kill.duringCompaction() ? 1 : 0, leftover ? 1 : 0, 0));

            if (loop % LOOPS_PER_SESSION == LOOPS_PER_SESSION - 1 || loop == loops - 1) {
                result = result.plus(new LaneResult(0, 0, 0, 0, 0, 0, 0, 0, finishSession(laneDirectory, session)));
            }
        }
        return result;
    }

    /** The last check of a session: it opens cleanly with every message; then it is deleted to keep disk use flat. */
    private static long finishSession(Path laneDirectory, String session) {
        try (FileConversationStore store = FileConversationStore.open(laneDirectory)) {
            StoredSession last = store.load(session);
            List<Message> messages = last.messages();
            // the last kill may have been checked read-only, so this open may still cut a torn tail
            assertThat(last.recovery().status()).isNotEqualTo(RecoveryReport.Status.CORRUPTION_TRUNCATED);
            assertThat(messages).isEqualTo(expectedPrefix(messages.size()));
            store.delete(session);
            return messages.size();
        }
    }

    /** The journal's contents read without changing the file: a torn tail stays for the next child. */
    private static Seen scan(Path journal) throws IOException {
        SessionJournal.Scan scan = SessionJournal.scan(Files.readAllBytes(journal),
                FileConversationStore.DEFAULT_MAX_RECORD_BYTES);
        return new Seen(List.copyOf(scan.data.messages), scan.report.status());
    }

    private static Path journalPath(Path laneDirectory, String session) {
        try (FileConversationStore store = FileConversationStore.open(laneDirectory)) {
            return store.journalPath(session); // opens no journal
        }
    }

    /**
     * Reads the child's reports until a random number of commits (or, when aimed at a compaction, until the child
     * starts one), then kills it with SIGKILL and drains the pipe.
     */
    private static Kill commitUntilKilled(Process child, Path laneDirectory, Random random, boolean atCompaction)
            throws Exception {
        try (BufferedReader out = new BufferedReader(new InputStreamReader(child.getInputStream(),
                StandardCharsets.UTF_8))) {
            String ready = out.readLine();
            assertThat(ready).as("child started (%s)", stderr(laneDirectory)).startsWith("ready ");
            long reported = CrashChild.messagesAfter(Integer.parseInt(ready.substring("ready ".length())));
            int compactions = 0;
            boolean compacting = false;
            int waitFor = 1 + random.nextInt(12);
            for (int commits = 0; atCompaction ? !compacting : commits < waitFor; ) {
                String line = out.readLine();
                assertThat(line).as("child reports commits (%s)", stderr(laneDirectory)).isNotNull();
                if (line.equals(CrashChild.COMPACTING)) {
                    compacting = true;
                } else if (line.equals(CrashChild.COMPACTED)) {
                    compacting = false;
                    compactions++;
                } else {
                    reported = Long.parseLong(line);
                    commits++;
                }
            }
            // Land somewhere inside the next commit or the compaction: encoding, writing, forcing or renaming.
            LockSupport.parkNanos(random.nextInt(3_000_000));
            // SIGKILL through the handle: Process.destroyForcibly would also close our end of the pipe.
            assertThat(child.toHandle().destroyForcibly()).isTrue();
            // Lines already in the pipe were printed after their commit (or compaction) returned: they count too.
            for (String line = out.readLine(); line != null; line = out.readLine()) {
                if (line.equals(CrashChild.COMPACTING)) {
                    compacting = true;
                } else if (line.equals(CrashChild.COMPACTED)) {
                    compacting = false;
                    compactions++;
                } else {
                    reported = Long.parseLong(line);
                }
            }
            return new Kill(reported, compactions, compacting);
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

    private static Process startChild(Path laneDirectory, String session, int writeChunkBytes) throws IOException {
        String java = Path.of(System.getProperty("java.home"), "bin", "java").toString();
        List<String> command = List.of(java, "-Xshare:auto", "-XX:TieredStopAtLevel=1", "-XX:+UseSerialGC",
                "-Xmx128m", "-XX:-UsePerfData", "-cp", System.getProperty("java.class.path"),
                CrashChild.class.getName(), laneDirectory.toString(), session, String.valueOf(writeChunkBytes),
                String.valueOf(CHILD_COMPACT_EVERY));
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
