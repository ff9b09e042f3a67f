package dev.pagantic.bench;

import java.lang.management.ManagementFactory;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.function.Supplier;

/**
 * The chat turn of {@link OrchestrationBench} and {@link LangChain4jBench} (three tool rounds, the same tool) measured
 * in CPU time rather than wall time, for a machine too loaded for JMH's wall clock: the process's CPU time (all
 * threads: the caller, the tool threads, the JIT and the collector) per turn, with the subjects run in turn, block
 * after block, so that all of them see the same load. A thread that waits for a core costs no CPU time, so the
 * figure is the work a turn takes; on a quiet machine the wall time of a turn is about this plus, for a tool on its
 * own thread, the wake-up latency of each hand-off. The wall time of each block is printed too (median and the
 * fastest block, the one least disturbed by other processes). The isolated turn runs with each of
 * {@link OrchestrationBench#handOff}'s variants (those of platform threads only on Java 21+, where they differ from
 * the default): spinning trades CPU time for the wake-ups, and both columns show how much.
 *
 * <p>Arguments: blocks (default 15) and turns per block (default 20,000). Run it with {@code mvn -pl bench -Pbench
 * exec:exec -Dbench.main=dev.pagantic.bench.ChatTurnCpu}.
 */
public final class ChatTurnCpu {

    private static final String BASELINE = "LangChain4j 1.19.0 AiService";

    private ChatTurnCpu() {
    }

    /** Warms up every subject, then prints the CPU and wall time per turn and their ratios to LangChain4j's. */
    public static void main(String[] args) {
        int blocks = args.length > 0 ? Integer.parseInt(args[0]) : 15;
        int turns = args.length > 1 ? Integer.parseInt(args[1]) : 20_000;
        List<OrchestrationBench> benches = new ArrayList<>();
        LangChain4jBench langChain4j = new LangChain4jBench();
        langChain4j.setUp();
        Map<String, Supplier<Object>> subjects = new LinkedHashMap<>();
        subjects.put(BASELINE, langChain4j::chatThreeToolRounds);
        List<String> handOffs = Runtime.version().feature() >= 21
                ? List.of("default", "park", "platform", "platform-park") : List.of("default", "park");
        for (String handOff : handOffs) {
            OrchestrationBench pagantic = new OrchestrationBench();
            pagantic.eventLog = "noop";
            pagantic.handOff = handOff;
            pagantic.setUp();
            benches.add(pagantic);
            subjects.put("pagantic, tool isolated, " + handOff, pagantic::chatThreeToolRounds);
        }
        subjects.put("pagantic, tool inline", benches.get(0)::chatThreeToolRoundsInlineTool);
        Map<String, List<double[]>> perTurn = new LinkedHashMap<>();
        subjects.keySet().forEach(name -> perTurn.put(name, new ArrayList<>()));
        for (int warmup = 0; warmup < 3; warmup++) {
            subjects.values().forEach(subject -> nanosPerTurn(subject, turns));
        }
        for (int block = 0; block < blocks; block++) {
            subjects.forEach((name, subject) -> perTurn.get(name).add(nanosPerTurn(subject, turns)));
        }
        benches.forEach(OrchestrationBench::tearDown);
        double cpuBaseline = median(perTurn.get(BASELINE), 0);
        double wallBaseline = median(perTurn.get(BASELINE), 1);
        System.out.printf(Locale.ROOT, "%s, %d blocks of %d turns; per turn (µs): CPU time median [min-max] and ratio;"
                + " wall time median [fastest block] and ratio of medians%n", System.getProperty("java.vm.version"),
                blocks, turns);
        perTurn.forEach((name, values) -> System.out.printf(Locale.ROOT,
                "%-40s CPU %8.2f [%.2f-%.2f] %5.2fx   wall %8.2f [%.2f] %5.2fx%n", name, median(values, 0),
                min(values, 0), max(values, 0), median(values, 0) / cpuBaseline, median(values, 1), min(values, 1),
                median(values, 1) / wallBaseline));
    }

    /** The process's CPU time and the wall time per turn, in µs. */
    private static double[] nanosPerTurn(Supplier<Object> subject, int turns) {
        com.sun.management.OperatingSystemMXBean os =
                (com.sun.management.OperatingSystemMXBean) ManagementFactory.getOperatingSystemMXBean();
        Object sink = null;
        long before = os.getProcessCpuTime();
        long start = System.nanoTime();
        for (int i = 0; i < turns; i++) {
            sink = subject.get();
        }
        long wall = System.nanoTime() - start;
        long used = os.getProcessCpuTime() - before;
        if (sink == null) {
            throw new IllegalStateException("a subject returned nothing");
        }
        return new double[] {used / 1_000.0 / turns, wall / 1_000.0 / turns};
    }

    private static double min(List<double[]> values, int column) {
        return values.stream().mapToDouble(v -> v[column]).min().orElseThrow();
    }

    private static double max(List<double[]> values, int column) {
        return values.stream().mapToDouble(v -> v[column]).max().orElseThrow();
    }

    private static double median(List<double[]> values, int column) {
        return median(values.stream().map(v -> v[column]).toList());
    }

    private static double median(List<Double> values) {
        double[] sorted = values.stream().mapToDouble(Double::doubleValue).sorted().toArray();
        int middle = sorted.length / 2;
        return sorted.length % 2 == 1 ? sorted[middle] : (sorted[middle - 1] + sorted[middle]) / 2;
    }
}
