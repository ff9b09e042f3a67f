package dev.pagantic.context;

import dev.pagantic.core.CallContext;
import dev.pagantic.core.Cancellation;
import java.time.Instant;
import java.time.InstantSource;

/** Call contexts for tests: cancelled, and past their deadline (with a fixed clock, no waiting). */
final class Contexts {

    private Contexts() {
    }

    static CallContext cancelled() {
        Cancellation cancellation = new Cancellation();
        cancellation.cancel("test");
        return CallContext.builder().cancellation(cancellation).build();
    }

    static CallContext expired() {
        Instant now = Instant.parse("2026-01-01T00:00:00Z");
        return CallContext.builder().clock(InstantSource.fixed(now)).deadline(now).build();
    }
}
