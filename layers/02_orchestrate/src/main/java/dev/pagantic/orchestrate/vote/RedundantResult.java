package dev.pagantic.orchestrate.vote;

import dev.pagantic.core.ErrorCode;
import dev.pagantic.core.PaganticException;
import dev.pagantic.core.TokenUsage;
import java.util.List;
import java.util.Objects;

/**
 * The outcome of a redundant (N-version) inference: the voted winner, how strongly the vote supports it, every
 * candidate, the combined token usage, and the replicas that failed (the specification's {@code RedundantResult},
 * plus {@code failures}).
 *
 * <p>Failed replicas are reported here rather than dropped silently: {@code candidates().size() + failures().size()}
 * is the number of replicas that ran, and only the candidates were voted on.
 *
 * <p>Construction copies the lists and refuses a confidence outside {@code [0, 1]} with
 * {@link ErrorCode#CONFIG_INVALID}.
 *
 * @param content    the winning candidate chosen by the voting strategy
 * @param confidence how strongly the vote supports the winner, in {@code [0, 1]}
 * @param candidates the raw outputs of the replicas that succeeded, in replica order; immutable
 * @param usage      the token usage of every inference call, successful or not, combined with
 *                   {@link TokenUsage#plus}
 * @param failures   the failures of the replicas that did not produce a candidate, in replica order; immutable
 */
public record RedundantResult(String content, double confidence, List<String> candidates, TokenUsage usage,
                              List<PaganticException> failures) {

    public RedundantResult {
        Objects.requireNonNull(content, "content");
        if (!(confidence >= 0.0 && confidence <= 1.0)) { // also rejects NaN
            throw PaganticException.of(ErrorCode.CONFIG_INVALID,
                    "redundant result: confidence must be in [0, 1]: " + confidence);
        }
        candidates = List.copyOf(candidates);
        Objects.requireNonNull(usage, "usage");
        failures = List.copyOf(failures);
    }

    /**
     * A result with no failed replica.
     *
     * @param content    the winning candidate
     * @param confidence the vote's confidence
     * @param candidates every candidate
     * @param usage      the combined usage
     * @return the result
     */
    public static RedundantResult of(String content, double confidence, List<String> candidates, TokenUsage usage) {
        return new RedundantResult(content, confidence, candidates, usage, List.of());
    }

    /**
     * The result of a vote over the candidates.
     *
     * @param vote       the vote; its winner becomes the content and its confidence the confidence
     * @param candidates the candidates voted on
     * @param usage      the combined usage
     * @param failures   the failed replicas
     * @return the result
     */
    public static RedundantResult of(Vote vote, List<String> candidates, TokenUsage usage,
                                     List<PaganticException> failures) {
        return new RedundantResult(vote.winner(), vote.confidence(), candidates, usage, failures);
    }

    /**
     * How many replicas ran.
     *
     * @return the number of candidates plus the number of failures
     */
    public int replicas() {
        return candidates.size() + failures.size();
    }

    /**
     * Whether any replica failed.
     *
     * @return true when {@link #failures()} is not empty
     */
    public boolean hasFailures() {
        return !failures.isEmpty();
    }
}
