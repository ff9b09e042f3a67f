package dev.pagantic.tck;

import java.time.Duration;
import java.time.Instant;
import java.time.InstantSource;
import java.util.concurrent.atomic.AtomicReference;

/** A clock a case moves forward by hand, to make a deadline pass at an exact point of a call. */
final class AdjustableClock implements InstantSource {
    private final AtomicReference<Instant> now;

    AdjustableClock(Instant start) {
        this.now = new AtomicReference<>(start);
    }

    @Override
    public Instant instant() {
        return now.get();
    }

    void advance(Duration duration) {
        now.updateAndGet(instant -> instant.plus(duration));
    }
}
