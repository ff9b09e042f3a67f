package dev.pagantic.memory;

import dev.pagantic.core.Message;
import java.util.Objects;

/** The kinds of artefact that a turn produces, each of which a {@link MemoryPolicy} gives a {@link Retention}. */
public enum ArtifactKind {
    /** The system prompt (a system message of the conversation itself). */
    SYSTEM_PROMPT,
    /** A message from the user. */
    USER_MESSAGE,
    /** An assistant message with text only (an answer). */
    ASSISTANT_MESSAGE,
    /** An assistant message that requests tool calls. */
    TOOL_CALL,
    /** A tool message: the result of a tool call. */
    TOOL_RESULT,
    /** Context retrieved for this turn (a context provider's messages): ephemeral by default. */
    RETRIEVED_CONTEXT,
    /** Intermediate inference output: drafts, repair attempts, validation feedback, phase outputs. */
    INTERMEDIATE_OUTPUT,
    /** A session-state decision (a key-value pair of {@link SessionState}). */
    SESSION_STATE;

    /**
     * The kind of a conversation message, by its role: system → {@link #SYSTEM_PROMPT}, user →
     * {@link #USER_MESSAGE}, assistant with tool calls → {@link #TOOL_CALL}, other assistant →
     * {@link #ASSISTANT_MESSAGE}, tool → {@link #TOOL_RESULT}. Retrieved context and intermediate output cannot be told
     * apart by role; their producers name the kind explicitly.
     */
    public static ArtifactKind of(Message message) {
        Objects.requireNonNull(message, "message");
        return switch (message.role()) {
            case SYSTEM -> SYSTEM_PROMPT;
            case USER -> USER_MESSAGE;
            case ASSISTANT -> message.hasToolCalls() ? TOOL_CALL : ASSISTANT_MESSAGE;
            case TOOL -> TOOL_RESULT;
        };
    }
}
