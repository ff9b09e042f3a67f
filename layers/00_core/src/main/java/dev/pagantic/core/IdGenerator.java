package dev.pagantic.core;

import java.util.UUID;
import java.util.concurrent.atomic.AtomicLong;

/**
 * Supplies identifiers for requests, traces, spans and tool calls. Inject {@link #sequential} in tests so that ids
 * are predictable; production code uses {@link #random()}. Implementations must be thread-safe.
 */
@FunctionalInterface
public interface IdGenerator {

    /** The next identifier; never empty. */
    String nextId();

    /** Random UUIDs. */
    static IdGenerator random() {
        return () -> UUID.randomUUID().toString();
    }

    /** {@code prefix1}, {@code prefix2}, ... in call order. */
    static IdGenerator sequential(String prefix) {
        AtomicLong counter = new AtomicLong();
        return () -> prefix + counter.incrementAndGet();
    }
}
