package dev.pagantic.orchestrate.lifecycle;

import java.util.EnumSet;
import java.util.Set;

/**
 * The states each orchestration pattern traverses (seed 001's "lifecycle per orchestration pattern" table). A
 * lifecycle refuses a transition into a state its pattern does not visit, so a pattern cannot wander off its path.
 */
public enum PatternPath {
    /** INIT → PREPARE → EXECUTE → COMPLETE; VALIDATE per turn when a turn's output is validated (chatStructured). */
    AGENT_LOOP(EnumSet.of(LifecycleState.PREPARE, LifecycleState.EXECUTE, LifecycleState.VALIDATE)),
    /** INIT → PREPARE → EXECUTE → VALIDATE → COMPLETE, with VALIDATE → EXECUTE retries. */
    SPECIALIZED_LOOP(EnumSet.of(LifecycleState.PREPARE, LifecycleState.EXECUTE, LifecycleState.VALIDATE)),
    /** INIT → PLAN → PREPARE → EXECUTE → VALIDATE → COMPLETE, with per-step VALIDATE → EXECUTE retries. */
    PLAN_EXECUTOR(EnumSet.of(LifecycleState.PLAN, LifecycleState.PREPARE, LifecycleState.EXECUTE,
            LifecycleState.VALIDATE)),
    /** INIT → PREPARE → EXECUTE → VALIDATE → COMPLETE; voting replaces retry, so VALIDATE never returns to EXECUTE. */
    REDUNDANT_LOOP(EnumSet.of(LifecycleState.PREPARE, LifecycleState.EXECUTE, LifecycleState.VALIDATE));

    private final Set<LifecycleState> visits;

    PatternPath(Set<LifecycleState> visits) {
        this.visits = visits;
    }

    /** Whether this pattern may enter the state (INIT and the terminal states belong to every path). */
    public boolean visits(LifecycleState state) {
        return state == LifecycleState.INIT || state.isTerminal() || visits.contains(state);
    }

    /** Whether VALIDATE may send this pattern back to EXECUTE. */
    public boolean retriesFromValidate() {
        return this != REDUNDANT_LOOP;
    }

    /** Whether this pattern must pass VALIDATE before COMPLETE. */
    public boolean validatesBeforeCompleting() {
        return this != AGENT_LOOP;
    }
}
