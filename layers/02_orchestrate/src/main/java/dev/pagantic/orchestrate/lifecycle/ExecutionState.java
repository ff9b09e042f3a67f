package dev.pagantic.orchestrate.lifecycle;

import dev.pagantic.core.PaganticException;
import java.time.Instant;
import java.util.Objects;
import java.util.Optional;

/**
 * Where a request stands in its lifecycle (seed 001's ExecutionState). Immutable: every transition yields a new value.
 *
 * @param current    the current state
 * @param enteredAt  when the current state was entered
 * @param attempt    the attempt number, starting at 1 and incremented on every VALIDATE → EXECUTE retry
 * @param totalSteps the plan steps completed
 * @param lastError  the most recent failure, possibly recovered from
 * @param lastStep   the name of the last completed plan step; empty when none
 */
public record ExecutionState(LifecycleState current, Instant enteredAt, int attempt, int totalSteps,
                             Optional<PaganticException> lastError, String lastStep) {

    public ExecutionState {
        Objects.requireNonNull(current, "current");
        Objects.requireNonNull(enteredAt, "enteredAt");
        Objects.requireNonNull(lastError, "lastError");
        Objects.requireNonNull(lastStep, "lastStep");
    }

    static ExecutionState initial(Instant now) {
        return new ExecutionState(LifecycleState.INIT, now, 1, 0, Optional.empty(), "");
    }

    ExecutionState enter(LifecycleState next, Instant now) {
        return new ExecutionState(next, now, attempt, totalSteps, lastError, lastStep);
    }

    ExecutionState nextAttempt() {
        return new ExecutionState(current, enteredAt, attempt + 1, totalSteps, lastError, lastStep);
    }

    ExecutionState withError(PaganticException error) {
        return new ExecutionState(current, enteredAt, attempt, totalSteps, Optional.of(error), lastStep);
    }

    ExecutionState withCompletedStep(String step) {
        return new ExecutionState(current, enteredAt, attempt, totalSteps + 1, lastError, step);
    }
}
