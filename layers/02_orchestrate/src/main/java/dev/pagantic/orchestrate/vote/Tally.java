package dev.pagantic.orchestrate.vote;

import dev.pagantic.core.ErrorCode;
import dev.pagantic.core.PaganticException;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.function.Function;

/**
 * Plurality counting shared by the built-in strategies: candidates are grouped into classes by a key, the largest
 * class wins, and among equally large classes the one seen first wins. The winner is the class's first candidate.
 */
final class Tally {

    private Tally() {
    }

    /** A class of equivalent candidates: the index of its first member and its size. */
    private static final class Group {
        final int first;
        int count;

        Group(int first) {
            this.first = first;
        }
    }

    /**
     * The plurality vote over the candidates, grouped by the given key.
     *
     * @param strategy   the strategy's name, for the error message
     * @param candidates the candidates; checked for null
     * @param key        maps a candidate to its class; equal keys mean the same class
     */
    static Vote plurality(String strategy, List<String> candidates, Function<String, ?> key) {
        requireCandidates(strategy, candidates);
        Map<Object, Group> groups = new LinkedHashMap<>();
        for (int i = 0; i < candidates.size(); i++) {
            int index = i;
            groups.computeIfAbsent(key.apply(candidates.get(i)), k -> new Group(index)).count++;
        }
        Group best = null;
        for (Group group : groups.values()) { // insertion order = first-seen order
            if (best == null || group.count > best.count) { // strictly greater: an earlier class keeps a tie
                best = group;
            }
        }
        return Vote.of(candidates.get(best.first), best.first, best.count, candidates.size());
    }

    /**
     * Checks that the list and its elements are not null, and that it is not empty.
     *
     * @throws PaganticException {@link ErrorCode#ORCHESTRATION_NO_CONSENSUS} when the list is empty
     */
    static void requireCandidates(String strategy, List<String> candidates) {
        Objects.requireNonNull(candidates, "candidates");
        for (int i = 0; i < candidates.size(); i++) {
            if (candidates.get(i) == null) {
                throw new NullPointerException("candidate " + i + " is null");
            }
        }
        if (candidates.isEmpty()) {
            throw PaganticException.builder(ErrorCode.ORCHESTRATION_NO_CONSENSUS,
                            strategy + ": no candidates to vote on")
                    .detail("strategy", strategy)
                    .detail("total", 0)
                    .build();
        }
    }
}
