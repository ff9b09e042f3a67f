package dev.pagantic.validate;

import dev.pagantic.core.CallContext;
import java.time.Duration;

/**
 * How a {@link RetryPolicy} waits between attempts. The default, {@link #contextual()}, is
 * {@link CallContext#sleep(Duration)}: it returns early with {@code CANCELLED_SIGNAL} or {@code CANCELLED_TIMEOUT} when
 * the context is cancelled or its deadline passes. Tests inject one that advances a fake clock instead of sleeping.
 */
@FunctionalInterface
public interface Sleeper {

    /**
     * Waits for the duration under the context.
     *
     * @throws dev.pagantic.core.PaganticException {@code CANCELLED_SIGNAL} / {@code CANCELLED_TIMEOUT} when the wait
     *                                             is cut short by cancellation or the deadline
     */
    void sleep(CallContext context, Duration duration);

    /** Waits through {@link CallContext#sleep(Duration)}. */
    static Sleeper contextual() {
        return CallContext::sleep;
    }
}
