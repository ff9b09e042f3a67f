package dev.pagantic.core;

import java.time.Duration;
import java.util.Objects;

/**
 * Token counts and throughput of one or more inference calls.
 *
 * <p>Usage values combine with {@link #plus}: counts add up, the context window is the largest seen, and generation
 * time adds up, so that {@link #tokensPerSecond()} of a combination is total output tokens over total generation time.
 * Because the duration is carried rather than a running average, combining is associative and commutative: the
 * usage of N calls is the same whatever order or grouping they are added in.
 *
 * @param promptTokens    tokens of the prompt that were evaluated
 * @param reasoningTokens tokens generated in a reasoning ("thinking") section
 * @param outputTokens    tokens generated as the answer (content and tool calls)
 * @param contextTokens   tokens occupying the context window at the end of the call (prompt plus generated)
 * @param contextWindow   the model's context window, 0 when unknown
 * @param generationTime  time spent generating the reasoning and output tokens
 */
public record TokenUsage(int promptTokens, int reasoningTokens, int outputTokens, int contextTokens,
                         int contextWindow, Duration generationTime) {

    /** No usage: the identity of {@link #plus}. */
    public static final TokenUsage ZERO = new TokenUsage(0, 0, 0, 0, 0, Duration.ZERO);

    public TokenUsage {
        requireNonNegative(promptTokens, "promptTokens");
        requireNonNegative(reasoningTokens, "reasoningTokens");
        requireNonNegative(outputTokens, "outputTokens");
        requireNonNegative(contextTokens, "contextTokens");
        requireNonNegative(contextWindow, "contextWindow");
        Objects.requireNonNull(generationTime, "generationTime");
        if (generationTime.isNegative()) {
            throw PaganticException.of(ErrorCode.CONFIG_INVALID, "generationTime must not be negative");
        }
    }

    /** Usage with prompt and output counts only. */
    public static TokenUsage of(int promptTokens, int outputTokens) {
        return new TokenUsage(promptTokens, 0, outputTokens, promptTokens + outputTokens, 0, Duration.ZERO);
    }

    /** Prompt, reasoning and output tokens together; {@link ArithmeticException} if that overflows an int. */
    public int totalTokens() {
        return Math.addExact(Math.addExact(promptTokens, reasoningTokens), outputTokens);
    }

    /** Generated tokens (reasoning and output) per second of generation time; 0 when no time was recorded. */
    public double tokensPerSecond() {
        long nanos = generationTime.toNanos();
        if (nanos == 0) {
            return 0.0;
        }
        return ((long) reasoningTokens + outputTokens) * 1_000_000_000.0 / nanos;
    }

    /** The combination of this usage and another (see the class comment for the rule). */
    public TokenUsage plus(TokenUsage other) {
        return new TokenUsage(
                Math.addExact(promptTokens, other.promptTokens),
                Math.addExact(reasoningTokens, other.reasoningTokens),
                Math.addExact(outputTokens, other.outputTokens),
                Math.addExact(contextTokens, other.contextTokens),
                Math.max(contextWindow, other.contextWindow),
                generationTime.plus(other.generationTime));
    }

    /** This usage with the given context window. */
    public TokenUsage withContextWindow(int window) {
        return new TokenUsage(promptTokens, reasoningTokens, outputTokens, contextTokens, window, generationTime);
    }

    /** This usage with the given generation time. */
    public TokenUsage withGenerationTime(Duration time) {
        return new TokenUsage(promptTokens, reasoningTokens, outputTokens, contextTokens, contextWindow, time);
    }

    private static void requireNonNegative(int value, String field) {
        if (value < 0) {
            throw PaganticException.of(ErrorCode.CONFIG_INVALID, field + " must not be negative: " + value);
        }
    }
}
