package dev.pagantic.it.chaos;

import java.time.Duration;
import java.time.Instant;
import java.time.InstantSource;
import java.util.concurrent.atomic.AtomicLong;

/**
 * A controllable clock for the orchestrator: it starts at a fixed instant and moves with elapsed real time (so that
 * deadlines still pass while a request runs, which is what the chaos test measures), and a test can jump it forward
 * ({@link #advance}) to expire idle sessions without waiting half an hour.
 */
final class TickingClock implements InstantSource {

    static final Instant START = Instant.parse("2030-01-01T00:00:00Z");

    private final long origin = System.nanoTime();
    private final AtomicLong offsetNanos = new AtomicLong();

    @Override
    public Instant instant() {
        return START.plusNanos(System.nanoTime() - origin + offsetNanos.get());
    }

    /** Jumps the clock forward. */
    void advance(Duration duration) {
        offsetNanos.addAndGet(duration.toNanos());
    }
}
