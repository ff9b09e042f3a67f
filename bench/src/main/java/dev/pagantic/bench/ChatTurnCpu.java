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
 * own thread, the wake-up latency of each hand-off, which this harness does not see (JMH does).
 *
 * <p>Arguments: blocks (default 15) and turns per block (default 20,000). Run it with {@code mvn -pl bench -Pbench
 * exec:exec -Dbench.main=dev.pagantic.bench.ChatTurnCpu}.
 */
public final class ChatTurnCpu {

    private ChatTurnCpu() {
    }

    /** Warms up every subject, then prints the median CPU time per turn and its ratio to LangChain4j's. */
    public static void main(String[] args) {
        int blocks = args.length > 0 ? Integer.parseInt(args[0]) : 15;
        int turns = args.length > 1 ? Integer.parseInt(args[1]) : 20_000;
        OrchestrationBench pagantic = new OrchestrationBench();
        pagantic.eventLog = "noop";
        pagantic.setUp();
        LangChain4jBench langChain4j = new LangChain4jBench();
        langChain4j.setUp();
        Map<String, Supplier<Object>> subjects = new LinkedHashMap<>();
        subjects.put("LangChain4j 1.19.0 AiService", langChain4j::chatThreeToolRounds);
        subjects.put("pagantic, tool isolated (default)", pagantic::chatThreeToolRounds);
        subjects.put("pagantic, tool inline", pagantic::chatThreeToolRoundsInlineTool);
        Map<String, List<Double>> perTurn = new LinkedHashMap<>();
        subjects.keySet().forEach(name -> perTurn.put(name, new ArrayList<>()));
        for (int warmup = 0; warmup < 3; warmup++) {
            subjects.values().forEach(subject -> cpuNanosPerTurn(subject, turns));
        }
        for (int block = 0; block < blocks; block++) {
            subjects.forEach((name, subject) -> perTurn.get(name).add(cpuNanosPerTurn(subject, turns) / 1_000.0));
        }
        pagantic.tearDown();
        double baseline = median(perTurn.get("LangChain4j 1.19.0 AiService"));
        System.out.printf(Locale.ROOT, "%s, %d blocks of %d turns; CPU time per turn (µs): median [min-max], ratio%n",
                System.getProperty("java.vm.version"), blocks, turns);
        perTurn.forEach((name, values) -> {
            double[] sorted = values.stream().mapToDouble(Double::doubleValue).sorted().toArray();
            System.out.printf(Locale.ROOT, "%-36s %8.2f [%.2f-%.2f]  %.2fx%n", name, median(values), sorted[0],
                    sorted[sorted.length - 1], median(values) / baseline);
        });
    }

    private static double cpuNanosPerTurn(Supplier<Object> subject, int turns) {
        com.sun.management.OperatingSystemMXBean os =
                (com.sun.management.OperatingSystemMXBean) ManagementFactory.getOperatingSystemMXBean();
        Object sink = null;
        long before = os.getProcessCpuTime();
        for (int i = 0; i < turns; i++) {
            sink = subject.get();
        }
        long used = os.getProcessCpuTime() - before;
        if (sink == null) {
            throw new IllegalStateException("a subject returned nothing");
        }
        return (double) used / turns;
    }

    private static double median(List<Double> values) {
        double[] sorted = values.stream().mapToDouble(Double::doubleValue).sorted().toArray();
        int middle = sorted.length / 2;
        return sorted.length % 2 == 1 ? sorted[middle] : (sorted[middle - 1] + sorted[middle]) / 2;
    }
}
