package dev.pagantic.adapter.api;

import dev.pagantic.core.Cancellation;
import java.time.Duration;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.Semaphore;
import java.util.concurrent.TimeUnit;
import java.util.function.Supplier;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Which inference requests {@link ApiServer} runs: at most {@code capacity} at once (the next one is refused at once
 * rather than queued, so that a burst never piles up Jetty threads), none once the server drains, and on shutdown the
 * drain itself: wait for the requests in flight, then cancel those still running.
 */
final class Admission {

    private static final Logger LOG = LoggerFactory.getLogger(Admission.class);
    /** How long cancelled requests get to end after the drain timeout, before Jetty stops anyway. */
    private static final Duration CANCEL_GRACE = Duration.ofSeconds(5);

    private final int capacity;
    private final Semaphore permits;
    private final Set<Cancellation> running = ConcurrentHashMap.newKeySet();
    private volatile boolean draining;

    Admission(int capacity) {
        this.capacity = capacity;
        this.permits = new Semaphore(capacity);
    }

    /** The most requests that run at once. */
    int capacity() {
        return capacity;
    }

    /** Whether the server refuses new requests because it is shutting down. */
    boolean draining() {
        return draining;
    }

    /** Takes a place for one request; false when all are taken. A request that got one {@link #leave()}s. */
    boolean tryEnter() {
        return permits.tryAcquire();
    }

    /** Gives the place of an ended request back. */
    void leave() {
        permits.release();
    }

    /** Runs the request's work, cancelled through {@code cancellation} should the drain time out. */
    <T> T track(Cancellation cancellation, Supplier<T> work) {
        running.add(cancellation);
        try {
            return work.get();
        } finally {
            running.remove(cancellation);
        }
    }

    /** Refuses new requests from now on. */
    void refuseNew() {
        draining = true;
    }

    /**
     * Refuses new requests and waits up to {@code timeout} for those in flight to end; then cancels those still
     * running and gives them a short grace to end.
     */
    void drain(Duration timeout) {
        refuseNew();
        LOG.info("pagantic API draining: {} request(s) in flight", capacity - permits.availablePermits());
        if (!takeEveryPlace(timeout)) {
            LOG.warn("requests still running after {}; cancelling {}", timeout, running.size());
            running.forEach(cancellation -> cancellation.cancel("the server is shutting down"));
            takeEveryPlace(CANCEL_GRACE);
        }
    }

    /** Takes every place, which means that no request is in flight and none can start. */
    private boolean takeEveryPlace(Duration timeout) {
        try {
            return permits.tryAcquire(capacity, timeout.toMillis(), TimeUnit.MILLISECONDS);
        } catch (InterruptedException interrupted) {
            Thread.currentThread().interrupt();
            return false;
        }
    }
}
