package dev.pagantic.inference;

/** Why generation stopped. */
public enum FinishReason {
    /** The model finished (end of sequence, or a stop string). */
    STOP,
    /** The maximum number of tokens was reached; the output may be cut off. */
    LENGTH,
    /** The model requested tool calls. */
    TOOL_CALLS
}
