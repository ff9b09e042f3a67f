package dev.pagantic.bench;

import com.sun.management.ThreadMXBean;
import dev.pagantic.memory.InMemoryConversationStore;
import dev.pagantic.observe.EventLog;
import dev.pagantic.orchestrate.facade.Orchestrator;
import dev.pagantic.orchestrate.facade.SystemRequest;
import dev.pagantic.orchestrate.facade.SystemResponse;
import java.lang.management.GarbageCollectorMXBean;
import java.lang.management.ManagementFactory;
import java.lang.management.MemoryMXBean;
import java.lang.ref.Reference;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.atomic.AtomicLong;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import javax.management.ObjectName;

/**
 * A wall-clock harness for how the facade {@link Orchestrator} scales with concurrent chat sessions, on
 * {@link ZeroLatencyEngine} (so that only the orchestration is measured) and the default in-memory conversation
 * store, with a no-op event log.
 *
 * <ol>
 *   <li><b>Memory census</b> (a harness rather than JMH: it measures retained heap, not time): opens N sessions of
 *       two turns each, forces full collections and divides the growth of the used heap by N; once with every
 *       session live ({@code maxSessions} above N) and once with one live session (every other evicted, so that only
 *       the conversation store holds it). A class histogram taken before and after (the HotSpot diagnostic command
 *       {@code GC.class_histogram}, in process) says what the retained bytes are.</li>
 *   <li><b>Throughput and latency</b>: N sessions, T platform threads (a fixed pool; Java 17 has no virtual threads),
 *       each thread driving its own share of the sessions round-robin, as fast as it can, for a warm-up and then a
 *       measured interval. A session is never used by two threads at once (a chat session serves one turn at a time:
 *       a concurrent turn is refused with {@code ORCHESTRATION_CONCURRENT_USE}), so T is capped at N. To keep the
 *       history bounded whatever the run length, a session that has had {@value #TURNS_PER_SESSION} turns is deleted
 *       and replaced by a fresh one; histories therefore hold 1 to {@value #TURNS_PER_SESSION} turns. Reported:
 *       turns/s, latency percentiles of {@code execute}, bytes allocated per turn by the driving threads
 *       ({@code ThreadMXBean.getThreadAllocatedBytes}; the whole turn runs on the caller's thread), and GC time.</li>
 * </ol>
 *
 * <p>Arguments (all optional, in this order): session counts (default {@code 1,100,10000}), thread counts (default
 * {@code 2,8,64}), measured seconds per run (default 10), warm-up seconds (default 5), and {@code memory-only} or
 * {@code throughput-only}. The system property {@code scaling.maxSessions} replaces the throughput runs' live-session
 * limit (default: room for every session) to measure LRU eviction and restore from the store. Output is Markdown
 * tables on standard output.
 */
public final class SessionScaling {

    /** Turns a session has before it is replaced by a fresh one, which bounds its history. */
    static final int TURNS_PER_SESSION = 10;
    /** Turns of history each session has in the memory census. */
    static final int CENSUS_TURNS = 2;

    private static final MemoryMXBean MEMORY = ManagementFactory.getMemoryMXBean();
    private static final ThreadMXBean THREADS = (ThreadMXBean) ManagementFactory.getThreadMXBean();
    private static final Pattern HISTOGRAM_LINE = Pattern.compile("^\\s*\\d+:\\s+(\\d+)\\s+(\\d+)\\s+(\\S+)");

    private SessionScaling() {
    }

    public static void main(String[] args) throws Exception {
        int[] sessions = ints(args, 0, "1,100,10000");
        int[] threads = ints(args, 1, "2,8,64");
        int measureSeconds = args.length > 2 ? Integer.parseInt(args[2]) : 10;
        int warmupSeconds = args.length > 3 ? Integer.parseInt(args[3]) : 5;
        String only = args.length > 4 ? args[4] : "";
        System.out.printf(Locale.ROOT, "JVM: %s %s, %d processors, max heap %d MiB, GC %s%n",
                System.getProperty("java.vm.name"), System.getProperty("java.version"),
                Runtime.getRuntime().availableProcessors(), Runtime.getRuntime().maxMemory() >> 20,
                ManagementFactory.getGarbageCollectorMXBeans().stream().map(GarbageCollectorMXBean::getName).toList());
        if (!only.equals("throughput-only")) {
            census(sessions);
        }
        if (!only.equals("memory-only")) {
            throughput(sessions, threads, measureSeconds, warmupSeconds);
        }
        System.exit(0);
    }

    // ------------------------------------------------------------------------------------------------ memory census

    private static void census(int[] counts) throws Exception {
        // Loads and initialises what the first session ever touches, which would otherwise count as its memory.
        census(100, 101);
        System.out.println();
        System.out.println("| Sessions | All live: retained heap | per session | Store only (1 live): retained heap"
                + " | per session |");
        System.out.println("|---|---|---|---|---|");
        Map<String, long[]> breakdown = null;
        int largest = 0;
        for (int n : counts) {
            Census live = census(n, n + 1);
            Census stored = census(n, 1);
            System.out.printf(Locale.ROOT, "| %,d | %,d B | %,d B | %,d B | %,d B |%n", n, live.bytes,
                    live.bytes / n, stored.bytes, stored.bytes / n);
            if (n >= largest) {
                largest = n;
                breakdown = live.classes;
            }
        }
        System.out.println();
        System.out.printf(Locale.ROOT, "What %,d live sessions of %d turns retain, by class (heap histogram after"
                + " minus before):%n%n", largest, CENSUS_TURNS);
        System.out.println("| Class | Instances per session | Bytes per session |");
        System.out.println("|---|---|---|");
        final int n = largest;
        breakdown.entrySet().stream()
                .sorted((a, b) -> Long.compare(b.getValue()[1], a.getValue()[1]))
                .filter(e -> e.getValue()[1] >= n) // at least a byte per session
                .limit(20)
                .forEach(e -> System.out.printf(Locale.ROOT, "| `%s` | %.1f | %.1f |%n", e.getKey(),
                        (double) e.getValue()[0] / n, (double) e.getValue()[1] / n));
    }

    /** Retained heap and its class breakdown for {@code n} sessions of two turns, at most {@code maxLive} live. */
    private static Census census(int n, int maxLive) throws Exception {
        ZeroLatencyEngine engine = new ZeroLatencyEngine();
        InMemoryConversationStore store = new InMemoryConversationStore();
        Orchestrator orchestrator = Orchestrator.builder().engine(engine).eventLog(EventLog.noOp())
                .conversationStore(store).maxSessions(maxLive).sessionTtl(Duration.ofHours(1)).build();
        // Warm the code paths without sessions, so that what stays behind is the sessions only.
        for (int i = 0; i < 2_000; i++) {
            check(orchestrator.execute(SystemRequest.builder().user("warm-up " + i).build()));
        }
        // The histograms are themselves on the heap: the baseline histogram is taken while an earlier one (of the
        // same size) is alive, so that both it and the final one count one histogram, and both heap figures are
        // read while exactly one (the baseline) is alive.
        Map<String, long[]> discarded = histogram();
        Map<String, long[]> histogramBefore = histogram();
        Reference.reachabilityFence(discarded);
        discarded = null;
        long before = usedHeapAfterGc();
        for (int i = 0; i < n; i++) {
            for (int turn = 1; turn <= CENSUS_TURNS; turn++) {
                check(orchestrator.execute(SystemRequest.builder().sessionId("session-" + i)
                        .user(userMessage(i, turn)).build()));
            }
        }
        long after = usedHeapAfterGc();
        Map<String, long[]> histogramAfter = histogram();
        Reference.reachabilityFence(orchestrator);
        Reference.reachabilityFence(store);
        orchestrator.close();
        store.close();
        Map<String, long[]> diff = new HashMap<>();
        histogramAfter.forEach((name, counts) -> {
            long[] old = histogramBefore.getOrDefault(name, new long[2]);
            diff.put(name, new long[] {counts[0] - old[0], counts[1] - old[1]});
        });
        return new Census(after - before, diff);
    }

    private record Census(long bytes, Map<String, long[]> classes) {
    }

    /** A user message of 50-odd characters, distinct per session and turn. */
    static String userMessage(int session, int turn) {
        return "Hello, this is session " + session + ", turn " + turn + ". How are you today?";
    }

    private static long usedHeapAfterGc() throws InterruptedException {
        long used = Long.MAX_VALUE;
        for (int i = 0; i < 5; i++) {
            System.gc();
            Thread.sleep(100);
            used = Math.min(used, MEMORY.getHeapMemoryUsage().getUsed());
        }
        return used;
    }

    /** Instances and bytes per class of the live heap (the diagnostic command collects garbage first). */
    private static Map<String, long[]> histogram() throws Exception {
        String text = (String) ManagementFactory.getPlatformMBeanServer().invoke(
                new ObjectName("com.sun.management:type=DiagnosticCommand"), "gcClassHistogram",
                new Object[] {new String[0]}, new String[] {String[].class.getName()});
        Map<String, long[]> classes = new HashMap<>();
        for (String line : text.split("\n")) {
            Matcher m = HISTOGRAM_LINE.matcher(line);
            if (m.find()) {
                classes.merge(m.group(3), new long[] {Long.parseLong(m.group(1)), Long.parseLong(m.group(2))},
                        (a, b) -> new long[] {a[0] + b[0], a[1] + b[1]});
            }
        }
        return classes;
    }

    // ------------------------------------------------------------------------------------------ throughput, latency

    private static void throughput(int[] sessionCounts, int[] threadCounts, int measureSeconds, int warmupSeconds)
            throws Exception {
        System.out.println();
        System.out.printf(Locale.ROOT, "Turns driven round-robin for %d s (after %d s of warm-up); sessions replaced"
                + " after %d turns.%n%n", measureSeconds, warmupSeconds, TURNS_PER_SESSION);
        System.out.println("| Sessions | Threads | Turns/s | p50 | p90 | p99 | p99.9 | max | Allocated/turn"
                + " | GC time | Errors |");
        System.out.println("|---|---|---|---|---|---|---|---|---|---|---|");
        for (int n : sessionCounts) {
            List<Integer> runs = new ArrayList<>();
            for (int t : threadCounts) {
                int capped = Math.min(t, n);
                if (!runs.contains(capped)) {
                    runs.add(capped);
                }
            }
            for (int t : runs) {
                Run run = run(n, t, measureSeconds, warmupSeconds);
                long[] lat = run.latencies;
                System.out.printf(Locale.ROOT, "| %,d | %d | %,.0f | %s | %s | %s | %s | %s | %,d B | %,d ms (%.1f%%)"
                                + " | %d |%n",
                        n, t, run.turns / (run.nanos / 1e9), micros(lat, 0.50), micros(lat, 0.90), micros(lat, 0.99),
                        micros(lat, 0.999), micros(lat, 1.0), run.allocated / Math.max(1, run.turns), run.gcMillis,
                        100.0 * run.gcMillis / (run.nanos / 1e6), run.errors);
            }
        }
    }

    private record Run(long turns, long nanos, long[] latencies, long allocated, long gcMillis, long errors) {
    }

    /** One session's slot: its current id, replaced after {@link #TURNS_PER_SESSION} turns. */
    static final class Slot {
        final int index;
        int generation;
        int turns;
        String id;

        Slot(int index) {
            this.index = index;
            this.id = "s" + index + "-g0";
        }
    }

    private static Run run(int n, int threadCount, int measureSeconds, int warmupSeconds) throws Exception {
        ZeroLatencyEngine engine = new ZeroLatencyEngine();
        InMemoryConversationStore store = new InMemoryConversationStore();
        // Room for the replaced sessions too, so that LRU eviction never drops a session still in use; unless
        // -Dscaling.maxSessions sets the limit (for example the default, 1024), to measure eviction and restore.
        int maxLive = Integer.getInteger("scaling.maxSessions", 2 * n + threadCount);
        Orchestrator orchestrator = Orchestrator.builder().engine(engine).eventLog(EventLog.noOp())
                .conversationStore(store).maxSessions(maxLive).sessionTtl(Duration.ofHours(1)).build();
        Slot[] slots = new Slot[n];
        for (int i = 0; i < n; i++) {
            slots[i] = new Slot(i);
        }
        // Every session starts with two turns of history, like the census.
        for (Slot slot : slots) {
            for (int turn = 0; turn < CENSUS_TURNS; turn++) {
                turn(orchestrator, store, slot);
            }
        }
        usedHeapAfterGc();
        Driver[] drivers = new Driver[threadCount];
        CountDownLatch done = new CountDownLatch(threadCount);
        for (int t = 0; t < threadCount; t++) {
            List<Slot> mine = new ArrayList<>();
            for (int i = t; i < n; i += threadCount) {
                mine.add(slots[i]);
            }
            drivers[t] = new Driver(orchestrator, store, mine, done);
        }
        List<Thread> started = new ArrayList<>();
        for (int t = 0; t < threadCount; t++) {
            Thread thread = new Thread(drivers[t], "driver-" + t);
            thread.start();
            started.add(thread);
        }
        Thread.sleep(warmupSeconds * 1000L);
        long gcBefore = gcMillis();
        long start = System.nanoTime();
        for (Driver driver : drivers) {
            driver.phase = Phase.MEASURE;
        }
        Thread.sleep(measureSeconds * 1000L);
        for (Driver driver : drivers) {
            driver.phase = Phase.STOP;
        }
        done.await();
        long elapsed = System.nanoTime() - start;
        long gc = gcMillis() - gcBefore;
        for (Thread thread : started) {
            thread.join();
        }
        orchestrator.close();
        store.close();
        long turns = 0;
        long allocated = 0;
        long errors = 0;
        int size = 0;
        for (Driver driver : drivers) {
            turns += driver.measured;
            allocated += driver.allocated;
            errors += driver.errors.get();
            size += driver.latencies.size;
        }
        long[] latencies = new long[size];
        int at = 0;
        for (Driver driver : drivers) {
            System.arraycopy(driver.latencies.values, 0, latencies, at, driver.latencies.size);
            at += driver.latencies.size;
        }
        Arrays.sort(latencies);
        return new Run(turns, elapsed, latencies, allocated, gc, errors);
    }

    private enum Phase { WARMUP, MEASURE, STOP }

    /** A platform thread that drives its sessions round-robin until told to stop. */
    private static final class Driver implements Runnable {
        final Orchestrator orchestrator;
        final InMemoryConversationStore store;
        final List<Slot> slots;
        final CountDownLatch done;
        final LongArray latencies = new LongArray();
        final AtomicLong errors = new AtomicLong();
        volatile Phase phase = Phase.WARMUP;
        long measured;
        long allocated;

        Driver(Orchestrator orchestrator, InMemoryConversationStore store, List<Slot> slots, CountDownLatch done) {
            this.orchestrator = orchestrator;
            this.store = store;
            this.slots = slots;
            this.done = done;
        }

        @Override
        public void run() {
            long self = Thread.currentThread().getId();
            long allocatedAtStart = 0;
            boolean measuring = false;
            try {
                for (int i = 0; ; i = (i + 1) % slots.size()) {
                    Phase now = phase;
                    if (now == Phase.STOP) {
                        allocated = THREADS.getThreadAllocatedBytes(self) - allocatedAtStart
                                - latencies.grownBytes;
                        return;
                    }
                    if (now == Phase.MEASURE && !measuring) {
                        measuring = true;
                        allocatedAtStart = THREADS.getThreadAllocatedBytes(self);
                        latencies.grownBytes = 0;
                    }
                    long start = System.nanoTime();
                    boolean ok = turn(orchestrator, store, slots.get(i));
                    long took = System.nanoTime() - start;
                    if (measuring) {
                        measured++;
                        latencies.add(took);
                        if (!ok) {
                            errors.incrementAndGet();
                        }
                    }
                }
            } finally {
                done.countDown();
            }
        }
    }

    /** One chat turn in the slot's session; replaces the session after its last turn. Returns whether it succeeded. */
    static boolean turn(Orchestrator orchestrator, InMemoryConversationStore store, Slot slot) {
        SystemRequest request = SystemRequest.builder().sessionId(slot.id)
                .user(userMessage(slot.index, slot.turns + 1)).build();
        SystemResponse response = orchestrator.execute(request);
        if (++slot.turns == TURNS_PER_SESSION) {
            store.delete(slot.id);
            slot.generation++;
            slot.turns = 0;
            slot.id = "s" + slot.index + "-g" + slot.generation;
        }
        return response.error().isEmpty();
    }

    private static void check(SystemResponse response) {
        response.error().ifPresent(error -> {
            throw new IllegalStateException("turn failed: " + error);
        });
    }

    private static long gcMillis() {
        long total = 0;
        for (GarbageCollectorMXBean gc : ManagementFactory.getGarbageCollectorMXBeans()) {
            total += Math.max(0, gc.getCollectionTime());
        }
        return total;
    }

    private static String micros(long[] sorted, double quantile) {
        if (sorted.length == 0) {
            return "-";
        }
        int index = (int) Math.min(sorted.length - 1, Math.ceil(quantile * sorted.length) - 1);
        double us = sorted[Math.max(0, index)] / 1_000.0;
        return us >= 1_000 ? String.format(Locale.ROOT, "%,.1f ms", us / 1_000)
                : String.format(Locale.ROOT, "%,.0f µs", us);
    }

    private static int[] ints(String[] args, int index, String fallback) {
        String text = args.length > index ? args[index] : fallback;
        return Arrays.stream(text.split(",")).mapToInt(Integer::parseInt).toArray();
    }

    /** A growable array of longs, so that recording a latency does not box it. */
    private static final class LongArray {
        long[] values = new long[1 << 16];
        int size;
        /** Bytes allocated by growing, which the allocation per turn leaves out. */
        long grownBytes;

        void add(long value) {
            if (size == values.length) {
                values = Arrays.copyOf(values, size * 2);
                grownBytes += 16L + 8L * values.length;
            }
            values[size++] = value;
        }
    }
}
