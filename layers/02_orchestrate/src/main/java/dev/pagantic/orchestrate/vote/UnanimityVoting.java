package dev.pagantic.orchestrate.vote;

import dev.pagantic.core.ErrorCode;
import dev.pagantic.core.PaganticException;
import java.util.List;

/**
 * Requires every candidate to be the same exact string (the specification's {@code UnanimityVoting}).
 *
 * <p>When they all match, the winner is that string with confidence 1.0. Otherwise the vote fails with
 * {@link ErrorCode#ORCHESTRATION_NO_CONSENSUS} naming the first candidate that differs from candidate 0, in the
 * specification's words: {@code "unanimity voting: candidate 2 differs from candidate 0"}. The exception's details
 * carry {@code candidate} (that index), {@code reference} (0) and {@code total}.
 *
 * <p>Comparison is character for character; for unanimity up to JSON equivalence use
 * {@code new CanonicalJsonVoting().withQuorum(1.0)}.
 */
public record UnanimityVoting() implements VotingStrategy {

    private static final String NAME = "unanimity voting";

    /**
     * {@inheritDoc}
     *
     * @throws PaganticException {@link ErrorCode#ORCHESTRATION_NO_CONSENSUS} when there are no candidates or when one
     *                           differs from the first
     */
    @Override
    public Vote vote(List<String> candidates) {
        Tally.requireCandidates(NAME, candidates);
        String reference = candidates.get(0);
        for (int i = 1; i < candidates.size(); i++) {
            if (!candidates.get(i).equals(reference)) {
                throw PaganticException.builder(ErrorCode.ORCHESTRATION_NO_CONSENSUS,
                                NAME + ": candidate " + i + " differs from candidate 0")
                        .detail("strategy", NAME)
                        .detail("candidate", i)
                        .detail("reference", 0)
                        .detail("total", candidates.size())
                        .build();
            }
        }
        return Vote.of(reference, 0, candidates.size(), candidates.size());
    }
}
