package dev.pagantic.observe;

import dev.pagantic.inference.FinishReason;
import java.util.Objects;

/** How an inference call ended, as the specification's {@code InferenceEndEvent.FinishReason}. */
public enum InferenceOutcome {
    /** The model finished its answer. */
    STOP("stop"),
    /** The model requested tool calls. */
    TOOL("tool"),
    /** The call failed. */
    ERROR("error");

    private final String label;

    InferenceOutcome(String label) {
        this.label = label;
    }

    /** The specification's string: {@code stop}, {@code tool} or {@code error}. */
    public String label() {
        return label;
    }

    /**
     * The outcome of a call that returned with the engine's finish reason. {@link FinishReason#LENGTH} (cut off at
     * the token limit) is a {@code stop}: the call returned normally, and the specification has no separate value;
     * whether a cut-off answer is acceptable is decided by validation, which records its own events.
     */
    public static InferenceOutcome of(FinishReason reason) {
        Objects.requireNonNull(reason, "reason");
        return switch (reason) {
            case STOP, LENGTH -> STOP;
            case TOOL_CALLS -> TOOL;
        };
    }

    /**
     * The outcome of the given label; {@code CONFIG_INVALID} for any string but {@code stop}, {@code tool} and
     * {@code error}.
     */
    public static InferenceOutcome fromLabel(String label) {
        Objects.requireNonNull(label, "label");
        for (InferenceOutcome outcome : values()) {
            if (outcome.label.equals(label)) {
                return outcome;
            }
        }
        throw Checks.invalid("finish_reason", "finish_reason must be stop, tool or error: " + label);
    }
}
