package dev.pagantic.tool;

/**
 * How long one side of a hand-off spins before it parks, learnt from how long the last waits took, in the spirit of
 * HotSpot's adaptive spinning on monitors: a wait that ended within the most this side may spin (while spinning, or
 * soon after parking) shows that the other side answers quickly, and the next wait spins the full time again; a
 * longer wait halves the next spin, down to a sixteenth of the most, so that a quick answer is still noticed. Quick
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

    /** A wait has ended after {@code waitedNanos}, spinning or parked. */
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
