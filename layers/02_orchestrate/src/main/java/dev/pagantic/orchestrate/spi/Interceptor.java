package dev.pagantic.orchestrate.spi;

import java.util.List;
import java.util.Objects;

/**
 * The interception SPI: every engine call, tool call and plan step that orchestration performs passes through the
 * configured interceptor, so that a durable runner (each invocation as a Temporal activity), a tracer, a rate limiter
 * or a cache can wrap them without any change to the patterns.
 *
 * <p>An interceptor must call {@link Invocation#proceed()} at most once and return its result, or return a result
 * it obtained otherwise (a replayed activity result) without proceeding, or throw. It runs on the calling thread.
 *
 * <pre>{@code
 * Interceptor timing = new Interceptor() {
 *     public <T> T intercept(Invocation<T> invocation) {
 *         long start = System.nanoTime();
 *         try {
 *             return invocation.proceed();
 *         } finally {
 *             log.debug("{} {} took {} µs", invocation.kind(), invocation.name(), (System.nanoTime() - start) / 1000);
 *         }
 *     }
 * };
 * }</pre>
 */
public interface Interceptor {

    /** Runs every invocation directly. */
    Interceptor NONE = new Interceptor() {
    };

    /** Intercepts one invocation; the default just proceeds. */
    default <T> T intercept(Invocation<T> invocation) {
        return invocation.proceed();
    }

    /** An interceptor that passes each invocation through the given ones in order, the first outermost. */
    static Interceptor chain(List<Interceptor> interceptors) {
        List<Interceptor> chain = List.copyOf(interceptors);
        if (chain.isEmpty()) {
            return NONE;
        }
        if (chain.size() == 1) {
            return chain.get(0);
        }
        return new Interceptor() {
            @Override
            public <T> T intercept(Invocation<T> invocation) {
                return through(chain, 0, invocation);
            }
        };
    }

    /** Chains the given interceptors, the first outermost. */
    static Interceptor chain(Interceptor... interceptors) {
        return chain(List.of(interceptors));
    }

    private static <T> T through(List<Interceptor> chain, int index, Invocation<T> invocation) {
        if (index == chain.size()) {
            return invocation.proceed();
        }
        return chain.get(index).intercept(invocation.withWork(() -> through(chain, index + 1, invocation)));
    }
}
