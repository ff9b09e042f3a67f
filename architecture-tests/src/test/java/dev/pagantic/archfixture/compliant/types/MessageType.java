package dev.pagantic.archfixture.compliant.types;

import dev.pagantic.archfixture.compliant.core.Message;
import dev.pagantic.archfixture.compliant.core.Role;

/** Types uses core only: it turns parsed output into a core value. */
public final class MessageType {

    public Message convert(String text) {
        return new Message(Role.values()[0], text);
    }
}
