package dev.pagantic.orchestrate.vote;

import dev.pagantic.core.ErrorCode;
import dev.pagantic.core.PaganticException;
import java.util.List;

/**
 * Picks the most frequent candidate, comparing candidates as exact strings (the specification's
 * {@code MajorityVoting}, and the redundant loop's default strategy).
 *
 * <p>The confidence is the fraction of candidates equal to the winner. Ties are broken by first-seen order: among the
 * candidates with the highest count, the one that appears first in the list wins, so the outcome is deterministic
 * for a given order (it is not invariant under reordering when there is a tie).
 *
 * <pre>{@code
 * new MajorityVoting().vote(List.of("positive", "positive", "negative"));
 * // winner "positive", confidence 2/3
 * new MajorityVoting().vote(List.of("a", "b", "a", "b", "c"));
 * // winner "a" (first seen of the two with count 2), confidence 2/5 = 0.4
 * }</pre>
 *
 * <p>Comparison is character for character: {@code {"a":1,"b":2}} and {@code {"b":2,"a":1}} are different
 * candidates. Use {@link CanonicalJsonVoting} to compare structured output as JSON. A plurality is enough to win;
 * add {@link #withQuorum} to demand more (for example {@code withQuorum(0.5)}).
 */
public record MajorityVoting() implements VotingStrategy {

    /**
     * {@inheritDoc}
     *
     * @throws PaganticException {@link ErrorCode#ORCHESTRATION_NO_CONSENSUS} when there are no candidates
     */
    @Override
    public Vote vote(List<String> candidates) {
        return Tally.plurality("majority voting", candidates, candidate -> candidate);
    }
}
