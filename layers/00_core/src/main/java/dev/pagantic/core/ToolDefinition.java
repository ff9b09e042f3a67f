package dev.pagantic.core;

import java.util.Objects;

/**
 * A tool as the model sees it: a name, what it does, and a JSON Schema for its arguments.
 *
 * @param name        the tool's name; letters, digits, underscores and hyphens, as the function-calling formats allow
 * @param description what the tool does, for the model; may be empty
 * @param parameters  the schema of the arguments object: its root's {@code type} is {@code object} (or allows
 *                    it, or is absent: the arguments are an object all the same)
 */
public record ToolDefinition(String name, String description, Schema parameters) {

    private static final java.util.regex.Pattern NAME = java.util.regex.Pattern.compile("[A-Za-z0-9_-]{1,64}");

    public ToolDefinition {
        if (name == null || !NAME.matcher(name).matches()) {
            throw PaganticException.builder(ErrorCode.CONFIG_INVALID,
                    "tool name must be 1-64 letters, digits, '_' or '-': " + name).detail("tool", name).build();
        }
        Objects.requireNonNull(description, "description");
        Objects.requireNonNull(parameters, "parameters");
        if (!parameters.types().isEmpty() && !parameters.types().contains("object")) {
            throw PaganticException.builder(ErrorCode.CONFIG_INVALID,
                    "tool parameters must be an object schema, got type " + parameters.types())
                    .detail("tool", name).build();
        }
    }

    /** A tool definition. */
    public static ToolDefinition of(String name, String description, Schema parameters) {
        return new ToolDefinition(name, description, parameters);
    }
}
