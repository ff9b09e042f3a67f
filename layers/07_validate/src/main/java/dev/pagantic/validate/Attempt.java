package dev.pagantic.validate;

import dev.pagantic.core.ErrorCode;
import dev.pagantic.core.PaganticException;
import java.time.Duration;
import java.time.Instant;
import java.util.Objects;
import java.util.Optional;

/**
 * One attempt made under a {@link RetryPolicy}, as the lifecycle's {@code ExecutionState.Attempt} counts them.
 *
 * @param number    1 for the first attempt, incremented on each retry
 * @param startedAt when the attempt started, by the context's clock
 * @param elapsed   how long the attempt ran, by the context's clock
 * @param failure   the attempt's failure; empty when it succeeded
 * @param backoff   the wait after this attempt, before the next one; zero when no retry followed
 */
public record Attempt(int number, Instant startedAt, Duration elapsed, Optional<PaganticException> failure,
                      Duration backoff) {

    public Attempt {
        if (number < 1) {
            throw PaganticException.of(ErrorCode.CONFIG_INVALID, "attempt numbers start at 1: " + number);
        }
        Objects.requireNonNull(startedAt, "startedAt");
        Objects.requireNonNull(elapsed, "elapsed");
        Objects.requireNonNull(failure, "failure");
        Objects.requireNonNull(backoff, "backoff");
    }

    /** Whether this attempt succeeded. */
    public boolean succeeded() {
        return failure.isEmpty();
    }

    /** The failure's code, when it failed. */
    public Optional<ErrorCode> code() {
        return failure.map(PaganticException::code);
    }
}
