package dev.pagantic.observe;

import java.util.Objects;

/**
 * An inference call is starting (the specification's {@code InferenceStartEvent}). As a generic event: layer
 * {@code inference}, action {@value #ACTION}, data {@code message_count}, {@code tool_defs_count},
 * {@code schema_present}, {@code grammar_present}, {@code temperature}.
 *
 * @param context        where and when; carries the correlation ids
 * @param messageCount   messages sent to the engine
 * @param toolDefsCount  tool definitions offered
 * @param schemaPresent  whether an output schema was given
 * @param grammarPresent whether a GBNF grammar was given
 * @param temperature    the sampling temperature; finite and not negative, or {@link #ENGINE_DEFAULT_TEMPERATURE}
 *                       (NaN) when the request leaves it to the engine, and the event then has no temperature field
 */
public record InferenceStartEvent(EventContext context, int messageCount, int toolDefsCount, boolean schemaPresent,
                                  boolean grammarPresent, double temperature) implements SchemaEvent {

    /** The generic event's action. */
    public static final String ACTION = "inference_start";

    /** The temperature of a request that leaves it to the engine's default. */
    public static final double ENGINE_DEFAULT_TEMPERATURE = Double.NaN;

    public InferenceStartEvent {
        Objects.requireNonNull(context, "context");
        Checks.requireNonNegative(messageCount, "message_count");
        Checks.requireNonNegative(toolDefsCount, "tool_defs_count");
        if (Double.isInfinite(temperature) || temperature < 0) {
            throw Checks.invalid("temperature", "temperature must be finite and not negative: " + temperature);
        }
    }

    @Override
    public String layer() {
        return "inference";
    }

    @Override
    public String action() {
        return ACTION;
    }

    @Override
    public Event toEvent() {
        Event.Builder event = context.eventBuilder(layer(), action())
                .data("message_count", messageCount)
                .data("tool_defs_count", toolDefsCount)
                .data("schema_present", schemaPresent)
                .data("grammar_present", grammarPresent);
        if (!Double.isNaN(temperature)) {
            event.data("temperature", temperature);
        }
        return event.build();
    }
}
