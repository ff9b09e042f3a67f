package dev.pagantic.tool;

import dev.pagantic.core.Schema;
import dev.pagantic.core.ToolCall;
import dev.pagantic.core.ToolDefinition;
import java.util.Map;
import java.util.concurrent.CountDownLatch;
import java.util.UUID;

/** Small tools for the tests. */
final class TestTools {

    private TestTools() {
    }

    static ToolDefinition noArgs(String name) {
        return ToolDefinition.of(name, "test tool " + name, Schema.object().build());
    }

    /** A tool without parameters that returns the given text. */
    static Tool returning(String name, String output) {
        return Tool.builder(noArgs(name)).handler((ctx, args) -> output).build();
    }

    /** A parallel-safe tool without parameters that runs the body. */
    static Tool readOnly(String name, Tool.Handler body) {
        return Tool.builder(noArgs(name)).safety(ToolSafety.READ_ONLY).handler(body).build();
    }

    /** A tool that waits for the latch and ignores every interrupt and its context. */
    static Tool stubborn(String name, CountDownLatch release) {
        return Tool.builder(noArgs(name)).handler((ctx, args) -> {
            awaitUninterruptibly(release);
            return "finally done";
        }).build();
    }

    static void awaitUninterruptibly(CountDownLatch latch) {
        boolean interrupted = false;
        while (true) {
            try {
                latch.await();
                break;
            } catch (InterruptedException e) {
                interrupted = true;
            }
        }
        if (interrupted) {
            Thread.currentThread().interrupt();
        }
    }

    static ToolCall call(String name) {
        return ToolCall.of("call_" + UUID.randomUUID(), name, Map.of());
    }

    static ToolCall call(String id, String name, Map<String, ?> arguments) {
        return ToolCall.of(id, name, arguments);
    }
}
