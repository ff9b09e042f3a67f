package dev.pagantic.observe;

import java.util.Objects;

/**
 * A request moved between lifecycle states (the specification's {@code LifecycleTransitionEvent}), for example
 * {@code EXECUTE -> VALIDATE} or, on a retry, {@code VALIDATE -> EXECUTE} with the attempt incremented. States are
 * strings because the lifecycle's state type belongs to orchestrate, which this layer cannot import; orchestrate
 * passes its state names ({@code INIT}, {@code PLAN}, ...). As a generic event: layer {@code orchestrate}, action
 * {@value #ACTION}, data {@code from_state}, {@code to_state}, {@code attempt}, {@code reason}.
 *
 * @param context   where and when; carries the correlation ids
 * @param fromState the state left; empty for the entry into the first state
 * @param toState   the state entered; not blank
 * @param attempt   the attempt number (incremented on retry); not negative
 * @param reason    why the transition happened; may be empty
 */
public record LifecycleTransitionEvent(EventContext context, String fromState, String toState, int attempt,
                                       String reason) implements SchemaEvent {

    /** The generic event's action. */
    public static final String ACTION = "lifecycle_transition";

    public LifecycleTransitionEvent {
        Objects.requireNonNull(context, "context");
        Objects.requireNonNull(fromState, "from_state");
        Checks.requireNonBlank(toState, "to_state");
        Checks.requireNonNegative(attempt, "attempt");
        Objects.requireNonNull(reason, "reason");
    }

    @Override
    public String layer() {
        return "orchestrate";
    }

    @Override
    public String action() {
        return ACTION;
    }

    @Override
    public Event toEvent() {
        return context.eventBuilder(layer(), action())
                .data("from_state", fromState)
                .data("to_state", toState)
                .data("attempt", attempt)
                .data("reason", reason)
                .build();
    }
}
