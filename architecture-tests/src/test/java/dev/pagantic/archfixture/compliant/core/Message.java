package dev.pagantic.archfixture.compliant.core;

import dev.pagantic.archfixture.compliant.core.internal.Texts;

/** A core value that uses a core subpackage (one way only, so no cycle). */
public record Message(Role role, String text) {

    public Message {
        text = Texts.requireText(text);
    }
}
