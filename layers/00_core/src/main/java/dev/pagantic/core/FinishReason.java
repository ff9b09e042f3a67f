package dev.pagantic.core;

/**
 * Why an inference call, or a whole request, ended: the one finish reason of pagantic, used by engines' results, the
 * {@code inference_end} event and the facade's response alike, with OpenAI's {@code finish_reason} vocabulary as wire
 * names (plus {@code error}).
 */
public enum FinishReason {
    /** {@code stop}: the model finished (end of sequence, or a stop string). */
    STOP("stop"),
    /** {@code length}: the token limit was reached; the output may be cut off. */
    LENGTH("length"),
    /** {@code tool_calls}: the model requested tool calls. */
    TOOL_CALLS("tool_calls"),
    /**
     * {@code error}: the call or the request failed or was cancelled. Engines never return it: their failures are
     * exceptions; events and responses report a failed call with it.
     */
    ERROR("error");

    private final String wireName;

    FinishReason(String wireName) {
        this.wireName = wireName;
    }

    /** The stable wire name: {@code stop}, {@code length}, {@code tool_calls} or {@code error}. */
    public String wireName() {
        return wireName;
    }

    /**
     * The finish reason of a wire name.
     *
     * @throws PaganticException {@code CONFIG_INVALID} for any other string
     */
    public static FinishReason fromWireName(String wireName) {
        for (FinishReason reason : values()) {
            if (reason.wireName.equals(wireName)) {
                return reason;
            }
        }
        throw PaganticException.of(ErrorCode.CONFIG_INVALID,
                "finish reason must be stop, length, tool_calls or error: " + wireName);
    }
}
