package dev.pagantic.orchestrate;

import dev.pagantic.core.PaganticException;
import dev.pagantic.core.TokenUsage;
import dev.pagantic.tool.ToolExecution;
import java.util.List;
import java.util.Objects;
import java.util.Optional;

/**
 * The outcome of a {@link SpecializedLoop#run} call, successful or not: what a caller that reports on failures too
 * (the facade's response, a redundant replica) needs beyond the exception.
 *
 * @param value          the result, when the call succeeded
 * @param failure        the final failure, when it did not
 * @param usage          the token usage of every inference that returned, in every attempt
 * @param toolExecutions every tool call of every attempt, in order
 * @param attempts       how many attempts started
 */
public record SpecializedOutcome(Optional<SpecializedResult> value, Optional<PaganticException> failure,
                                 TokenUsage usage, List<ToolExecution> toolExecutions, int attempts) {

    public SpecializedOutcome {
        Objects.requireNonNull(value, "value");
        Objects.requireNonNull(failure, "failure");
        if (value.isPresent() == failure.isPresent()) {
            throw new IllegalArgumentException("an outcome has a value or a failure, not both and not neither");
        }
        Objects.requireNonNull(usage, "usage");
        toolExecutions = List.copyOf(toolExecutions);
    }

    /** Whether the call succeeded. */
    public boolean succeeded() {
        return value.isPresent();
    }

    /** The result, or the failure thrown. */
    public SpecializedResult orElseThrow() {
        if (failure.isPresent()) {
            throw failure.get();
        }
        return value.orElseThrow();
    }
}
