package dev.pagantic.engine.routing;

import java.time.Duration;
import java.time.Instant;
import java.time.InstantSource;
import java.util.concurrent.atomic.AtomicReference;

/** A clock that moves only when a test advances it, to step through cooldowns without waiting. */
final class ManualClock implements InstantSource {

    private final AtomicReference<Instant> now = new AtomicReference<>(Instant.parse("2026-01-01T00:00:00Z"));

    @Override
    public Instant instant() {
        return now.get();
    }

    void advance(Duration duration) {
        now.updateAndGet(instant -> instant.plus(duration));
    }
}
