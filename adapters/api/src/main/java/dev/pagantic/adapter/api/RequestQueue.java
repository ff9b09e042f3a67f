package dev.pagantic.adapter.api;

import java.time.Duration;
import java.util.ArrayDeque;
import java.util.Deque;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.Condition;
import java.util.concurrent.locks.ReentrantLock;
import java.util.function.BooleanSupplier;

/**
 * The bounded FIFO queue in front of the server's slots, as llama-server queues requests over its slots: at most
 * {@code slots} requests run, up to {@code capacity} more wait in arrival order, and a waiting request leaves the queue
 * when its wait exceeds {@code maxWait}, when its client disconnects, or when the server starts draining.
 *
 * <p>Written rather than a fair {@link java.util.concurrent.Semaphore}: a fair semaphore's timed wait re-queues a
 * thread at the back whenever it wakes to look at its client, which would break the FIFO order, and it has no bound on
 * the number of waiters. Here a request is admitted only when it is at the head of the queue and a slot is free.
 *
 * <p>Thread-safe. The counters are read for {@code /health} and {@code /metrics}.
 */
final class RequestQueue {

    /** How often a waiting request looks whether its client is still there. */
    private static final long POLL_NANOS = TimeUnit.MILLISECONDS.toNanos(50);

    private final int slots;
    private final int capacity;
    private final Duration maxWait;
    private final ReentrantLock lock = new ReentrantLock();
    private final Condition changed = lock.newCondition();
    private final Deque<Object> waiting = new ArrayDeque<>(); // guarded by lock
    private int running; // guarded by lock
    private boolean closed; // guarded by lock
    private long admitted; // guarded by lock
    private long refused; // guarded by lock
    private long waitedNanosTotal; // guarded by lock
    private long waitedNanosMax; // guarded by lock

    RequestQueue(int slots, int capacity, Duration maxWait) {
        this.slots = slots;
        this.capacity = capacity;
        this.maxWait = maxWait;
    }

    /** Why a request was not admitted. */
    enum Refusal {
        /** {@code capacity} requests were already waiting. */
        FULL,
        /** It waited {@code maxWait} without reaching a slot. */
        TIMED_OUT,
        /** Its client disconnected while it waited. */
        CLIENT_GONE,
        /** The server began shutting down. */
        CLOSED
    }

    /** A refused admission. */
    static final class Refused extends Exception {
        private static final long serialVersionUID = 1L;
        private final transient Refusal reason;

        Refused(Refusal reason) {
            super(reason.name(), null, false, false);
            this.reason = reason;
        }

        Refusal reason() {
            return reason;
        }
    }

    /**
     * Waits for a slot in arrival order; the caller must {@link #leave()} once it is done.
     *
     * @param clientGone polled while waiting: true when the client has disconnected
     * @throws Refused when the queue is full, the wait timed out, the client went or the queue closed
     * @throws InterruptedException when the waiting thread is interrupted (it has left the queue)
     */
    void enter(BooleanSupplier clientGone) throws Refused, InterruptedException {
        long start = System.nanoTime();
        long deadline = start + maxWait.toNanos();
        Object ticket = new Object();
        lock.lock();
        try {
            if (closed) {
                throw refuse(Refusal.CLOSED);
            }
            if (waiting.isEmpty() && running < slots) {
                admit(0);
                return;
            }
            if (waiting.size() >= capacity) {
                throw refuse(Refusal.FULL);
            }
            waiting.addLast(ticket);
            try {
                while (!(waiting.peekFirst() == ticket && running < slots)) {
                    if (closed) {
                        throw refuse(Refusal.CLOSED);
                    }
                    long left = deadline - System.nanoTime();
                    if (left <= 0) {
                        throw refuse(Refusal.TIMED_OUT);
                    }
                    if (clientGone.getAsBoolean()) {
                        throw refuse(Refusal.CLIENT_GONE);
                    }
                    changed.awaitNanos(Math.min(left, POLL_NANOS));
                }
            } finally {
                waiting.remove(ticket);
                // The next request may now be at the head (or this one left without taking a slot).
                changed.signalAll();
            }
            admit(System.nanoTime() - start);
        } finally {
            lock.unlock();
        }
    }

    /** Frees the slot taken by {@link #enter}. */
    void leave() {
        lock.lock();
        try {
            running--;
            changed.signalAll();
        } finally {
            lock.unlock();
        }
    }

    /** Refuses every waiting and later request ({@link Refusal#CLOSED}); requests running keep their slots. */
    void close() {
        lock.lock();
        try {
            closed = true;
            changed.signalAll();
        } finally {
            lock.unlock();
        }
    }

    /**
     * Waits until no request runs.
     *
     * @return false when requests were still running after the timeout
     */
    boolean awaitIdle(Duration timeout) throws InterruptedException {
        long left = timeout.toNanos();
        lock.lock();
        try {
            while (running > 0) {
                if (left <= 0) {
                    return false;
                }
                left = changed.awaitNanos(left);
            }
            return true;
        } finally {
            lock.unlock();
        }
    }

    /** A consistent snapshot of the queue's state and counters. */
    Stats stats() {
        lock.lock();
        try {
            return new Stats(slots, capacity, running, waiting.size(), admitted, refused,
                    waitedNanosTotal / 1_000_000, waitedNanosMax / 1_000_000);
        } finally {
            lock.unlock();
        }
    }

    private void admit(long waitedNanos) {
        running++;
        admitted++;
        waitedNanosTotal += waitedNanos;
        waitedNanosMax = Math.max(waitedNanosMax, waitedNanos);
    }

    private Refused refuse(Refusal reason) {
        refused++;
        return new Refused(reason);
    }

    /**
     * What {@code /health} and {@code /metrics} report.
     *
     * @param slots           requests that may run at once
     * @param capacity        requests that may wait
     * @param running         requests running now
     * @param waiting         requests waiting now (the queue's depth)
     * @param admitted        requests admitted since start
     * @param refused         requests refused since start (full, timed out, client gone, closing)
     * @param waitedMillisTotal the time admitted requests spent waiting, summed
     * @param waitedMillisMax   the longest wait of an admitted request
     */
    record Stats(int slots, int capacity, int running, int waiting, long admitted, long refused,
                 long waitedMillisTotal, long waitedMillisMax) {
    }
}
