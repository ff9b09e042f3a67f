package dev.pagantic.validate;

import dev.pagantic.core.ErrorCode;
import dev.pagantic.core.PaganticException;
import java.time.Duration;
import java.util.Objects;
import java.util.Optional;

/**
 * What a {@link RetryPolicy} decides after a failed attempt: retry after a delay (VALIDATE back to EXECUTE), or stop
 * (on to ERROR) for a reason.
 *
 * @param retry whether to make another attempt
 * @param delay how long to wait first; zero when stopping
 * @param stop  why to stop; empty when retrying
 */
public record RetryDecision(boolean retry, Duration delay, Optional<StopReason> stop) {

    public RetryDecision {
        Objects.requireNonNull(delay, "delay");
        Objects.requireNonNull(stop, "stop");
        if (retry == stop.isPresent() || delay.isNegative() || !retry && !delay.isZero()) {
            throw PaganticException.of(ErrorCode.CONFIG_INVALID,
                    "a retry decision either retries after a delay or stops for a reason");
        }
    }

    /** Retry after the delay. */
    public static RetryDecision retryAfter(Duration delay) {
        return new RetryDecision(true, delay, Optional.empty());
    }

    /** Stop, for the reason. */
    public static RetryDecision stop(StopReason reason) {
        return new RetryDecision(false, Duration.ZERO, Optional.of(reason));
    }
}
