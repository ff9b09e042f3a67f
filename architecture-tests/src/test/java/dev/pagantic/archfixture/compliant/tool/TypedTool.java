package dev.pagantic.archfixture.compliant.tool;

import dev.pagantic.archfixture.compliant.types.MessageType;

/** A band layer may use types. */
public final class TypedTool implements Tool {

    private final MessageType type = new MessageType();

    @Override
    public String execute(String arguments) {
        return type.convert(arguments).text();
    }
}
