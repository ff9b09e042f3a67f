package dev.pagantic.orchestrate;

import dev.pagantic.core.PaganticException;
import dev.pagantic.core.TokenUsage;
import dev.pagantic.tool.ToolExecution;
import java.util.List;
import java.util.Objects;
import java.util.Optional;

/**
 * The outcome of a {@link RedundantLoop#run} call, successful or not.
 *
 * @param value          the voted result, when the call succeeded
 * @param failure        the final failure, when it did not
 * @param usage          the token usage of every inference that returned, in every replica
 * @param toolExecutions every tool call of every replica, replica by replica
 */
public record RedundantOutcome(Optional<RedundantResult> value, Optional<PaganticException> failure,
                               TokenUsage usage, List<ToolExecution> toolExecutions) {

    public RedundantOutcome {
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
    public RedundantResult orElseThrow() {
        if (failure.isPresent()) {
            throw failure.get();
        }
        return value.orElseThrow();
    }
}
