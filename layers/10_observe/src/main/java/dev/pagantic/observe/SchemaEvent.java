package dev.pagantic.observe;

import dev.pagantic.core.Correlation;

/**
 * One of the specification's typed event schemas (inference start and end, tool start and end, lifecycle
 * transitions). Each is an immutable record whose construction enforces the required event fields (see
 * {@link EventContext}), and each converts to the generic {@link Event} that an {@link EventLog} records: its fields
 * become the event's data under the specification's snake_case names ({@code message_count}, {@code tool_call_id},
 * ...), plus {@code step_name} inside a plan step.
 */
public sealed interface SchemaEvent
        permits InferenceStartEvent, InferenceEndEvent, ToolStartEvent, ToolEndEvent, LifecycleTransitionEvent {

    /** Where and when it happened. */
    EventContext context();

    /** The layer the generic event names. */
    String layer();

    /** The action the generic event names. */
    String action();

    /** The generic event, for an {@link EventLog}. */
    Event toEvent();

    /** The correlation ids. */
    default Correlation correlation() {
        return context().correlation();
    }

    /** The request id. */
    default String requestId() {
        return context().requestId();
    }
}
