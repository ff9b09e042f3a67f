package dev.pagantic.validate;

import java.time.Duration;
import java.time.Instant;
import java.time.InstantSource;

/** A clock that stands still until the test advances it. */
final class FakeClock implements InstantSource {

    private volatile Instant now;

    FakeClock(Instant start) {
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
