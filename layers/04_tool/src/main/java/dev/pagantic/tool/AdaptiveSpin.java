package dev.pagantic.tool;

/**
 * How long one side of a hand-off spins before it parks, learnt from how long the other side took to answer the last
 * waits, in the spirit of HotSpot's adaptive spinning on monitors: an answer within the most this side may spin shows
 * that the other side answers quickly, and the next wait spins the full time again; a later answer halves the next
 * spin, down to a sixteenth of the most, so that a quick answer is still noticed. The time is taken from the start of
 * the wait to the other side's answer, not to the moment this side noticed it: counting this side's own late wake-up
 * would keep a side that once parked parking for good, its every wait lengthened by the wake-up it could avoid. Quick
 * tools thus keep the full spin (a missed spin costs an operating-system wake-up, far more than the spin), while
 * slow tools, and a machine whose cores are all busy (where the other side rarely runs while this one spins and
 * every wake-up is late), settle at the short floor: CPU time is not spent where it buys nothing. Updates race
 * benignly: the value is a hint.
 */
final class AdaptiveSpin {

    private final long maxNanos;
    private final long minNanos;
    private volatile long nanos;

    /** Spins of at most {@code maxNanos}; 0 never spins. */
    AdaptiveSpin(long maxNanos) {
        this.maxNanos = maxNanos;
        this.minNanos = maxNanos / 16;
        this.nanos = maxNanos;
    }

    /** How long the next wait spins. */
    long nanos() {
        return nanos;
    }

    /** The other side answered {@code waitedNanos} after the wait began (negative: before it). */
    void waited(long waitedNanos) {
        long current = nanos;
        if (waitedNanos <= maxNanos) {
            if (current != maxNanos) {
                nanos = maxNanos;
            }
        } else if (current > minNanos) {
            nanos = Math.max(minNanos, current / 2);
        }
    }
}
