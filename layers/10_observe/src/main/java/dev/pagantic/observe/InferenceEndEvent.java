package dev.pagantic.observe;

import java.time.Duration;
import java.util.Objects;

/**
 * An inference call has ended (the specification's {@code InferenceEndEvent}). As a generic event: layer
 * {@code inference}, action {@value #ACTION}, the duration, data {@code duration_ms}, {@code tokens_in},
 * {@code tokens_out}, {@code finish_reason} ({@code stop}, {@code tool} or {@code error}) and
 * {@code tool_call_count}. A failed call has finish reason {@code error}; the failure itself (its code) is recorded
 * by the emitter's own error event, since the specification's schema has no field for it.
 *
 * @param context       where and when (the end); carries the correlation ids
 * @param durationMs    milliseconds the call took
 * @param tokensIn      prompt tokens
 * @param tokensOut     generated tokens
 * @param finishReason  how it ended
 * @param toolCallCount tool calls the model requested
 */
public record InferenceEndEvent(EventContext context, long durationMs, int tokensIn, int tokensOut,
                                InferenceOutcome finishReason, int toolCallCount) implements SchemaEvent {

    /** The generic event's action. */
    public static final String ACTION = "inference_end";

    public InferenceEndEvent {
        Objects.requireNonNull(context, "context");
        Checks.requireNonNegative(durationMs, "duration_ms");
        Checks.requireNonNegative(tokensIn, "tokens_in");
        Checks.requireNonNegative(tokensOut, "tokens_out");
        Objects.requireNonNull(finishReason, "finishReason");
        Checks.requireNonNegative(toolCallCount, "tool_call_count");
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
                .duration(Duration.ofMillis(durationMs))
                .data("duration_ms", durationMs)
                .data("tokens_in", tokensIn)
                .data("tokens_out", tokensOut)
                .data("finish_reason", finishReason.label())
                .data("tool_call_count", toolCallCount)
                .build();
    }
}
