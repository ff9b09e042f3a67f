package dev.pagantic.orchestrate.lifecycle;

import dev.pagantic.core.Correlation;
import java.time.Instant;
import java.util.Objects;

/**
 * One lifecycle transition, as reported to a {@link TransitionListener}: the payload of seed 001's
 * LifecycleTransitionEvent.
 *
 * @param correlation the request's correlation ids
 * @param from        the state left
 * @param to          the state entered
 * @param attempt     the attempt number after the transition
 * @param reason      why the transition happened
 * @param at          when it happened
 */
public record Transition(Correlation correlation, LifecycleState from, LifecycleState to, int attempt, String reason,
                         Instant at) {

    public Transition {
        Objects.requireNonNull(correlation, "correlation");
        Objects.requireNonNull(from, "from");
        Objects.requireNonNull(to, "to");
        Objects.requireNonNull(reason, "reason");
        Objects.requireNonNull(at, "at");
    }
}
