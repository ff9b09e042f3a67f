package dev.pagantic.core;

import dev.pagantic.core.internal.JsonValues;
import java.util.Map;
import java.util.Objects;

/**
 * A model's request to run a tool.
 *
 * @param id        the call id that the tool's result refers back to; unique within a response
 * @param name      the tool's name
 * @param arguments the arguments as a JSON object (maps, lists, strings, numbers, booleans, null), in the order the
 *                  model produced them; an immutable deep copy
 */
public record ToolCall(String id, String name, Map<String, Object> arguments) {

    public ToolCall {
        requireText(id, "id");
        requireText(name, "name");
        Objects.requireNonNull(arguments, "arguments");
        try {
            arguments = JsonValues.copyObject(arguments);
        } catch (IllegalArgumentException notJson) {
            throw PaganticException.builder(ErrorCode.CONFIG_INVALID,
                    "tool call arguments must be a JSON object: " + notJson.getMessage())
                    .detail("tool", name).cause(notJson).build();
        }
    }

    /** A call with the given id, name and arguments. */
    @SuppressWarnings("unchecked") // safe: the constructor makes an immutable copy
    public static ToolCall of(String id, String name, Map<String, ?> arguments) {
        return new ToolCall(id, name, (Map<String, Object>) arguments);
    }

    static void requireText(String value, String field) {
        if (value == null || value.isBlank()) {
            throw PaganticException.of(ErrorCode.CONFIG_INVALID, field + " must not be blank");
        }
    }
}
