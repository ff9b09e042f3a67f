package dev.pagantic.observe;

import dev.pagantic.core.CallContext;
import dev.pagantic.core.IdGenerator;
import java.time.Duration;
import java.time.Instant;
import java.time.InstantSource;
import java.util.concurrent.atomic.AtomicReference;

/** Deterministic call contexts and a settable clock for the tests. */
final class TestContexts {

    static final Instant T0 = Instant.parse("2026-11-22T08:00:00Z");

    private TestContexts() {
    }

    /** A context with request id req-1, session sess-1, trace trace-1 and sequential span ids s1, s2, ... */
    static CallContext context(InstantSource clock) {
        return CallContext.builder()
                .requestId("req-1")
                .sessionId("sess-1")
                .traceId("trace-1")
                .idGenerator(IdGenerator.sequential("s"))
                .clock(clock)
                .build();
    }

    static CallContext context() {
        return context(InstantSource.fixed(T0));
    }

    /** A clock that tests move by hand. */
    static final class ManualClock implements InstantSource {
        private final AtomicReference<Instant> now = new AtomicReference<>(T0);

        @Override
        public Instant instant() {
            return now.get();
        }

        void advance(Duration duration) {
            now.updateAndGet(instant -> instant.plus(duration));
        }
    }
}
