package dev.pagantic.orchestrate.vote;

import dev.pagantic.core.ErrorCode;
import dev.pagantic.core.PaganticException;
import java.util.List;

/**
 * Picks a winner among the outputs of N redundant inferences (the specification's {@code VotingStrategy}).
 *
 * <p>The built-in strategies are {@link MajorityVoting} (the default of the redundant loop: most frequent exact
 * string, ties broken by first-seen order), {@link UnanimityVoting} (all candidates must match exactly) and
 * {@link CanonicalJsonVoting} (majority over parsed JSON, so key order, whitespace and number spelling do not split
 * the vote). Any of them can be made to demand a minimum share of the vote with {@link #withQuorum}. A custom
 * strategy is any lambda of this shape:
 *
 * <pre>{@code
 * VotingStrategy longest = candidates -> {
 *     int best = 0;
 *     for (int i = 1; i < candidates.size(); i++) {
 *         if (candidates.get(i).length() > candidates.get(best).length()) {
 *             best = i;
 *         }
 *     }
 *     return Vote.of(candidates.get(best), best, 1, candidates.size());
 * };
 * }</pre>
 *
 * <p>Contract: strategies are deterministic (the same candidate list in the same order always gives the same vote)
 * and stateless, so one instance may serve concurrent calls; they do not modify the list.
 */
@FunctionalInterface
public interface VotingStrategy {

    /**
     * Votes on the candidates.
     *
     * @param candidates the candidate outputs, in replica order; not null and no null element
     * @return the winner, its index, the number of supporters and the confidence
     * @throws PaganticException {@link ErrorCode#ORCHESTRATION_NO_CONSENSUS} when the candidates do not allow a winner
     *                           (none at all, or not enough agreement for this strategy)
     */
    Vote vote(List<String> candidates);

    /**
     * This strategy, refusing any vote whose confidence is below the given quorum.
     *
     * <p>The check is {@code vote.confidence() >= quorum}, on the same double the strategy computed: for the
     * built-in strategies, {@code withQuorum(2.0 / 3)} accepts two votes of three, {@code withQuorum(0.5)} accepts
     * two of four, and {@code withQuorum(1.0)} demands that every candidate agrees (which, on
     * {@link CanonicalJsonVoting}, is unanimity up to the canonical JSON form).
     *
     * @param quorum the least confidence accepted, in {@code (0, 1]}
     * @return a strategy that votes like this one and then applies the quorum
     * @throws PaganticException {@link ErrorCode#CONFIG_INVALID} when the quorum is not in {@code (0, 1]}
     */
    default VotingStrategy withQuorum(double quorum) {
        return new QuorumVoting(this, quorum);
    }
}
