package dev.pagantic.observe;

import dev.pagantic.core.CallContext;
import dev.pagantic.core.Correlation;
import java.time.Instant;
import java.util.Objects;

/**
 * Where and when a {@link SchemaEvent} happened, and the check of the specification's required event fields.
 *
 * <p>The specification requires, on every event:
 * <table>
 *   <caption>Required event fields</caption>
 *   <tr><th>Field</th><th>Required</th><th>How it is enforced</th></tr>
 *   <tr><td>{@code request_id}</td><td>always</td><td>a blank {@link Correlation#requestId()} is refused</td></tr>
 *   <tr><td>{@code session_id}</td><td>inside an AgentLoop (multi-turn)</td><td>the emitter declares
 *       {@link #inConversation()}; a blank {@link Correlation#sessionId()} is then refused</td></tr>
 *   <tr><td>{@code step_name}</td><td>inside a PlanExecutor</td><td>the emitter declares
 *       {@link #inStep(String)} with the step's name; a blank name is refused</td></tr>
 *   <tr><td>{@code tool_call_id}</td><td>on tool events</td><td>{@link ToolStartEvent} and {@link ToolEndEvent}
 *       refuse a blank tool call id</td></tr>
 * </table>
 * Whether an event was emitted in a conversation or a plan step is known only to its emitter (orchestrate), so the
 * emitter says so, and this type refuses the declaration when the field it makes required is missing. Refusals are
 * {@code PaganticException}s with code {@code CONFIG_INVALID} and a {@code field} detail naming the field. A session
 * id or step name that is present is always written, required or not.
 *
 * <pre>{@code
 * EventContext where = EventContext.of(ctx).inConversation();        // AgentLoop turn
 * EventContext step = EventContext.of(stepCtx).inStep("summarise");   // PlanExecutor step
 * }</pre>
 *
 * @param timestamp    when the event happened
 * @param correlation  the ids of the call it happened in
 * @param conversation whether it happened inside a multi-turn conversation (an AgentLoop), which makes
 *                     {@code session_id} required
 * @param stepName     the plan step it happened in; empty outside a plan
 */
public record EventContext(Instant timestamp, Correlation correlation, boolean conversation, String stepName) {

    public EventContext {
        Objects.requireNonNull(timestamp, "timestamp");
        Objects.requireNonNull(correlation, "correlation");
        Objects.requireNonNull(stepName, "stepName");
        if (correlation.requestId().isBlank()) {
            throw Checks.invalid("request_id", "every event must carry a request_id");
        }
        if (conversation && correlation.sessionId().isBlank()) {
            throw Checks.invalid("session_id", "an event inside a conversation must carry a session_id");
        }
    }

    /** The context of an event happening now in the given call: its correlation ids and its clock's instant. */
    public static EventContext of(CallContext context) {
        Objects.requireNonNull(context, "context");
        return new EventContext(context.now(), context.correlation(), false, "");
    }

    /** The context of an event with the given correlation ids and timestamp. */
    public static EventContext of(Correlation correlation, Instant timestamp) {
        return new EventContext(timestamp, correlation, false, "");
    }

    /** This context, declared as inside a multi-turn conversation: {@code session_id} becomes required. */
    public EventContext inConversation() {
        return new EventContext(timestamp, correlation, true, stepName);
    }

    /** This context, declared as inside the given plan step: {@code step_name} is required and must not be blank. */
    public EventContext inStep(String name) {
        Objects.requireNonNull(name, "stepName");
        if (name.isBlank()) {
            throw Checks.invalid("step_name", "an event inside a plan step must carry a step_name");
        }
        return new EventContext(timestamp, correlation, conversation, name);
    }

    /** This context at another instant (for example the end of the work, for an end event). */
    public EventContext at(Instant instant) {
        return new EventContext(instant, correlation, conversation, stepName);
    }

    /** The request id of the correlation. */
    public String requestId() {
        return correlation.requestId();
    }

    /** The session id of the correlation; empty outside conversations. */
    public String sessionId() {
        return correlation.sessionId();
    }

    /** Starts the generic event for this context, with {@code step_name} in its data when there is one. */
    Event.Builder eventBuilder(String layer, String action) {
        Event.Builder builder = Event.builder(correlation, timestamp, layer, action);
        if (!stepName.isEmpty()) {
            builder.data("step_name", stepName);
        }
        return builder;
    }
}
