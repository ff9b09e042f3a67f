package dev.pagantic.orchestrate.spi;

import dev.pagantic.observe.EventLog;

/**
 * Telemetry's view of orchestration: an {@link Interceptor} that also sees the scopes the work happens in, and an
 * event log that receives every event. Set once on a builder ({@code Orchestrator.builder().observer(...)}, or any
 * loop's), an observer
 * <ul>
 *   <li>wraps every {@link InvocationKind#REQUEST request} of the facade and every
 *       {@link InvocationKind#AGENT_TURN agent turn}, which plain interceptors never see, so that the work inside
 *       them (inferences, tool calls, plan steps) happens while the scope's span or observation is open;</li>
 *   <li>is the outermost interceptor of every inference, tool call and plan step, before the configured
 *       {@link Interceptor} (so a durable runner's replayed results are observed too);</li>
 *   <li>receives every event through {@link #eventLog()} (lifecycle transitions, votes, steps), next to the
 *       configured log.</li>
 * </ul>
 * The OpenTelemetry and Micrometer adapters implement it. Without one ({@link #NONE}, the default) nothing is added
 * to any call. An observer must proceed exactly once and rethrow what the work throws: it watches, it never changes
 * the outcome. Like interceptors, a round's tool calls pass through it one after another.
 */
public interface Observer extends Interceptor {

    /** Observes nothing. */
    Observer NONE = new Observer() {
    };

    /** Where the observer receives events; a log that keeps nothing by default. */
    default EventLog eventLog() {
        return EventLog.noOp();
    }
}
