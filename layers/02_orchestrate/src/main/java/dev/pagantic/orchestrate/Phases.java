package dev.pagantic.orchestrate;

import dev.pagantic.core.ErrorCode;
import dev.pagantic.core.PaganticException;
import dev.pagantic.orchestrate.lifecycle.ExecutionLifecycle;
import dev.pagantic.orchestrate.lifecycle.LifecycleState;
import java.util.Optional;

/**
 * The lifecycle a pattern's call drives, if any: every method does nothing without one, so the patterns read the
 * same whether or not a caller asked for a lifecycle.
 */
final class Phases {
    private final ExecutionLifecycle lifecycle; // null: none

    Phases(ExecutionLifecycle lifecycle) {
        this.lifecycle = lifecycle;
    }

    /** The lifecycle in the options, checked to be in INIT or PLAN ({@code CONFIG_INVALID} otherwise). */
    static Optional<ExecutionLifecycle> requireStartable(Optional<ExecutionLifecycle> given) {
        given.ifPresent(lifecycle -> {
            LifecycleState current = lifecycle.state().current();
            if (current != LifecycleState.INIT && current != LifecycleState.PLAN) {
                throw PaganticException.of(ErrorCode.CONFIG_INVALID,
                        "a call needs a lifecycle in INIT or PLAN, not " + current);
            }
        });
        return given;
    }

    void prepare(String reason) {
        if (lifecycle != null) {
            lifecycle.prepare(reason);
        }
    }

    void execute(String reason) {
        if (lifecycle != null) {
            lifecycle.execute(reason);
        }
    }

    void validate(String reason) {
        if (lifecycle != null) {
            lifecycle.validate(reason);
        }
    }

    /**
     * Starts another attempt after a recovered failure: VALIDATE → EXECUTE (the attempt number increases) when the
     * failure was the output's; an attempt that failed while executing simply runs again in EXECUTE.
     */
    void retry(PaganticException recovered, String reason) {
        if (lifecycle == null) {
            return;
        }
        lifecycle.recordRecoveredError(recovered);
        if (lifecycle.state().current() == LifecycleState.VALIDATE) {
            lifecycle.retry(reason);
        }
    }

    void recovered(PaganticException failure) {
        if (lifecycle != null) {
            lifecycle.recordRecoveredError(failure);
        }
    }

    void complete(String reason) {
        if (lifecycle != null) {
            lifecycle.complete(reason);
        }
    }

    void fail(Throwable failure) {
        if (lifecycle == null || lifecycle.state().current().isTerminal()) {
            return;
        }
        lifecycle.fail(failure instanceof PaganticException pagantic ? pagantic
                : PaganticException.of(ErrorCode.CONFIG_INVALID,
                "unexpected failure in caller-supplied code: " + failure, failure));
    }
}
