package dev.pagantic.tool;

import static dev.pagantic.tool.TestTools.call;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.pagantic.core.CallContext;
import dev.pagantic.core.Cancellation;
import dev.pagantic.core.ErrorCode;
import dev.pagantic.core.PaganticException;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/** Tools that run on the caller's thread ({@link Tool#inline()}) keep the executor's outcomes and ordering. */
@Timeout(30)
class InlineToolTest {

    private final RecordingObserver observer = new RecordingObserver();
    private final ToolExecutor executor = ToolExecutor.builder().defaultTimeout(Duration.ofSeconds(10))
            .observer(observer).build();

    @AfterEach
    void close() {
        executor.close();
    }

    private static Tool inline(String name, Tool.Handler body) {
        return Tool.builder(TestTools.noArgs(name)).inline(true).handler(body).build();
    }

    @Test
    void anInlineToolRunsOnTheCallersThreadAndAPooledOneDoesNot() {
        AtomicReference<Thread> inlineThread = new AtomicReference<>();
        AtomicReference<Thread> pooledThread = new AtomicReference<>();
        ToolRegistry registry = ToolRegistry.of(
                inline("fast", (ctx, args) -> {
                    inlineThread.set(Thread.currentThread());
                    return "ok";
                }),
                Tool.builder(TestTools.noArgs("isolated")).handler((ctx, args) -> {
                    pooledThread.set(Thread.currentThread());
                    return "ok";
                }).build());

        List<ToolExecution> done = executor.executeAll(registry, List.of(call("a", "fast", Map.of()),
                call("b", "isolated", Map.of())));

        assertThat(done).allSatisfy(execution -> assertThat(execution.succeeded()).isTrue());
        assertThat(inlineThread.get()).isSameAs(Thread.currentThread());
        assertThat(pooledThread.get()).isNotSameAs(Thread.currentThread());
    }

    @Test
    void anInlineToolThatThrowsIsAFailedExecutionWithStartAndEndEvents() {
        Tool broken = inline("broken", (ctx, args) -> {
            throw new IllegalStateException("disk full");
        });

        ToolExecution execution = executor.execute(ToolRegistry.of(broken), call("c1", "broken", Map.of()));

        assertThat(execution.errorCode()).contains(ErrorCode.TOOL_EXECUTION_FAILED);
        assertThat(execution.result().content()).contains("IllegalStateException: disk full");
        assertThat(observer.starts).hasSize(1);
        assertThat(observer.ends).singleElement().satisfies(end -> {
            assertThat(end.success()).isFalse();
            assertThat(end.errorCode()).isEqualTo("TOOL_EXECUTION_FAILED");
        });
    }

    @Test
    void anInlineToolSeesItsTimeoutAsTheDeadlineOfItsContext() {
        AtomicReference<CallContext> seen = new AtomicReference<>();
        Tool tool = Tool.builder(TestTools.noArgs("deadline")).inline(true).timeout(Duration.ofSeconds(3))
                .handler((ctx, args) -> {
                    seen.set(ctx);
                    return "ok";
                }).build();

        executor.execute(ToolRegistry.of(tool), call("c1", "deadline", Map.of()));

        assertThat(seen.get().remaining()).hasValueSatisfying(left ->
                assertThat(left).isPositive().isLessThanOrEqualTo(Duration.ofSeconds(3)));
    }

    @Test
    void anInlineToolWithSideEffectsWaitsForTheParallelCallsBeforeIt() {
        List<String> order = new CopyOnWriteArrayList<>();
        Tool slowRead = TestTools.readOnly("read", (ctx, args) -> {
            Thread.sleep(200);
            order.add("read");
            return "read";
        });
        Tool write = inline("write", (ctx, args) -> {
            order.add("write");
            return "written";
        });
        ToolRegistry registry = ToolRegistry.of(slowRead, write);

        executor.executeAll(registry, List.of(call("a", "read", Map.of()), call("b", "read", Map.of()),
                call("c", "write", Map.of())));

        assertThat(order).containsExactly("read", "read", "write");
    }

    @Test
    void theCallersCancellationStopsTheTurnWhenAnInlineToolNoticesIt() {
        Cancellation cancellation = new Cancellation();
        Tool tool = inline("cooperative", (ctx, args) -> {
            cancellation.cancel("user pressed stop");
            ctx.throwIfDone();
            return "never";
        });
        CallContext ctx = CallContext.background().withCancellation(cancellation);

        assertThatThrownBy(() -> executor.execute(ctx, ToolRegistry.of(tool), call("c1", "cooperative", Map.of())))
                .isInstanceOfSatisfying(PaganticException.class,
                        e -> assertThat(e.code()).isEqualTo(ErrorCode.CANCELLED_SIGNAL));
        assertThat(observer.ends).singleElement().satisfies(end -> assertThat(end.success()).isFalse());
    }

    @Test
    void anAnnotatedMethodCanAskToRunInline() {
        ToolRegistry registry = ToolRegistry.builder().addAnnotated(new Object() {
            @dev.pagantic.tool.annotation.Tool(value = "Adds", inline = true)
            public int add(int a, int b) {
                return a + b;
            }
        }).build();

        assertThat(registry.lookup("add")).hasValueSatisfying(tool -> assertThat(tool.inline()).isTrue());
    }
}
