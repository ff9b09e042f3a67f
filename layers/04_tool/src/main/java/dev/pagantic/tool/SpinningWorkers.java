package dev.pagantic.tool;

import java.util.List;
import java.util.Set;
import java.util.concurrent.AbstractExecutorService;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ConcurrentLinkedDeque;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicReference;
import java.util.concurrent.locks.LockSupport;

/**
 * Platform daemon threads that wait for their next task spinning briefly (an {@link AdaptiveSpin}) before they park:
 * the tool executor's pool when it does not use virtual threads. A {@link java.util.concurrent.ThreadPoolExecutor}
 * parks an idle thread at once, so every quick call pays an operating-system wake-up to start; a worker here that
 * ended a task a few microseconds ago is still spinning and takes the next one without that. The most recently idle
 * worker gets the next task (a stack), so one worker serves a sequence of calls while the others park.
 *
 * <p>Tasks are handed to idle workers, never queued: a task finds an idle worker or starts a new thread, at most
 * {@code maxThreads} in all. The tool executor's slots admit at most that many tasks at once (running or
 * abandoned), so the cap is only reached while a worker that has just ended a task is on its way back to the idle
 * stack; the submitter yields until it arrives. A worker whose tool hangs is simply busy: later tasks go to other
 * workers or new threads, never wait behind it. Idle workers end after the keep-alive time. {@code submit} wraps a
 * task in a {@link java.util.concurrent.FutureTask}, whose {@code cancel(true)} interrupts the worker only while it
 * runs that task; the worker clears a late interrupt before it takes the next one.
 */
final class SpinningWorkers extends AbstractExecutorService {

    private static final long KEEP_ALIVE_NANOS = TimeUnit.SECONDS.toNanos(30);
    /** Marks a worker that has retired: no task can be handed to it any more. */
    private static final Runnable RETIRED = () -> { };

    private final int maxThreads;
    private final AdaptiveSpin spin;
    private final String prefix;
    private final ConcurrentLinkedDeque<Worker> idle = new ConcurrentLinkedDeque<>();
    private final Set<Worker> workers = ConcurrentHashMap.newKeySet();
    private final AtomicInteger threads = new AtomicInteger();
    private final AtomicInteger threadNumber = new AtomicInteger();
    private volatile boolean shutdown;

    /** At most {@code maxThreads} workers, each spinning at most {@code spinNanos} (0: never) before it parks. */
    SpinningWorkers(int maxThreads, long spinNanos, String prefix) {
        this.maxThreads = maxThreads;
        this.spin = new AdaptiveSpin(spinNanos);
        this.prefix = prefix;
    }

    @Override
    public void execute(Runnable task) {
        while (true) {
            if (shutdown) {
                throw new RejectedExecutionException("the tool threads are shut down");
            }
            Worker worker = idle.pollFirst();
            if (worker != null) {
                if (worker.handOver(task)) {
                    return;
                }
                continue; // it retired meanwhile
            }
            int running = threads.get();
            if (running < maxThreads) {
                if (threads.compareAndSet(running, running + 1)) {
                    start(task);
                    return;
                }
                continue;
            }
            Thread.yield(); // a worker that has just ended its task is on its way back
        }
    }

    private void start(Runnable first) {
        Worker worker = new Worker(first);
        Thread thread = new Thread(worker, prefix + "-" + threadNumber.incrementAndGet());
        thread.setDaemon(true); // an abandoned tool must not keep the JVM alive
        worker.thread = thread;
        workers.add(worker);
        try {
            thread.start();
        } catch (RuntimeException | Error refused) { // for instance OutOfMemoryError: unable to create thread
            workers.remove(worker);
            threads.decrementAndGet();
            throw new RejectedExecutionException("cannot start a tool thread", refused);
        }
        if (shutdown) {
            thread.interrupt();
        }
    }

    /** One platform thread, running the task handed to it, then waiting on the idle stack for the next. */
    private final class Worker implements Runnable {
        final AtomicReference<Runnable> next = new AtomicReference<>();
        volatile boolean parked;
        long handedAt; // System.nanoTime() of the last hand-over, published by next
        volatile Thread thread;
        private Runnable first;

        Worker(Runnable first) {
            this.first = first;
        }

        /** Gives this idle worker its next task; false when it has retired. */
        boolean handOver(Runnable task) {
            handedAt = System.nanoTime(); // before the task is published, so the worker reads it after the task
            if (!next.compareAndSet(null, task)) {
                return false;
            }
            if (parked) { // read after the task was published: a worker that parks later sees the task first
                LockSupport.unpark(thread);
            }
            return true;
        }

        @Override
        public void run() {
            try {
                Runnable task = first;
                first = null;
                while (task != null) {
                    if (!shutdown) {
                        Thread.interrupted(); // a cancellation that arrived as the previous task ended
                    }
                    task.run(); // a FutureTask: it keeps what the tool throws
                    Thread.interrupted();
                    if (shutdown) {
                        return;
                    }
                    idle.offerFirst(this);
                    task = awaitTask();
                }
            } finally {
                workers.remove(this);
                threads.decrementAndGet();
            }
        }

        /** The next task, spinning first and then parking; null once retired (keep-alive passed, or shut down). */
        private Runnable awaitTask() {
            long idleSince = System.nanoTime();
            long spinEnd = idleSince + spin.nanos();
            while (System.nanoTime() - spinEnd < 0) {
                Runnable task = next.get();
                if (task != null) {
                    spin.waited(handedAt - idleSince); // not when it woke: a late wake-up must not shorten the spin
                    return taken(task);
                }
                Thread.onSpinWait();
            }
            long retireAt = System.nanoTime() + KEEP_ALIVE_NANOS;
            while (true) {
                parked = true;
                Runnable task = next.get();
                if (task != null) {
                    parked = false;
                    spin.waited(handedAt - idleSince); // not when it woke: a late wake-up must not shorten the spin
                    return taken(task);
                }
                long left = retireAt - System.nanoTime();
                if (shutdown || left <= 0) {
                    if (next.compareAndSet(null, RETIRED)) {
                        idle.remove(this);
                        return null;
                    }
                    continue; // a task arrived at the last moment: run it
                }
                LockSupport.parkNanos(this, left);
                parked = false;
            }
        }

        private Runnable taken(Runnable task) {
            next.set(null);
            return task;
        }
    }

    @Override
    public void shutdown() {
        shutdownNow();
    }

    /** Interrupts every worker (a running tool included) and wakes the idle ones, which end. */
    @Override
    public List<Runnable> shutdownNow() {
        shutdown = true;
        for (Worker worker : workers) {
            Thread thread = worker.thread;
            if (thread != null) {
                thread.interrupt();
                LockSupport.unpark(thread);
            }
        }
        return List.of();
    }

    @Override
    public boolean isShutdown() {
        return shutdown;
    }

    @Override
    public boolean isTerminated() {
        return shutdown && threads.get() == 0;
    }

    @Override
    public boolean awaitTermination(long timeout, TimeUnit unit) throws InterruptedException {
        long deadline = System.nanoTime() + unit.toNanos(timeout);
        while (!isTerminated()) {
            if (System.nanoTime() - deadline >= 0) {
                return false;
            }
            Thread.sleep(1);
        }
        return true;
    }
}
