package dev.pagantic.orchestrate.lifecycle;

/** Receives every lifecycle transition, for event logs and tracing. Called on the executing thread. */
@FunctionalInterface
public interface TransitionListener {

    /** Ignores every transition. */
    TransitionListener NOOP = transition -> { };

    void onTransition(Transition transition);
}
