package dev.pagantic.core;

import java.util.Optional;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicReference;

/**
 * A cancellation signal that any thread may trigger once. The code that starts work keeps the {@code Cancellation}
 * and puts it into a {@link CallContext}; the code doing the work only observes it through the context, so a callee
 * cannot cancel its caller.
 *
 * <pre>{@code
 * Cancellation cancellation = new Cancellation();
 * CallContext ctx = CallContext.builder().cancellation(cancellation).build();
 * executor.submit(() -> engine.infer(ctx, request));
 * cancellation.cancel("user pressed Ctrl-C");
 * }</pre>
 */
public final class Cancellation {

    private final AtomicReference<String> reason = new AtomicReference<>();
    private final CopyOnWriteArrayList<Runnable> listeners = new CopyOnWriteArrayList<>();

    /** Cancels with a generic reason. */
    public void cancel() {
        cancel("cancelled by caller");
    }

    /**
     * Cancels and runs the registered listeners on this thread. Only the first call has an effect.
     *
     * @param why the reason, reported in the resulting {@code CANCELLED_SIGNAL} error
     */
    public void cancel(String why) {
        if (!reason.compareAndSet(null, why == null ? "cancelled by caller" : why)) {
            return;
        }
        RuntimeException failure = null;
        for (Runnable listener : listeners) {
            try {
                listener.run();
            } catch (RuntimeException e) {
                if (failure == null) {
                    failure = e;
                } else {
                    failure.addSuppressed(e);
                }
            }
        }
        listeners.clear();
        if (failure != null) {
            throw failure;
        }
    }

    /** Whether {@link #cancel} has been called. */
    public boolean isCancelled() {
        return reason.get() != null;
    }

    /** The reason given to {@link #cancel}, once cancelled. */
    public Optional<String> reason() {
        return Optional.ofNullable(reason.get());
    }

    /**
     * Runs the listener when this is cancelled, or at once on this thread if it already is. Listeners must be quick
     * and must not throw: they run on the cancelling thread.
     */
    Registration onCancel(Runnable listener) {
        // Once-only: a listener added while cancel() runs may be reached both here and by cancel().
        AtomicBoolean ran = new AtomicBoolean();
        Runnable once = () -> {
            if (ran.compareAndSet(false, true)) {
                listener.run();
            }
        };
        listeners.add(once);
        if (isCancelled()) {
            listeners.remove(once);
            once.run();
        }
        return () -> listeners.remove(once);
    }
}
