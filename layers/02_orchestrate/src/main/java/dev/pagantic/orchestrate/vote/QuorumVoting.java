package dev.pagantic.orchestrate.vote;

import dev.pagantic.core.ErrorCode;
import dev.pagantic.core.PaganticException;
import java.util.List;
import java.util.Locale;
import java.util.Objects;

/**
 * A strategy that votes like another one and then refuses a winner whose confidence is below a quorum. Obtained from
 * {@link VotingStrategy#withQuorum}, for example {@code new MajorityVoting().withQuorum(0.5)}.
 *
 * <p>When the quorum is not reached the vote fails with {@link ErrorCode#ORCHESTRATION_NO_CONSENSUS}; the
 * exception's details carry the would-be {@code winner}, {@code winnerIndex}, {@code supporters}, {@code total},
 * {@code confidence} and {@code quorum}. Errors of the underlying strategy pass through unchanged.
 *
 * <p>Construction refuses a quorum outside {@code (0, 1]} with {@link ErrorCode#CONFIG_INVALID}.
 *
 * @param delegate the strategy that picks the winner
 * @param quorum   the least confidence accepted, in {@code (0, 1]}
 */
public record QuorumVoting(VotingStrategy delegate, double quorum) implements VotingStrategy {

    public QuorumVoting {
        Objects.requireNonNull(delegate, "delegate");
        if (!(quorum > 0.0 && quorum <= 1.0)) { // also rejects NaN
            throw PaganticException.builder(ErrorCode.CONFIG_INVALID, "quorum must be in (0, 1]: " + quorum)
                    .detail("quorum", quorum)
                    .build();
        }
    }

    /**
     * {@inheritDoc}
     *
     * @throws PaganticException {@link ErrorCode#ORCHESTRATION_NO_CONSENSUS} when the delegate finds no winner or the
     *                           winner's confidence is below the quorum
     */
    @Override
    public Vote vote(List<String> candidates) {
        Vote vote = delegate.vote(candidates);
        if (vote.confidence() < quorum) {
            throw PaganticException.builder(ErrorCode.ORCHESTRATION_NO_CONSENSUS, String.format(Locale.ROOT,
                            "quorum not reached: the leading candidate %d has %d of %d votes (%.3f), below the quorum"
                                    + " of %.3f", vote.winnerIndex(), vote.supporters(), vote.total(),
                            vote.confidence(), quorum))
                    .detail("winner", vote.winner())
                    .detail("winnerIndex", vote.winnerIndex())
                    .detail("supporters", vote.supporters())
                    .detail("total", vote.total())
                    .detail("confidence", vote.confidence())
                    .detail("quorum", quorum)
                    .build();
        }
        return vote;
    }
}
