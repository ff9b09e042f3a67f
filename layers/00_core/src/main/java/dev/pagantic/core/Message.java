package dev.pagantic.core;

import java.util.List;
import java.util.Objects;

/**
 * One message of a conversation. Which fields a message carries depends on its role, and the constructor enforces it:
 * <ul>
 *   <li>system and user messages carry content only;</li>
 *   <li>assistant messages carry content and/or tool calls (content may be empty when there are tool calls);</li>
 *   <li>tool messages carry content, the id of the call they answer, and the tool's name.</li>
 * </ul>
 * Absent string fields are empty strings, never null. Prefer the factories: {@link #system}, {@link #user},
 * {@link #assistant}, {@link #toolResult}.
 *
 * @param role       who the message is from
 * @param content    the text
 * @param toolCalls  the tool calls of an assistant message; empty otherwise
 * @param toolCallId the id of the call a tool message answers; empty otherwise
 * @param name       the tool's name on a tool message; empty otherwise
 */
public record Message(Role role, String content, List<ToolCall> toolCalls, String toolCallId, String name) {

    public Message {
        Objects.requireNonNull(role, "role");
        Objects.requireNonNull(content, "content");
        toolCalls = List.copyOf(Objects.requireNonNull(toolCalls, "toolCalls"));
        Objects.requireNonNull(toolCallId, "toolCallId");
        Objects.requireNonNull(name, "name");
        switch (role) {
            case SYSTEM, USER -> {
                reject(!toolCalls.isEmpty(), role, "tool calls");
                reject(!toolCallId.isEmpty(), role, "a tool call id");
                reject(!name.isEmpty(), role, "a tool name");
            }
            case ASSISTANT -> {
                reject(!toolCallId.isEmpty(), role, "a tool call id");
                reject(!name.isEmpty(), role, "a tool name");
            }
            case TOOL -> {
                reject(!toolCalls.isEmpty(), role, "tool calls");
                require(!toolCallId.isBlank(), "a tool message needs the id of the call it answers");
                require(!name.isBlank(), "a tool message needs the tool's name");
            }
        }
    }

    /** A system message. */
    public static Message system(String content) {
        return new Message(Role.SYSTEM, content, List.of(), "", "");
    }

    /** A user message. */
    public static Message user(String content) {
        return new Message(Role.USER, content, List.of(), "", "");
    }

    /** An assistant message with text only. */
    public static Message assistant(String content) {
        return new Message(Role.ASSISTANT, content, List.of(), "", "");
    }

    /** An assistant message that requests tool calls, with optional accompanying text. */
    public static Message assistant(String content, List<ToolCall> toolCalls) {
        return new Message(Role.ASSISTANT, content, toolCalls, "", "");
    }

    /** A tool message answering the call with the given id. */
    public static Message toolResult(String toolCallId, String name, String content) {
        return new Message(Role.TOOL, content, List.of(), toolCallId, name);
    }

    /** Whether this is an assistant message that requests tool calls. */
    public boolean hasToolCalls() {
        return !toolCalls.isEmpty();
    }

    private static void reject(boolean present, Role role, String what) {
        if (present) {
            throw PaganticException.of(ErrorCode.CONFIG_INVALID, "a " + role.wireName() + " message cannot carry "
                    + what);
        }
    }

    private static void require(boolean condition, String message) {
        if (!condition) {
            throw PaganticException.of(ErrorCode.CONFIG_INVALID, message);
        }
    }
}
