package dev.pagantic.core;

import java.time.Duration;
import java.time.Instant;
import java.time.InstantSource;

/** A clock that stands still until the test advances it. */
final class MutableClock implements InstantSource {

    private volatile Instant now;

    MutableClock(Instant start) {
        this.now = start;
    }

    @Override
    public Instant instant() {
        return now;
    }

    void advance(Duration duration) {
        now = now.plus(duration);
    }
}
