package dev.pagantic.validate;

/** Why a {@link RetryPolicy} stopped making attempts. */
public enum StopReason {
    /** An attempt succeeded. */
    SUCCEEDED,
    /** The last failure is not retryable (by its own flag, or not among the codes/categories the policy retries). */
    NOT_RETRYABLE,
    /** The policy's maximum number of attempts was used up. */
    ATTEMPTS_EXHAUSTED,
    /** The deadline has passed, or would pass before the next attempt could start. */
    DEADLINE,
    /** The call context was cancelled. */
    CANCELLED
}
