package dev.pagantic.engine.llamacpp;

import dev.pagantic.core.ErrorCode;
import dev.pagantic.core.Message;
import dev.pagantic.core.PaganticException;
import dev.pagantic.core.Role;
import java.util.List;

/**
 * Refuses, in Java, a conversation whose shape the model's chat template would reject: in llama.cpp b4916 a Jinja
 * {@code raise_exception} inside {@code applyTemplate} is a C++ exception that nothing catches, and the JVM aborts
 * (SIGABRT; measured in a child JVM by {@code NativeAbortTest}). Templates raise on the conversation's shape, as
 * Mistral's and Gemma's demand strict user/assistant alternation, others a system message at the beginning only.
 *
 * <p>A template that never calls {@code raise_exception} accepts any shape, so the rules apply only to templates that
 * do; for those, the conversation must have the shape every such template accepts:
 * <ul>
 *   <li>a system message, if any, first;</li>
 *   <li>then a user message;</li>
 *   <li>then user and assistant messages alternating. Tool results and the assistant messages that call tools are
 *       outside the alternation (as Mistral's template counts them); a template without tool support never sees
 *       them (its tool format writes them as user and assistant text).</li>
 * </ul>
 * The rules are checked on the messages as they reach the template, after the tool format's rewriting.
 */
final class ChatShape {

    private ChatShape() {
    }

    /**
     * Checks the messages against the template's rules.
     *
     * @param template the source of the template the messages are rendered with
     * @throws PaganticException {@code CONFIG_INVALID} naming the message and the rule it breaks
     */
    static void requireAccepted(String template, List<Message> messages) {
        if (!template.contains("raise_exception")) {
            return;
        }
        Role previous = null;
        for (int i = 0; i < messages.size(); i++) {
            Message message = messages.get(i);
            Role role = message.role();
            if (role == Role.SYSTEM) {
                if (i > 0) {
                    throw refused(i, "is a system message after the conversation began; the model's chat template "
                            + "allows one only at the beginning");
                }
                continue;
            }
            if (role == Role.TOOL || message.hasToolCalls()) {
                if (previous == null) {
                    throw refused(i, "opens the conversation with " + (role == Role.TOOL ? "a tool result" : "an "
                            + "assistant's tool call") + "; the model's chat template requires a user message first");
                }
                continue;
            }
            if (previous == null && role != Role.USER) {
                throw refused(i, "opens the conversation as " + role.wireName() + "; the model's chat template "
                        + "requires a user message first");
            }
            if (role == previous) {
                throw refused(i, "follows another " + role.wireName() + " message; the model's chat template "
                        + "requires user and assistant messages to alternate (join the two into one)");
            }
            previous = role;
        }
    }

    private static PaganticException refused(int index, String why) {
        return PaganticException.builder(ErrorCode.CONFIG_INVALID, "message " + index + " " + why)
                .detail("message", index).build();
    }
}
