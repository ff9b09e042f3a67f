package dev.pagantic.orchestrate.vote;

import dev.pagantic.core.ErrorCode;
import dev.pagantic.core.PaganticException;
import java.util.Objects;

/**
 * The outcome of a {@link VotingStrategy}: the winning candidate and how strongly the vote supports it.
 *
 * <p>For the built-in strategies the confidence is {@code supporters / total}, the fraction of candidates that agree
 * with the winner ({@link #of} computes it that way). A custom strategy may compute it otherwise (a similarity score,
 * say), as long as it lies in {@code [0, 1]}.
 *
 * <p>Construction refuses out-of-range fields with {@link ErrorCode#CONFIG_INVALID}.
 *
 * @param winner      the winning candidate, exactly as it was given to the strategy
 * @param winnerIndex the index, in the candidate list, of the candidate returned as the winner (for the built-in
 *                    strategies, the first candidate of the winning class)
 * @param confidence  how strongly the vote supports the winner, in {@code [0, 1]}
 * @param supporters  how many candidates agree with the winner, the winner itself included ({@code 1..total})
 * @param total       how many candidates were voted on (at least 1)
 */
public record Vote(String winner, int winnerIndex, double confidence, int supporters, int total) {

    public Vote {
        Objects.requireNonNull(winner, "winner");
        if (total < 1) {
            throw invalid("total must be at least 1: " + total);
        }
        if (winnerIndex < 0 || winnerIndex >= total) {
            throw invalid("winnerIndex must be in [0, " + total + "): " + winnerIndex);
        }
        if (supporters < 1 || supporters > total) {
            throw invalid("supporters must be in [1, " + total + "]: " + supporters);
        }
        if (!(confidence >= 0.0 && confidence <= 1.0)) { // also rejects NaN
            throw invalid("confidence must be in [0, 1]: " + confidence);
        }
    }

    /**
     * A vote whose confidence is the fraction of candidates supporting the winner, {@code supporters / total}.
     *
     * @param winner      the winning candidate
     * @param winnerIndex its index in the candidate list
     * @param supporters  how many candidates agree with it, itself included
     * @param total       how many candidates were voted on
     * @return the vote
     */
    public static Vote of(String winner, int winnerIndex, int supporters, int total) {
        double confidence = total > 0 ? (double) supporters / total : 0.0; // total 0 is refused by the constructor
        return new Vote(winner, winnerIndex, confidence, supporters, total);
    }

    /**
     * Whether every candidate supports the winner.
     *
     * @return true when {@code supporters == total}
     */
    public boolean unanimous() {
        return supporters == total;
    }

    private static PaganticException invalid(String message) {
        return PaganticException.of(ErrorCode.CONFIG_INVALID, "vote: " + message);
    }
}
