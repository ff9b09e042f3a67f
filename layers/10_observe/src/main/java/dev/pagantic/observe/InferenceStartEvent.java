package dev.pagantic.observe;

import java.util.Objects;
import java.util.OptionalDouble;

/**
 * An inference call is starting (the specification's {@code InferenceStartEvent}). As a generic event: layer
 * {@code inference}, action {@value #ACTION}, data {@code model}, {@code message_count}, {@code tool_defs_count},
 * {@code schema_present}, {@code grammar_present} and {@code temperature}, every one always present: a call that leaves
 * the temperature to the engine's default has {@code temperature} null, so that "not set" is written rather than left
 * out. {@code model} is beyond the specification's fields: the engine called, by model name or catalogue id.
 *
 * @param context        where and when; carries the correlation ids
 * @param model          the engine that is called: its model name, or its id in an engine catalogue
 * @param messageCount   messages sent to the engine
 * @param toolDefsCount  tool definitions offered
 * @param schemaPresent  whether an output schema was given
 * @param grammarPresent whether a GBNF grammar was given
 * @param temperature    the sampling temperature, finite and not negative; empty when the engine's default applies
 */
public record InferenceStartEvent(EventContext context, String model, int messageCount, int toolDefsCount,
                                  boolean schemaPresent, boolean grammarPresent, OptionalDouble temperature)
        implements SchemaEvent {

    /** The generic event's action. */
    public static final String ACTION = "inference_start";

    public InferenceStartEvent {
        Objects.requireNonNull(context, "context");
        Objects.requireNonNull(model, "model");
        Checks.requireNonNegative(messageCount, "message_count");
        Checks.requireNonNegative(toolDefsCount, "tool_defs_count");
        Objects.requireNonNull(temperature, "temperature");
        if (temperature.isPresent() && !(Double.isFinite(temperature.getAsDouble())
                && temperature.getAsDouble() >= 0)) {
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
        return context.eventBuilder(layer(), action())
                .data("model", model)
                .data("message_count", messageCount)
                .data("tool_defs_count", toolDefsCount)
                .data("schema_present", schemaPresent)
                .data("grammar_present", grammarPresent)
                .data("temperature", temperature.isPresent() ? temperature.getAsDouble() : null)
                .build();
    }
}
