package dev.pagantic.bench;

import dev.pagantic.core.ToolCall;
import dev.pagantic.tool.ToolExecution;
import dev.pagantic.tool.ToolExecutor;
import dev.pagantic.tool.ToolRegistry;
import java.time.Duration;
import java.util.Map;
import java.util.concurrent.TimeUnit;
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
 * The tool executor's hand-off alone: one call of a tool that returns at once, isolated on the executor's threads
 * ({@code isolated}) or on the caller's ({@code inline}, the same checks and outcome without a thread); their
 * difference is what the two hand-offs of an isolated call cost. {@code threads}: {@code virtual} (a new virtual
 * thread per call where the JVM has them, else the platform threads) or {@code platform}; {@code spinWait}: the
 * executor's {@link ToolExecutor.Builder#spinWait} in nanoseconds (0: park at once).
 */
@State(Scope.Benchmark)
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.MICROSECONDS)
public class ToolHandOffBench {

    private static final ToolCall CALL = ToolCall.of("call-1", "get_weather", Map.of("city", "Paris"));

    @Param({"virtual", "platform"})
    public String threads;

    @Param({"0", "20000"})
    public long spinWait;

    private ToolExecutor executor;
    private ToolRegistry isolated;
    private ToolRegistry inline;

    @Setup(Level.Trial)
    public void setUp() {
        executor = ToolExecutor.builder().virtualThreads("virtual".equals(threads))
                .spinWait(Duration.ofNanos(spinWait)).build();
        isolated = ToolRegistry.of(OrchestrationBench.weatherTool(false));
        inline = ToolRegistry.of(OrchestrationBench.weatherTool(true));
        if (!isolated().succeeded() || !inline().succeeded()) {
            throw new IllegalStateException("the tool failed");
        }
    }

    @TearDown(Level.Trial)
    public void tearDown() {
        executor.close();
    }

    /** One call on the executor's threads: submit, run, hand the outcome back. */
    @Benchmark
    public ToolExecution isolated() {
        return executor.execute(isolated, CALL);
    }

    /** The same call on the caller's thread. */
    @Benchmark
    public ToolExecution inline() {
        return executor.execute(inline, CALL);
    }
}
