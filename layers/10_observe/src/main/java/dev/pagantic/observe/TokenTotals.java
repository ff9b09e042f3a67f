package dev.pagantic.observe;

import dev.pagantic.core.TokenUsage;
import java.time.Duration;
import java.util.Objects;

/**
 * Token usage summed over many inference calls. Counts are {@code long}, unlike {@link TokenUsage}'s {@code int}s,
 * so that a long-running process does not overflow.
 *
 * @param calls           how many usages were recorded
 * @param promptTokens    prompt tokens in all
 * @param reasoningTokens reasoning tokens in all
 * @param outputTokens    output tokens in all
 * @param generationTime  generation time in all
 */
public record TokenTotals(long calls, long promptTokens, long reasoningTokens, long outputTokens,
                          Duration generationTime) {

    /** Nothing recorded. */
    public static final TokenTotals ZERO = new TokenTotals(0, 0, 0, 0, Duration.ZERO);

    public TokenTotals {
        Checks.requireNonNegative(calls, "calls");
        Checks.requireNonNegative(promptTokens, "promptTokens");
        Checks.requireNonNegative(reasoningTokens, "reasoningTokens");
        Checks.requireNonNegative(outputTokens, "outputTokens");
        Objects.requireNonNull(generationTime, "generationTime");
    }

    /** These totals plus one call's usage. */
    public TokenTotals plus(TokenUsage usage) {
        return new TokenTotals(Math.addExact(calls, 1), Math.addExact(promptTokens, usage.promptTokens()),
                Math.addExact(reasoningTokens, usage.reasoningTokens()),
                Math.addExact(outputTokens, usage.outputTokens()), generationTime.plus(usage.generationTime()));
    }

    /** Prompt, reasoning and output tokens together. */
    public long totalTokens() {
        return Math.addExact(Math.addExact(promptTokens, reasoningTokens), outputTokens);
    }
}
