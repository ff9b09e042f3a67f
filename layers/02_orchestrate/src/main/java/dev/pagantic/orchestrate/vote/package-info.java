/**
 * N-version inference and voting (seed 000's {@code RedundantLoop}): the same structured request runs N times, and a
 * strategy picks the winner with a confidence.
 *
 * <ul>
 *   <li>{@link dev.pagantic.orchestrate.vote.RedundantLoop}: N specialized-loop replicas (default 3, sequential, or
 *       concurrent on an executor), each with its own seed where the engine honours seeds; failed replicas are
 *       reported, not dropped.</li>
 *   <li>{@link dev.pagantic.orchestrate.vote.VotingStrategy} with {@link dev.pagantic.orchestrate.vote.MajorityVoting},
 *       {@link dev.pagantic.orchestrate.vote.UnanimityVoting}, {@link dev.pagantic.orchestrate.vote.QuorumVoting} and
 *       {@link dev.pagantic.orchestrate.vote.CanonicalJsonVoting}; a {@link dev.pagantic.orchestrate.vote.Vote} is the
 *       winner and its confidence, a {@link dev.pagantic.orchestrate.vote.Tally} the counts behind it.</li>
 *   <li>{@link dev.pagantic.orchestrate.vote.RedundantResult}: the winner, the confidence, every candidate, the usage
 *       and the failed replicas.</li>
 * </ul>
 */
@NullMarked
package dev.pagantic.orchestrate.vote;

import org.jspecify.annotations.NullMarked;
