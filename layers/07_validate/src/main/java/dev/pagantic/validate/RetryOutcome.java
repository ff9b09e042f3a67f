package dev.pagantic.validate;

import dev.pagantic.core.ErrorCode;
import dev.pagantic.core.PaganticException;
import java.util.List;
import java.util.Objects;
import java.util.Optional;

/**
 * The outcome of running work under a {@link RetryPolicy}: the value or the failure that ended it, every attempt
 * made, and why it stopped.
 *
 * @param value      the successful attempt's value; empty on failure
 * @param failure    the failure reported to the caller; empty on success
 * @param attempts   every attempt, in order (empty when the context was already done before the first)
 * @param stopReason why no further attempt was made
 * @param <T>        the work's result type
 */
public record RetryOutcome<T>(Optional<T> value, Optional<PaganticException> failure, List<Attempt> attempts,
                              StopReason stopReason) {

    public RetryOutcome {
        Objects.requireNonNull(value, "value");
        Objects.requireNonNull(failure, "failure");
        attempts = List.copyOf(attempts);
        Objects.requireNonNull(stopReason, "stopReason");
        if ((stopReason == StopReason.SUCCEEDED) != value.isPresent() || value.isPresent() == failure.isPresent()) {
            throw PaganticException.of(ErrorCode.CONFIG_INVALID,
                    "an outcome has a value exactly when it succeeded, and a failure otherwise");
        }
    }

    /** Whether an attempt succeeded. */
    public boolean succeeded() {
        return stopReason == StopReason.SUCCEEDED;
    }

    /** How many attempts were made. */
    public int attemptCount() {
        return attempts.size();
    }

    /**
     * The value on success, or throws the failure.
     *
     * @throws PaganticException the failure that ended the run
     */
    public T orElseThrow() {
        if (failure.isPresent()) {
            throw failure.get();
        }
        return value.orElseThrow();
    }
}
