package dev.pagantic.orchestrate.internal;

import dev.pagantic.core.ErrorCode;
import dev.pagantic.core.PaganticException;
import dev.pagantic.orchestrate.lifecycle.ExecutionLifecycle;
import dev.pagantic.orchestrate.lifecycle.LifecycleState;
import java.util.Optional;
import org.jspecify.annotations.Nullable;

/**
 * The lifecycle a pattern's call drives, if any: every method does nothing without one, so the patterns read the
 * same whether or not a caller asked for a lifecycle.
 */
public final class Phases {
    private final @Nullable ExecutionLifecycle lifecycle;

    public Phases(@Nullable ExecutionLifecycle lifecycle) {
        this.lifecycle = lifecycle;
    }

    /** The lifecycle in the options, checked to be in INIT or PLAN ({@code CONFIG_INVALID} otherwise). */
    public static Optional<ExecutionLifecycle> requireStartable(Optional<ExecutionLifecycle> given) {
        given.ifPresent(lifecycle -> {
            LifecycleState current = lifecycle.state().current();
            if (current != LifecycleState.INIT && current != LifecycleState.PLAN) {
                throw PaganticException.of(ErrorCode.CONFIG_INVALID,
                        "a call needs a lifecycle in INIT or PLAN, not " + current);
            }
        });
        return given;
    }

    public void prepare(String reason) {
        if (lifecycle != null) {
            lifecycle.prepare(reason);
        }
    }

    public void execute(String reason) {
        if (lifecycle != null) {
            lifecycle.execute(reason);
        }
    }

    public void validate(String reason) {
        if (lifecycle != null) {
            lifecycle.validate(reason);
        }
    }

    /**
     * Starts another attempt after a recovered failure: VALIDATE → EXECUTE (the attempt number increases) when the
     * failure was the output's; an attempt that failed while executing simply runs again in EXECUTE.
     */
    public void retry(PaganticException recovered, String reason) {
        if (lifecycle == null) {
            return;
        }
        lifecycle.recordRecoveredError(recovered);
        if (lifecycle.state().current() == LifecycleState.VALIDATE) {
            lifecycle.retry(reason);
        }
    }

    public void recovered(PaganticException failure) {
        if (lifecycle != null) {
            lifecycle.recordRecoveredError(failure);
        }
    }

    public void complete(String reason) {
        if (lifecycle != null) {
            lifecycle.complete(reason);
        }
    }

    public void fail(Throwable failure) {
        if (lifecycle == null || lifecycle.state().current().isTerminal()) {
            return;
        }
        lifecycle.fail(failure instanceof PaganticException pagantic ? pagantic
                : PaganticException.of(ErrorCode.CONFIG_INVALID,
                "unexpected failure in caller-supplied code: " + failure, failure));
    }
}
