package dev.pagantic.orchestrate.internal;

import dev.pagantic.core.CallContext;
import java.time.Duration;
import java.time.Instant;

/** Durations of orchestrate's events, on the call context's clock. */
public final class Timing {

    /** The layer orchestrate's own events name ({@code context}, {@code tool}, {@code vote}, {@code step}). */
    public static final String LAYER = "orchestrate";

    private Timing() {
    }

    /** The time since {@code started} on the context's clock, never negative. */
    public static Duration elapsed(CallContext ctx, Instant started) {
        Duration duration = Duration.between(started, ctx.now());
        return duration.isNegative() ? Duration.ZERO : duration;
    }
}
