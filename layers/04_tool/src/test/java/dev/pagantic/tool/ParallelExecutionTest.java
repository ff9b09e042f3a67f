package dev.pagantic.tool;

import static dev.pagantic.tool.TestTools.call;
import static org.assertj.core.api.Assertions.assertThat;

import dev.pagantic.core.ErrorCode;
import dev.pagantic.core.ToolCall;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

@Timeout(30)
class ParallelExecutionTest {

    private final ToolExecutor executor = ToolExecutor.builder().maxParallelism(4)
            .defaultTimeout(Duration.ofSeconds(10)).build();
    private final List<String> log = new CopyOnWriteArrayList<>();
    private final AtomicInteger running = new AtomicInteger();
    private final AtomicInteger mostAtOnce = new AtomicInteger();

    @AfterEach
    void close() {
        executor.close();
    }

    private Tool tool(String name, ToolSafety safety, Tool.Handler body) {
        return Tool.builder(TestTools.noArgs(name)).safety(safety).handler((ctx, args) -> {
            mostAtOnce.accumulateAndGet(running.incrementAndGet(), Math::max);
            log.add("start " + name);
            try {
                return body.execute(ctx, args);
            } finally {
                log.add("end " + name);
                running.decrementAndGet();
            }
        }).build();
    }

    @Test
    void resultsKeepCallOrderEvenWhenLaterCallsFinishFirst() {
        CountDownLatch lastFinished = new CountDownLatch(1);
        CountDownLatch middleFinished = new CountDownLatch(1);
        ToolRegistry registry = ToolRegistry.of(
                tool("first", ToolSafety.READ_ONLY, (ctx, args) ->
                        middleFinished.await(10, TimeUnit.SECONDS) ? "one" : "first did not wait"),
                tool("second", ToolSafety.PURE, (ctx, args) -> {
                    boolean waited = lastFinished.await(10, TimeUnit.SECONDS);
                    middleFinished.countDown();
                    return waited ? "two" : "second did not wait";
                }),
                tool("third", ToolSafety.READ_ONLY, (ctx, args) -> {
                    lastFinished.countDown();
                    return "three";
                }));

        List<ToolExecution> turn = executor.executeAll(registry,
                List.of(call("c1", "first", Map.of()), call("c2", "second", Map.of()), call("c3", "third", Map.of())));

        assertThat(turn).extracting(execution -> execution.result().content()).containsExactly("one", "two", "three");
        // The contents prove the finishing order (third released second, second released first); the "end" log
        // lines are written after each body returns, so their order is not determined and is not asserted.
        assertThat(turn).extracting(execution -> execution.call().id()).containsExactly("c1", "c2", "c3");
    }

    @Test
    void toolsWithSideEffectsRunAloneInCallOrder() {
        ToolRegistry registry = ToolRegistry.of(
                tool("read", ToolSafety.READ_ONLY, (ctx, args) -> pause("r")),
                tool("write", ToolSafety.of(SideEffect.WRITE, true), (ctx, args) -> pause("w")),
                tool("mail", ToolSafety.of(SideEffect.EXTERNAL, false), (ctx, args) -> pause("m")),
                tool("unknown", ToolSafety.UNKNOWN, (ctx, args) -> pause("u")));

        List<ToolExecution> turn = executor.executeAll(registry,
                List.of(call("read"), call("write"), call("read"), call("mail"), call("unknown")));

        assertThat(turn).extracting(execution -> execution.result().content())
                .containsExactly("r", "w", "r", "m", "u");
        assertThat(log).containsExactly("start read", "end read", "start write", "end write", "start read",
                "end read", "start mail", "end mail", "start unknown", "end unknown");
        assertThat(mostAtOnce).hasValue(1);
    }

    @Test
    void aWriteWaitsForTheReadsBeforeItAndTheReadsAfterItWaitForIt() {
        CountDownLatch readsMet = new CountDownLatch(2);
        ToolRegistry registry = ToolRegistry.of(
                tool("read", ToolSafety.READ_ONLY, (ctx, args) -> {
                    readsMet.countDown();
                    return readsMet.await(10, TimeUnit.SECONDS) ? "r" : "alone";
                }),
                tool("write", ToolSafety.of(SideEffect.WRITE, false), (ctx, args) -> "w"),
                tool("after", ToolSafety.READ_ONLY, (ctx, args) -> "a"));

        List<ToolExecution> turn = executor.executeAll(registry,
                List.of(call("read"), call("read"), call("write"), call("after")));

        assertThat(turn).extracting(execution -> execution.result().content()).containsExactly("r", "r", "w", "a");
        int write = log.indexOf("start write");
        assertThat(log.subList(0, write)).containsExactlyInAnyOrder("start read", "start read", "end read",
                "end read");
        assertThat(log.subList(write, log.size())).containsExactly("start write", "end write", "start after",
                "end after");
    }

    @Test
    void withParallelismOneEveryCallRunsAlone() {
        ToolExecutor sequential = ToolExecutor.builder().maxParallelism(1).build();
        ToolRegistry registry = ToolRegistry.of(tool("read", ToolSafety.READ_ONLY, (ctx, args) -> pause("r")));
        try (sequential) {
            List<ToolExecution> turn = sequential.executeAll(registry, List.of(call("read"), call("read"),
                    call("read")));

            assertThat(turn).hasSize(3).allMatch(ToolExecution::succeeded);
        }
        assertThat(mostAtOnce).hasValue(1);
    }

    @Test
    void noMoreThanMaxParallelismCallsRunAtOnce() {
        ToolExecutor two = ToolExecutor.builder().maxParallelism(2).defaultTimeout(Duration.ofSeconds(10)).build();
        ToolRegistry registry = ToolRegistry.of(tool("read", ToolSafety.READ_ONLY, (ctx, args) -> pause("r")));
        List<ToolCall> calls = List.of(call("read"), call("read"), call("read"), call("read"), call("read"));
        try (two) {
            List<ToolExecution> turn = two.executeAll(registry, calls);

            assertThat(turn).extracting(execution -> execution.call()).containsExactlyElementsOf(calls);
        }
        assertThat(mostAtOnce.get()).isBetween(1, 2);
    }

    @Test
    void failuresInATurnAreResultsInTheirPlace() {
        ToolRegistry registry = ToolRegistry.of(
                tool("ok", ToolSafety.READ_ONLY, (ctx, args) -> "fine"),
                tool("boom", ToolSafety.READ_ONLY, (ctx, args) -> {
                    throw new IllegalArgumentException("bad input");
                }));

        List<ToolExecution> turn = executor.executeAll(registry,
                List.of(call("ok"), call("boom"), call("missing"), call("ok")));

        assertThat(turn).extracting(execution -> execution.errorCode().map(ErrorCode::name).orElse("-"))
                .containsExactly("-", "TOOL_EXECUTION_FAILED", "TOOL_NOT_FOUND", "-");
    }

    private static String pause(String output) throws InterruptedException {
        TimeUnit.MILLISECONDS.sleep(20);
        return output;
    }
}
