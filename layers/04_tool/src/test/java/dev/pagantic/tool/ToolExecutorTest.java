package dev.pagantic.tool;

import static dev.pagantic.tool.Failures.assertConfigInvalid;
import static dev.pagantic.tool.TestTools.call;
import static dev.pagantic.tool.TestTools.returning;
import static org.assertj.core.api.Assertions.assertThat;

import dev.pagantic.core.CallContext;
import dev.pagantic.core.ErrorCode;
import dev.pagantic.core.PaganticException;
import dev.pagantic.core.Schema;
import dev.pagantic.core.ToolDefinition;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

@Timeout(30)
class ToolExecutorTest {

    private final ToolExecutor executor = ToolExecutor.builder().defaultTimeout(Duration.ofSeconds(10)).build();

    @AfterEach
    void close() {
        executor.close();
    }

    private static Tool failing(String name, Exception thrown, ToolSafety safety) {
        return Tool.builder(TestTools.noArgs(name)).safety(safety).handler((ctx, args) -> {
            throw thrown;
        }).build();
    }

    @Test
    void aSuccessfulCallReturnsTheToolsOutput() {
        ToolExecution execution = executor.execute(ToolRegistry.of(returning("calc", "42")),
                call("c1", "calc", Map.of()));

        assertThat(execution.result().content()).isEqualTo("42");
        assertThat(execution.result().isError()).isFalse();
        assertThat(execution.result().callId()).isEqualTo("c1");
        assertThat(execution.succeeded()).isTrue();
        assertThat(execution.errorCode()).isEmpty();
        assertThat(execution.retryable()).isFalse();
    }

    @Test
    void anUnknownToolIsNotFoundAndTheModelIsToldWhichToolsExist() {
        ToolRegistry registry = ToolRegistry.of(returning("search", ""), returning("calc", ""));

        ToolExecution execution = executor.execute(registry, call("c1", "weather", Map.of()));

        assertThat(execution.errorCode()).contains(ErrorCode.TOOL_NOT_FOUND);
        assertThat(execution.result().isError()).isTrue();
        assertThat(execution.result().content()).startsWith("TOOL_NOT_FOUND: no tool named 'weather'")
                .endsWith("available tools: search, calc");
        assertThat(execution.retryable()).isFalse();
    }

    @Test
    void aToolOutsideTheWhitelistIsNotFound() {
        AtomicInteger runs = new AtomicInteger();
        Tool mail = Tool.builder(TestTools.noArgs("mail")).handler((ctx, args) -> "sent " + runs.incrementAndGet())
                .build();
        ToolRegistry view = ToolRegistry.of(returning("search", ""), mail).allowOnly("search");

        ToolExecution execution = executor.execute(view, call("c1", "mail", Map.of()));

        assertThat(execution.errorCode()).contains(ErrorCode.TOOL_NOT_FOUND);
        assertThat(execution.result().content()).contains("'mail' is not allowed for this request")
                .endsWith("available tools: search");
        assertThat(runs).hasValue(0);
    }

    @Test
    void aToolThatBecameUnavailableIsNotRunAndReportsWhy() {
        AtomicReference<Availability> availability = new AtomicReference<>(Availability.AVAILABLE);
        AtomicInteger runs = new AtomicInteger();
        Tool search = Tool.builder(TestTools.noArgs("search")).availability(availability::get)
                .handler((ctx, args) -> "hit " + runs.incrementAndGet()).build();
        ToolRegistry registry = ToolRegistry.of(search);
        assertThat(executor.execute(registry, call("search")).succeeded()).isTrue();

        availability.set(Availability.unavailable("index is rebuilding"));
        ToolExecution execution = executor.execute(registry, call("search"));

        assertThat(execution.errorCode()).contains(ErrorCode.TOOL_UNAVAILABLE);
        assertThat(execution.result().content()).contains("index is rebuilding");
        assertThat(execution.retryable()).isTrue();
        assertThat(runs).hasValue(1);
    }

    @Test
    void anExceptionBecomesAnExecutionFailedResultWithItsMessage() {
        ToolRegistry registry = ToolRegistry.of(failing("db", new IllegalStateException("connection reset"),
                ToolSafety.UNKNOWN));

        ToolExecution execution = executor.execute(registry, call("db"));

        assertThat(execution.errorCode()).contains(ErrorCode.TOOL_EXECUTION_FAILED);
        assertThat(execution.result().isError()).isTrue();
        assertThat(execution.result().content())
                .isEqualTo("TOOL_EXECUTION_FAILED: tool 'db' failed: IllegalStateException: connection reset");
        assertThat(execution.retryable()).isFalse();
    }

    @Test
    void aFailedIdempotentToolIsRetryable() {
        ToolRegistry registry = ToolRegistry.of(failing("lookup", new java.io.IOException("timeout reading"),
                ToolSafety.READ_ONLY));

        ToolExecution execution = executor.execute(registry, call("lookup"));

        assertThat(execution.errorCode()).contains(ErrorCode.TOOL_EXECUTION_FAILED);
        assertThat(execution.retryable()).isTrue();
    }

    @Test
    void aToolCodeThrownByTheToolIsKept() {
        PaganticException down = PaganticException.of(ErrorCode.TOOL_UNAVAILABLE, "upstream went away");
        ToolRegistry registry = ToolRegistry.of(failing("api", down, ToolSafety.UNKNOWN));

        ToolExecution execution = executor.execute(registry, call("api"));

        assertThat(execution.errorCode()).contains(ErrorCode.TOOL_UNAVAILABLE);
        assertThat(execution.result().content()).isEqualTo("TOOL_UNAVAILABLE: upstream went away");
        assertThat(execution.retryable()).isTrue();
    }

    @Test
    void anotherCodeThrownByTheToolIsAnExecutionFailure() {
        PaganticException inner = PaganticException.of(ErrorCode.INFERENCE_ENGINE_ERROR, "nested model failed");
        ToolRegistry registry = ToolRegistry.of(failing("agent", inner, ToolSafety.UNKNOWN));

        ToolExecution execution = executor.execute(registry, call("agent"));

        assertThat(execution.errorCode()).contains(ErrorCode.TOOL_EXECUTION_FAILED);
        assertThat(execution.result().content()).contains("INFERENCE_ENGINE_ERROR: nested model failed");
    }

    @Test
    void argumentsAreCheckedAgainstEveryKeywordOfASchemaReadFromJson() {
        AtomicInteger runs = new AtomicInteger();
        Schema parameters = Schema.fromJsonSchema(Map.of("type", "object",
                "properties", Map.of("count", Map.of("type", "integer", "minimum", 1, "maximum", 10),
                        "unit", Map.of("anyOf", List.of(Map.of("enum", List.of("m", "km")), Map.of("type", "null")))),
                "required", List.of("count")));
        ToolRegistry registry = ToolRegistry.of(Tool.builder(ToolDefinition.of("walk", "", parameters))
                .handler((ctx, args) -> "ok " + runs.incrementAndGet()).build());

        ToolExecution tooMany = executor.execute(registry, call("c1", "walk", Map.of("count", 11)));
        ToolExecution badUnit = executor.execute(registry, call("c2", "walk", Map.of("count", 2, "unit", "mile")));
        java.util.Map<String, Object> nullUnit = new java.util.HashMap<>(Map.of("count", 3));
        nullUnit.put("unit", null);
        ToolExecution fine = executor.execute(registry, call("c3", "walk", nullUnit));

        assertThat(tooMany.errorCode()).contains(ErrorCode.TOOL_INVALID_ARGUMENTS);
        assertThat(tooMany.result().content()).contains("count").contains("10");
        assertThat(badUnit.errorCode()).contains(ErrorCode.TOOL_INVALID_ARGUMENTS);
        assertThat(fine.succeeded()).isTrue();
        assertThat(runs).hasValue(1);
    }

    @Test
    void argumentsThatDoNotMatchTheSchemaNeverReachTheTool() {
        AtomicInteger runs = new AtomicInteger();
        Tool weather = Tool.builder(ToolDefinition.of("weather", "",
                        Schema.object().required("city", Schema.string()).optional("days", Schema.integer()).build()))
                .handler((ctx, args) -> "sunny " + runs.incrementAndGet()).build();
        ToolRegistry registry = ToolRegistry.of(weather);

        ToolExecution missing = executor.execute(registry, call("c1", "weather", Map.of("days", 2)));
        ToolExecution mistyped = executor.execute(registry, call("c2", "weather", Map.of("city", "Oslo",
                "days", 2.5)));
        ToolExecution fine = executor.execute(registry, call("c3", "weather", Map.of("city", "Oslo", "days", 2.0)));

        assertThat(missing.errorCode()).contains(ErrorCode.TOOL_INVALID_ARGUMENTS);
        assertThat(missing.result().content()).contains("missing required argument 'city'");
        assertThat(mistyped.errorCode()).contains(ErrorCode.TOOL_INVALID_ARGUMENTS);
        assertThat(mistyped.result().content()).contains("'days' must be an integer, got number 2.5");
        assertThat(mistyped.retryable()).isTrue();
        assertThat(fine.succeeded()).isTrue();
        assertThat(runs).hasValue(1);
    }

    @Test
    void annotatedToolsRunThroughTheExecutorWithTheirFailuresAsResults() {
        class Calculator {
            @dev.pagantic.tool.annotation.Tool(value = "Divides", readOnly = true, idempotent = true)
            int divide(int a, int b) {
                return a / b;
            }
        }
        ToolRegistry registry = ToolRegistry.builder().addAnnotated(new Calculator()).build();

        ToolExecution ok = executor.execute(registry, call("c1", "divide", Map.of("a", 7, "b", 2)));
        ToolExecution byZero = executor.execute(registry, call("c2", "divide", Map.of("a", 7, "b", 0)));
        ToolExecution wrong = executor.execute(registry, call("c3", "divide", Map.of("a", "seven", "b", 1)));

        assertThat(ok.result().content()).isEqualTo("3");
        assertThat(byZero.errorCode()).contains(ErrorCode.TOOL_EXECUTION_FAILED);
        assertThat(byZero.result().content()).contains("ArithmeticException: / by zero");
        assertThat(wrong.errorCode()).contains(ErrorCode.TOOL_INVALID_ARGUMENTS);
    }

    @Test
    void theToolRunsInAChildSpanCausedByTheToolCall() {
        AtomicReference<CallContext> seen = new AtomicReference<>();
        Tool probe = Tool.builder(TestTools.noArgs("probe")).handler((ctx, args) -> {
            seen.set(ctx);
            return "";
        }).build();
        CallContext ctx = CallContext.builder().requestId("req-1").sessionId("chat-1").build();

        executor.execute(ctx, ToolRegistry.of(probe), call("call-7", "probe", Map.of()));

        assertThat(seen.get().requestId()).isEqualTo("req-1");
        assertThat(seen.get().sessionId()).isEqualTo("chat-1");
        assertThat(seen.get().traceId()).isEqualTo(ctx.traceId());
        assertThat(seen.get().correlation().parentSpanId()).isEqualTo(ctx.spanId());
        assertThat(seen.get().spanId()).isNotEqualTo(ctx.spanId());
        assertThat(seen.get().correlation().causedBy()).isEqualTo("call-7");
        assertThat(seen.get().deadline()).isPresent();
    }

    @Test
    void theToolsOwnTimeoutBecomesItsDeadline() {
        AtomicReference<Optional<Duration>> remaining = new AtomicReference<>();
        Tool probe = Tool.builder(TestTools.noArgs("probe")).timeout(Duration.ofMinutes(5)).handler((ctx, args) -> {
            remaining.set(ctx.remaining());
            return "";
        }).build();

        executor.execute(ToolRegistry.of(probe), call("probe"));

        assertThat(remaining.get()).hasValueSatisfying(left -> assertThat(left)
                .isGreaterThan(Duration.ofMinutes(4)).isLessThanOrEqualTo(Duration.ofMinutes(5)));
    }

    @Test
    void aClosedExecutorReportsToolsUnavailable() {
        executor.close();

        ToolExecution execution = executor.execute(ToolRegistry.of(returning("calc", "42")), call("calc"));

        assertThat(execution.errorCode()).contains(ErrorCode.TOOL_UNAVAILABLE);
        assertThat(execution.result().content()).contains("closed");
        assertThat(executor.isClosed()).isTrue();
    }

    @Test
    void anEmptyTurnHasNoResults() {
        assertThat(executor.executeAll(ToolRegistry.empty(), List.of())).isEmpty();
    }

    @Test
    void invalidSettingsAreRefusedAtBuild() {
        assertConfigInvalid(() -> ToolExecutor.builder().maxParallelism(0).build());
        assertConfigInvalid(() -> ToolExecutor.builder().maxAbandoned(0).build());
        assertConfigInvalid(() -> ToolExecutor.builder().defaultTimeout(Duration.ZERO).build());
        assertConfigInvalid(() -> ToolExecutor.builder().interruptGrace(Duration.ofMillis(-1)).build());
        assertConfigInvalid(() -> ToolExecutor.builder().observer(null).build());
    }
}
