package dev.pagantic.adapter.api;

import dev.pagantic.core.ErrorCode;
import dev.pagantic.core.PaganticException;

/**
 * What one request may carry. A body over {@code maxBodyBytes} is refused with 413 before it is parsed; more than
 * {@code maxMessages} messages, or a message whose content is longer than {@code maxMessageChars} characters, with
 * 400. They bound the memory and prompt size a single client can claim; the model's own context limit is still
 * checked by the engine ({@code INFERENCE_CONTEXT_EXCEEDED}).
 *
 * @param maxBodyBytes    the largest request body in bytes
 * @param maxMessages     the most messages in one request
 * @param maxMessageChars the longest message content in characters
 */
public record ApiLimits(long maxBodyBytes, int maxMessages, int maxMessageChars) {

    /** 1 MiB bodies, 256 messages, 100,000 characters per message. */
    public static final ApiLimits DEFAULTS = new ApiLimits(1024 * 1024, 256, 100_000);

    /**
     * Checks that every limit is positive.
     *
     * @throws PaganticException {@code CONFIG_INVALID} for a limit that is not positive
     */
    public ApiLimits {
        require(maxBodyBytes > 0, "maxBodyBytes must be positive: " + maxBodyBytes);
        require(maxMessages > 0, "maxMessages must be positive: " + maxMessages);
        require(maxMessageChars > 0, "maxMessageChars must be positive: " + maxMessageChars);
    }

    /** These limits with another body size. */
    public ApiLimits withMaxBodyBytes(long value) {
        return new ApiLimits(value, maxMessages, maxMessageChars);
    }

    /** These limits with another message count. */
    public ApiLimits withMaxMessages(int value) {
        return new ApiLimits(maxBodyBytes, value, maxMessageChars);
    }

    /** These limits with another message length. */
    public ApiLimits withMaxMessageChars(int value) {
        return new ApiLimits(maxBodyBytes, maxMessages, value);
    }

    private static void require(boolean condition, String message) {
        if (!condition) {
            throw PaganticException.of(ErrorCode.CONFIG_INVALID, message);
        }
    }
}
