package dev.pagantic.engine.llamacpp;

import dev.pagantic.core.ErrorCode;
import dev.pagantic.core.Message;
import dev.pagantic.core.PaganticException;
import dev.pagantic.core.Role;
import java.util.ArrayList;
import java.util.List;

/**
 * Brings a conversation into the shape a strict chat template accepts, or refuses it in Java: in llama.cpp b4916 a
 * Jinja {@code raise_exception} inside {@code applyTemplate} is a C++ exception that nothing catches, and the JVM
 * aborts (SIGABRT; measured in a child JVM by {@code NativeAbortTest}). Templates raise on the conversation's shape, as
 * Mistral's and Gemma's demand strict user/assistant alternation, others a system message at the beginning only.
 *
 * <p>A template that never calls {@code raise_exception} accepts any shape and gets the messages unchanged. For one
 * that does, the messages it renders (a copy; the caller's history is untouched) have the shape every such template
 * accepts: an optional system message, then a user message, then user and assistant messages alternating. Tool results
 * and the assistant messages that call tools stay outside the alternation (as Mistral's template counts them); a
 * template without tool support never sees them (its tool format writes them as user and assistant text). To get
 * there:
 * <ul>
 *   <li>a system message after the first message (retrieved context, which the orchestrator places just before the
 *       latest user message, on the first turn too) is folded into the next user message, as a prefix followed by a
 *       blank line, so the context stays next to the question it serves and the leading system message stays the
 *       same from turn to turn (the prompt prefix a slot reuses). With no user message after it, it is appended to
 *       the leading system message (made for it if there is none): with no question to serve it is an instruction
 *       for the conversation, and folding it into an earlier user message would rewrite a turn the model has already
 *       answered;</li>
 *   <li>adjacent user messages, and adjacent assistant messages without tool calls, are joined with a blank
 *       line.</li>
 * </ul>
 * What cannot be brought into that shape without inventing or moving a message is refused with
 * {@code CONFIG_INVALID}: a conversation that opens (after the system message) with an assistant message, a tool call
 * or a tool result, and two user messages, or two assistant texts, with only tool calls and results between them.
 * The rules apply to the messages as they reach the template, after the tool format's rewriting.
 */
final class ChatShape {

    private static final String BLANK_LINE = "\n\n";

    private ChatShape() {
    }

    /**
     * The messages to render with the template.
     *
     * @param template the source of the template the messages are rendered with
     * @param messages the conversation; not modified
     * @return {@code messages} itself for a template that never raises, otherwise the conversation in the shape every
     *         raising template accepts
     * @throws PaganticException {@code CONFIG_INVALID} naming the message and the rule it breaks
     */
    static List<Message> accepted(String template, List<Message> messages) {
        if (!template.contains("raise_exception")) {
            return messages;
        }
        String leadingSystem = null;
        String pendingSystem = null;
        List<Message> shaped = new ArrayList<>(messages.size());
        Role turn = null; // the role of the last user or assistant text: the alternation the template checks
        for (int i = 0; i < messages.size(); i++) {
            Message message = messages.get(i);
            Role role = message.role();
            if (role == Role.SYSTEM) {
                if (i == 0) {
                    leadingSystem = message.content();
                } else {
                    pendingSystem = joined(pendingSystem, message.content());
                }
                continue;
            }
            if (turn == null && role != Role.USER) {
                throw refused(i, "opens the conversation with " + opening(message) + "; the model's chat template "
                        + "requires a user message first");
            }
            if (role == Role.USER && pendingSystem != null) {
                message = Message.user(joined(pendingSystem, message.content()));
                pendingSystem = null;
            }
            if (role == Role.TOOL || message.hasToolCalls()) {
                shaped.add(message);
            } else if (role != turn) {
                shaped.add(message);
                turn = role;
            } else {
                join(shaped, message, i);
            }
        }
        String system = pendingSystem == null ? leadingSystem : joined(leadingSystem, pendingSystem);
        if (system != null) {
            shaped.add(0, Message.system(system));
        }
        return List.copyOf(shaped);
    }

    /**
     * Joins a user or assistant text to the last message, which must be of the same role: with tool calls or results
     * between the two, joining would move one past them, so the conversation is refused instead.
     */
    private static void join(List<Message> shaped, Message message, int index) {
        Message last = shaped.get(shaped.size() - 1);
        if (last.role() != message.role() || last.hasToolCalls()) {
            throw refused(index, "follows another " + message.role().wireName() + " message with only tool calls "
                    + "and results between; the model's chat template requires user and assistant messages to "
                    + "alternate");
        }
        shaped.set(shaped.size() - 1, new Message(last.role(), joined(last.content(), message.content()), List.of(),
                "", ""));
    }

    /** The two texts with a blank line between, or the one that is not empty; {@code first} may be null. */
    private static String joined(String first, String second) {
        if (first == null || first.isEmpty()) {
            return second;
        }
        return second.isEmpty() ? first : first + BLANK_LINE + second;
    }

    private static String opening(Message message) {
        if (message.role() == Role.TOOL) {
            return "a tool result";
        }
        return message.hasToolCalls() ? "an assistant's tool call" : "an assistant message";
    }

    private static PaganticException refused(int index, String why) {
        return PaganticException.builder(ErrorCode.CONFIG_INVALID, "message " + index + " " + why)
                .detail("message", index).build();
    }
}
