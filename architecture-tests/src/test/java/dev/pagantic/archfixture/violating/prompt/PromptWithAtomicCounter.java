package dev.pagantic.archfixture.violating.prompt;

import java.util.concurrent.atomic.AtomicLong;

/** Breaks "static fields are not of mutable types": a final field holding an atomic is still shared state. */
public final class PromptWithAtomicCounter {

    private static final AtomicLong RENDERED = new AtomicLong();

    public long render() {
        return RENDERED.incrementAndGet();
    }
}
