package dev.pagantic.tool;

/**
 * How long one side of a hand-off spins before it parks, learnt from how the last waits went, as HotSpot's adaptive
 * spinning on monitors does: a wait that ended while spinning doubles the next spin (up to the configured most), a
 * wait that had to park halves it (down to a sixteenth of the most, so that a quick hand-off is still noticed). On a
 * machine whose cores are all busy the other side rarely runs while this one spins, spins fail, and the waits settle
 * at the short floor: the CPU time is not wasted where it buys nothing. Updates race benignly: it is a hint.
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

    /** The wait ended while spinning. */
    void succeeded() {
        long current = nanos;
        if (current < maxNanos) {
            nanos = Math.min(maxNanos, current * 2);
        }
    }

    /** The wait outlasted its spin and parked. */
    void failed() {
        long current = nanos;
        if (current > minNanos) {
            nanos = Math.max(minNanos, current / 2);
        }
    }
}
