package dev.pagantic.orchestrate.lifecycle;

import dev.pagantic.core.CallContext;
import dev.pagantic.core.FailureCategory;
import dev.pagantic.core.PaganticException;
import java.util.Objects;

/**
 * The lifecycle state machine of one request, driven by the pattern that executes it. Its only moves are the edges
 * of seed 001's diagram, restricted to the pattern's {@link PatternPath}: a pattern cannot enter a state out of order
 * or leave a terminal one, so illegal transitions are bugs caught at the call, never silent states. Every transition
 * is reported to the listener with its reason; a retry (VALIDATE → EXECUTE) increments the attempt.
 *
 * <p>Thread-safe; in practice one request's executing thread drives it.
 */
public final class ExecutionLifecycle {

    private final CallContext context;
    private final PatternPath path;
    private final TransitionListener listener;
    private ExecutionState state;

    private ExecutionLifecycle(CallContext context, PatternPath path, TransitionListener listener) {
        this.context = context;
        this.path = path;
        this.listener = listener;
        this.state = ExecutionState.initial(context.now());
    }

    /** A lifecycle in INIT for a request of the given pattern. */
    public static ExecutionLifecycle start(CallContext context, PatternPath path, TransitionListener listener) {
        return new ExecutionLifecycle(Objects.requireNonNull(context, "context"), Objects.requireNonNull(path, "path"),
                Objects.requireNonNull(listener, "listener"));
    }

    public PatternPath path() {
        return path;
    }

    /** The current state. */
    public synchronized ExecutionState state() {
        return state;
    }

    /** INIT → PLAN. */
    public void plan(String reason) {
        move(LifecycleState.PLAN, reason, LifecycleState.INIT);
    }

    /** INIT or PLAN → PREPARE. */
    public void prepare(String reason) {
        move(LifecycleState.PREPARE, reason, LifecycleState.INIT, LifecycleState.PLAN);
    }

    /** PREPARE → EXECUTE. */
    public void execute(String reason) {
        move(LifecycleState.EXECUTE, reason, LifecycleState.PREPARE);
    }

    /** EXECUTE → VALIDATE. */
    public void validate(String reason) {
        move(LifecycleState.VALIDATE, reason, LifecycleState.EXECUTE);
    }

    /** VALIDATE → EXECUTE, the retry transition: the attempt number increases. */
    public synchronized void retry(String reason) {
        if (!path.retriesFromValidate()) {
            throw illegal(LifecycleState.EXECUTE, "the " + path + " path does not retry from VALIDATE");
        }
        requireIn(LifecycleState.EXECUTE, LifecycleState.VALIDATE);
        state = state.nextAttempt();
        enter(LifecycleState.EXECUTE, reason);
    }

    /** VALIDATE → COMPLETE, or EXECUTE → COMPLETE on a path that completes without validating. */
    public synchronized void complete(String reason) {
        if (path.validatesBeforeCompleting()) {
            requireIn(LifecycleState.COMPLETE, LifecycleState.VALIDATE);
        } else {
            requireIn(LifecycleState.COMPLETE, LifecycleState.EXECUTE, LifecycleState.VALIDATE);
        }
        enter(LifecycleState.COMPLETE, reason);
    }

    /**
     * Any non-terminal state → CANCELLED when the failure is a cancellation, ERROR otherwise. The failure becomes the
     * state's last error.
     */
    public synchronized void fail(PaganticException failure) {
        Objects.requireNonNull(failure, "failure");
        LifecycleState target = failure.category() == FailureCategory.CANCELLATION
                ? LifecycleState.CANCELLED : LifecycleState.ERROR;
        if (state.current().isTerminal()) {
            throw illegal(target, "the lifecycle has already ended");
        }
        state = state.withError(failure);
        enter(target, failure.code().name() + ": " + failure.description());
    }

    /**
     * Any non-terminal state → ERROR whatever the failure's category: for a cancellation that ends a part of the work
     * but not the request, such as a plan step past its own per-step deadline (the step is cancelled, the request
     * fails). The failure becomes the state's last error.
     */
    public synchronized void error(PaganticException failure) {
        Objects.requireNonNull(failure, "failure");
        if (state.current().isTerminal()) {
            throw illegal(LifecycleState.ERROR, "the lifecycle has already ended");
        }
        state = state.withError(failure);
        enter(LifecycleState.ERROR, failure.code().name() + ": " + failure.description());
    }

    /** Records a failure that was recovered from (a retried attempt, a failed replica) without a transition. */
    public synchronized void recordRecoveredError(PaganticException failure) {
        state = state.withError(Objects.requireNonNull(failure, "failure"));
    }

    /** Records a completed plan step. */
    public synchronized void stepCompleted(String stepName) {
        if (state.current() != LifecycleState.EXECUTE && state.current() != LifecycleState.VALIDATE) {
            throw new IllegalStateException("a plan step completes in EXECUTE or VALIDATE, not " + state.current());
        }
        state = state.withCompletedStep(Objects.requireNonNull(stepName, "stepName"));
    }

    private synchronized void move(LifecycleState target, String reason, LifecycleState... from) {
        requireIn(target, from);
        enter(target, reason);
    }

    private void enter(LifecycleState target, String reason) {
        if (!path.visits(target)) {
            throw illegal(target, "the " + path + " path never visits " + target);
        }
        LifecycleState from = state.current();
        state = state.enter(target, context.now());
        Objects.requireNonNull(reason, "reason");
        if (listener != TransitionListener.NOOP) {
            listener.onTransition(new Transition(context.correlation(), from, target, state.attempt(), reason,
                    state.enteredAt()));
        }
    }

    private void requireIn(LifecycleState target, LifecycleState... allowed) {
        for (LifecycleState candidate : allowed) {
            if (state.current() == candidate) {
                return;
            }
        }
        throw illegal(target, "not allowed from " + state.current());
    }

    private IllegalStateException illegal(LifecycleState target, String why) {
        return new IllegalStateException("illegal lifecycle transition " + state.current() + " -> " + target + ": " + why);
    }
}
