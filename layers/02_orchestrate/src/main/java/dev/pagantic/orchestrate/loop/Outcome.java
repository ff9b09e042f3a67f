package dev.pagantic.orchestrate.loop;

import dev.pagantic.core.PaganticException;
import dev.pagantic.core.TokenUsage;
import dev.pagantic.tool.ToolExecution;
import java.util.List;
import java.util.Objects;
import java.util.Optional;

/**
 * What a call of a pattern produced, successful or not: the one outcome type of the loops' reporting forms
 * ({@code SpecializedLoop.run}, {@code RedundantLoop.run}). A failed call still reports what it cost and what ran: the
 * usage of every inference that returned and every tool execution, so the facade can build a failed response that
 * loses nothing.
 *
 * @param value          the result, when the call succeeded
 * @param failure        the final failure, when it did not
 * @param usage          the token usage of every inference that returned, in every attempt or replica
 * @param toolExecutions every tool call, in the order they were made
 * @param <T>            the result type
 */
public record Outcome<T>(Optional<T> value, Optional<PaganticException> failure, TokenUsage usage,
                         List<ToolExecution> toolExecutions) {

    public Outcome {
        Objects.requireNonNull(value, "value");
        Objects.requireNonNull(failure, "failure");
        if (value.isPresent() == failure.isPresent()) {
            throw new IllegalArgumentException("an outcome has a value or a failure, not both and not neither");
        }
        Objects.requireNonNull(usage, "usage");
        toolExecutions = List.copyOf(toolExecutions);
    }

    /** The outcome of a call that succeeded. */
    public static <T> Outcome<T> succeeded(T value, TokenUsage usage, List<ToolExecution> toolExecutions) {
        return new Outcome<>(Optional.of(value), Optional.empty(), usage, toolExecutions);
    }

    /** The outcome of a call that failed. */
    public static <T> Outcome<T> failed(PaganticException failure, TokenUsage usage,
                                        List<ToolExecution> toolExecutions) {
        return new Outcome<>(Optional.empty(), Optional.of(failure), usage, toolExecutions);
    }

    /** Whether the call succeeded. */
    public boolean succeeded() {
        return value.isPresent();
    }

    /** The result, or the failure thrown. */
    public T orElseThrow() {
        if (failure.isPresent()) {
            throw failure.get();
        }
        return value.orElseThrow();
    }
}
