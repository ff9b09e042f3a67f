package dev.pagantic.engine.routing;

import dev.pagantic.core.CallContext;
import dev.pagantic.core.ErrorCode;
import dev.pagantic.core.PaganticException;
import dev.pagantic.core.TokenUsage;
import dev.pagantic.inference.Capability;
import dev.pagantic.inference.Engine;
import dev.pagantic.inference.ModelInfo;
import dev.pagantic.inference.Request;
import dev.pagantic.inference.Result;
import dev.pagantic.inference.TokenCounter;
import java.time.Duration;
import java.util.List;
import java.util.Queue;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.Semaphore;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;

/**
 * A hand-written replica that answers its own name, counts its calls, records which request ids it saw and which it
 * failed, and can be killed (every call then fails with a retryable {@code INFERENCE_ENGINE_ERROR}), held (calls
 * wait at a gate until released) or slowed down. Thread-safe.
 */
final class FakeReplica implements Engine {

    /** How long a held call waits for its release before giving up, so that a broken test cannot hang. */
    private static final long HOLD_LIMIT_SECONDS = 20;

    private final String name;
    private final ModelInfo info;
    private volatile boolean dead;
    private volatile Duration delay = Duration.ZERO;
    private volatile CountDownLatch gate;
    private final Semaphore entered = new Semaphore(0);
    private final Queue<String> seen = new ConcurrentLinkedQueue<>();
    private final Set<String> failed = ConcurrentHashMap.newKeySet();
    private final List<CallContext> contexts = new CopyOnWriteArrayList<>();
    private final AtomicBoolean closed = new AtomicBoolean();

    private FakeReplica(String name, ModelInfo info) {
        this.name = name;
        this.info = info;
    }

    /** A replica of the model {@code name} with a 4096-token window and streaming. */
    static FakeReplica named(String name) {
        return new FakeReplica(name, ModelInfo.of(name, 4096, Capability.STREAMING));
    }

    /** Every later call fails with a retryable INFERENCE_ENGINE_ERROR, as a crashed server's would. */
    void kill() {
        dead = true;
    }

    /** Later calls answer again. */
    void revive() {
        dead = false;
    }

    /** Later calls wait, after being recorded, until {@link #release()}. */
    void hold() {
        gate = new CountDownLatch(1);
    }

    /** Lets held calls (and later ones) go on. */
    void release() {
        CountDownLatch current = gate;
        gate = null;
        if (current != null) {
            current.countDown();
        }
    }

    /** Each later call takes this long (honouring the call's cancellation and deadline). */
    void delay(Duration duration) {
        this.delay = duration;
    }

    /** Waits until a call has entered the replica (each entry is awaited once). */
    void awaitEntry() throws InterruptedException {
        if (!entered.tryAcquire(HOLD_LIMIT_SECONDS, TimeUnit.SECONDS)) {
            throw new AssertionError("no call entered replica " + name);
        }
    }

    @Override
    public Result infer(CallContext context, Request request) {
        if (closed.get()) {
            throw PaganticException.of(ErrorCode.INFERENCE_ENGINE_CLOSED, "replica " + name + " is closed");
        }
        seen.add(context.requestId());
        contexts.add(context);
        boolean failing = dead; // decided at entry: a test that kills the replica after awaitEntry() spares this call
        entered.release();
        if (failing) {
            failed.add(context.requestId());
            throw PaganticException.builder(ErrorCode.INFERENCE_ENGINE_ERROR, "replica " + name + " is down")
                    .detail("model", name).build();
        }
        CountDownLatch current = gate;
        if (current != null) {
            try {
                if (!current.await(HOLD_LIMIT_SECONDS, TimeUnit.SECONDS)) {
                    throw new AssertionError("replica " + name + " was held and never released");
                }
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                throw PaganticException.of(ErrorCode.CANCELLED_SIGNAL, "interrupted while held", e);
            }
        }
        if (!delay.isZero()) {
            context.sleep(delay);
        }
        return Result.of(name, TokenUsage.of(1, 1));
    }

    @Override
    public ModelInfo modelInfo() {
        return info;
    }

    @Override
    public TokenCounter tokenCounter() {
        return TokenCounter.estimate();
    }

    @Override
    public void close() {
        closed.set(true);
    }

    boolean isClosed() {
        return closed.get();
    }

    /** Calls that reached the replica (failed ones included). */
    int calls() {
        return seen.size();
    }

    /** The request ids of every call that reached the replica, in arrival order. */
    List<String> seenIds() {
        return List.copyOf(seen);
    }

    /** The request ids of the calls the replica failed. */
    Set<String> failedIds() {
        return Set.copyOf(failed);
    }

    /** The contexts the calls came with. */
    List<CallContext> contexts() {
        return List.copyOf(contexts);
    }

    @Override
    public String toString() {
        return "FakeReplica[" + name + (dead ? ", dead" : "") + ", calls=" + seen.size() + "]";
    }
}
