package dev.pagantic.archfixture.compliant.inference;

import dev.pagantic.archfixture.compliant.core.Message;
import java.util.List;

/** The fixture's inference request. */
public record Request(List<Message> messages) {

    public Request {
        messages = List.copyOf(messages);
    }
}
