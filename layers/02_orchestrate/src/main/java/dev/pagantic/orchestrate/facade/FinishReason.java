package dev.pagantic.orchestrate.facade;

/**
 * Why a request ended, as adapters report it (OpenAI's {@code finish_reason} vocabulary plus {@code error}). Not a
 * field of seed 001's SystemResponse: it exists so that caller-executed tool calls can be handed back
 * ({@link #TOOL_CALLS}, with {@link SystemResponse#toolCallsRequested()}) and so that a truncated answer is visible.
 */
public enum FinishReason {
    /** {@code stop}: the model finished its answer. */
    STOP("stop"),
    /** {@code length}: generation stopped at the token limit. */
    LENGTH("length"),
    /** {@code tool_calls}: the model called tools the caller executes; see {@link SystemResponse#toolCallsRequested()}. */
    TOOL_CALLS("tool_calls"),
    /** {@code error}: the request failed or was cancelled; see {@link SystemResponse#error()}. */
    ERROR("error");

    private final String wireName;

    FinishReason(String wireName) {
        this.wireName = wireName;
    }

    /** The stable wire name: {@code stop}, {@code length}, {@code tool_calls} or {@code error}. */
    public String wireName() {
        return wireName;
    }

    /** The facade's reason for an engine's finish reason. */
    public static FinishReason from(dev.pagantic.inference.FinishReason reason) {
        Checks.notNull(reason, "finish reason");
        return switch (reason) {
            case STOP -> STOP;
            case LENGTH -> LENGTH;
            case TOOL_CALLS -> TOOL_CALLS;
        };
    }

    @Override
    public String toString() {
        return wireName;
    }
}
