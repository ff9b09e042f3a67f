package dev.pagantic.core;

import java.util.UUID;
import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.atomic.AtomicLong;

/**
 * Supplies identifiers for requests, traces, spans and tool calls. Inject {@link #sequential} in tests so that ids
 * are predictable; production code uses {@link #random()}. Implementations must be thread-safe.
 */
@FunctionalInterface
public interface IdGenerator {

    /** The next identifier; never empty. */
    String nextId();

    /**
     * Random version-4 UUIDs from {@link ThreadLocalRandom}. Ids correlate events and must be unique, not unguessable,
     * so they need not pay for {@link UUID#randomUUID()}'s shared {@code SecureRandom}; where an id must not be
     * predictable (a capability handed to clients), pass {@code () -> UUID.randomUUID().toString()} instead.
     */
    static IdGenerator random() {
        return () -> {
            ThreadLocalRandom random = ThreadLocalRandom.current();
            long high = random.nextLong() & ~0xF000L | 0x4000L; // version 4
            long low = random.nextLong() & ~(0xC000L << 48) | 0x8000L << 48; // IETF variant
            return new UUID(high, low).toString();
        };
    }

    /** {@code prefix1}, {@code prefix2}, ... in call order. */
    static IdGenerator sequential(String prefix) {
        AtomicLong counter = new AtomicLong();
        return () -> prefix + counter.incrementAndGet();
    }
}
