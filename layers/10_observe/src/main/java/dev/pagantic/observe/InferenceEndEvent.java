package dev.pagantic.observe;

import dev.pagantic.core.FinishReason;
import java.time.Duration;
import java.util.Objects;
import java.util.Optional;

/**
 * An inference call has ended (the specification's {@code InferenceEndEvent}). As a generic event: layer
 * {@code inference}, action {@value #ACTION}, the duration, data {@code duration_ms}, {@code tokens_in},
 * {@code tokens_out}, {@code finish_reason} and {@code tool_call_count}, and the error of a failed call.
 *
 * <p>The finish reason is pagantic's one {@link FinishReason} by its wire name ({@code stop}, {@code length},
 * {@code tool_calls}, {@code error}): the same value the engine's result and the facade's response carry for the same
 * call. It refines the specification's {@code stop | tool | error}: a call cut at the token limit says {@code length},
 * and a call that requested tools says {@code tool_calls}, as OpenAI's vocabulary does.
 *
 * @param context       where and when (the end); carries the correlation ids
 * @param durationMs    milliseconds the call took
 * @param tokensIn      prompt tokens
 * @param tokensOut     generated tokens
 * @param finishReason  how it ended; {@link FinishReason#ERROR} exactly when it failed
 * @param toolCallCount tool calls the model requested
 * @param error         how it failed, when it did
 */
public record InferenceEndEvent(EventContext context, long durationMs, int tokensIn, int tokensOut,
                                FinishReason finishReason, int toolCallCount, Optional<EventError> error)
        implements SchemaEvent {

    /** The generic event's action. */
    public static final String ACTION = "inference_end";

    public InferenceEndEvent {
        Objects.requireNonNull(context, "context");
        Checks.requireNonNegative(durationMs, "duration_ms");
        Checks.requireNonNegative(tokensIn, "tokens_in");
        Checks.requireNonNegative(tokensOut, "tokens_out");
        Objects.requireNonNull(finishReason, "finishReason");
        Checks.requireNonNegative(toolCallCount, "tool_call_count");
        Objects.requireNonNull(error, "error");
        if (error.isPresent() != (finishReason == FinishReason.ERROR)) {
            throw Checks.invalid("finish_reason", "a failed call, and only a failed call, finishes with error");
        }
    }

    /** The end of a call that returned. */
    public static InferenceEndEvent returned(EventContext context, long durationMs, int tokensIn, int tokensOut,
                                             FinishReason finishReason, int toolCallCount) {
        return new InferenceEndEvent(context, durationMs, tokensIn, tokensOut, finishReason, toolCallCount,
                Optional.empty());
    }

    /** The end of a call that failed: no tokens, finish reason {@code error}, and the failure. */
    public static InferenceEndEvent failed(EventContext context, long durationMs, Throwable failure) {
        return new InferenceEndEvent(context, durationMs, 0, 0, FinishReason.ERROR, 0,
                Optional.of(EventError.from(failure)));
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
                .duration(Duration.ofMillis(durationMs))
                .data("duration_ms", durationMs)
                .data("tokens_in", tokensIn)
                .data("tokens_out", tokensOut)
                .data("finish_reason", finishReason.wireName())
                .data("tool_call_count", toolCallCount);
        error.ifPresent(event::error);
        return event.build();
    }
}
