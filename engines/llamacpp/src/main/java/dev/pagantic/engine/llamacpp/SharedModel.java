package dev.pagantic.engine.llamacpp;

import de.kherud.llama.LlamaModel;
import dev.pagantic.core.CallContext;
import dev.pagantic.core.ErrorCode;
import dev.pagantic.core.PaganticException;
import java.util.concurrent.Semaphore;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.Lock;
import java.util.concurrent.locks.ReadWriteLock;
import java.util.concurrent.locks.ReentrantReadWriteLock;
import java.util.function.Function;

/**
 * One loaded native model and its lifecycle guard. Work runs while holding one of {@code parallel} permits (one per
 * llama.cpp slot), so requests beyond the slots wait their turn instead of queueing in native code. Closing sets a
 * flag that running generations check between tokens (they cancel and end), then takes every permit and closes the
 * native model: close never runs under a request, which in the binding would hang it, and a request after close is
 * refused with {@code INFERENCE_ENGINE_CLOSED}.
 */
final class SharedModel {

    private static final long WAIT_SLICE_MILLIS = 10;

    private final ModelSpec spec;
    private final LlamaModel model;
    private final ChatTemplates templates;
    private final Semaphore slots;
    private final ReadWriteLock unslotted = new ReentrantReadWriteLock(); // tokenization: read; the close: write
    private volatile boolean closing;

    SharedModel(ModelSpec spec, LlamaModel model, ChatTemplates templates) {
        this.spec = spec;
        this.model = model;
        this.templates = templates;
        this.slots = new Semaphore(spec.parallel(), true);
    }

    /** The model's chat templates, read from its GGUF header. */
    ChatTemplates templates() {
        return templates;
    }

    /** Whether close has begun: a running generation must stop at its next token. */
    boolean closing() {
        return closing;
    }

    /** The model for tests of this package, without any guard. */
    LlamaModel unguarded() {
        requireOpen();
        return model;
    }

    /**
     * Runs work that needs no slot (tokenization) while the model cannot be closed under it.
     *
     * @throws PaganticException {@code INFERENCE_ENGINE_CLOSED} when the model is closing
     */
    <T> T withoutSlot(Function<LlamaModel, T> work) {
        Lock lock = unslotted.readLock();
        lock.lock();
        try {
            requireOpen();
            return work.apply(model);
        } finally {
            lock.unlock();
        }
    }

    /**
     * Runs the work holding a slot, waiting for one while honouring the call's cancellation and deadline.
     *
     * @throws PaganticException {@code INFERENCE_ENGINE_CLOSED} when the model is closing, {@code CANCELLED_*}
     */
    <T> T withSlot(CallContext ctx, Function<LlamaModel, T> work) {
        acquire(ctx);
        try {
            requireOpen();
            return work.apply(model);
        } finally {
            slots.release();
        }
    }

    /** Closes the native model once no request holds a slot; later calls fail as closed. Idempotent. */
    void close() {
        synchronized (this) {
            if (closing) {
                return;
            }
            closing = true;
        }
        slots.acquireUninterruptibly(spec.parallel());
        Lock noTokenization = unslotted.writeLock(); // waits for running tokenizations; later ones see the flag
        noTokenization.lock();
        try {
            model.close();
        } finally {
            noTokenization.unlock();
        }
    }

    private void acquire(CallContext ctx) {
        try {
            while (!slots.tryAcquire(WAIT_SLICE_MILLIS, TimeUnit.MILLISECONDS)) {
                requireOpen();
                ctx.throwIfDone();
            }
        } catch (InterruptedException interrupted) {
            Thread.currentThread().interrupt();
            throw PaganticException.of(ErrorCode.CANCELLED_SIGNAL, "interrupted while waiting for a model slot");
        }
    }

    void requireOpen() {
        if (closing) {
            throw PaganticException.builder(ErrorCode.INFERENCE_ENGINE_CLOSED, "the model is closed")
                    .detail("model", spec.path().toString()).build();
        }
    }
}
