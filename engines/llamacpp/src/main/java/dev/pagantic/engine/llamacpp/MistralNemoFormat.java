package dev.pagantic.engine.llamacpp;

import dev.pagantic.core.Message;
import dev.pagantic.core.ToolCall;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.List;
import java.util.regex.Pattern;

/**
 * Mistral Nemo, recognised by {@code [TOOL_CALLS]} in the template: after any text, {@code [TOOL_CALLS]} and a JSON
 * array of {@code {"name": ..., "arguments": {...}, "id": "..."}}. The template requires each id to be 9 letters or
 * digits and refers back to it in the tool results, so the id is constrained so and kept as the call's id.
 */
final class MistralNemoFormat extends JsonListFormat {

    static final String OPEN = "[TOOL_CALLS]";
    private static final Pattern TEMPLATE_ID = Pattern.compile("[a-zA-Z0-9]{9}");
    private static final String ALPHANUMERIC = "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789";

    MistralNemoFormat() {
        super(OPEN, "[a-zA-Z0-9]{9}");
    }

    @Override
    public String name() {
        return "Mistral Nemo";
    }

    /**
     * The conversation with every call id the template would refuse (it raises unless an id is 9 letters or digits)
     * replaced by a 9-character one derived from it, the same for a call and its result.
     */
    @Override
    public List<Message> history(List<Message> messages) {
        return messages.stream().map(message -> {
            if (message.hasToolCalls()) {
                List<ToolCall> calls = message.toolCalls().stream()
                        .map(call -> ToolCall.of(templateId(call.id()), call.name(), call.arguments())).toList();
                return new Message(message.role(), message.content(), calls, message.toolCallId(), message.name());
            }
            if (!message.toolCallId().isEmpty()) {
                return new Message(message.role(), message.content(), message.toolCalls(),
                        templateId(message.toolCallId()), message.name());
            }
            return message;
        }).toList();
    }

    /** The id itself when the template takes it, otherwise 9 letters and digits from its hash. */
    static String templateId(String id) {
        if (TEMPLATE_ID.matcher(id).matches()) {
            return id;
        }
        try {
            byte[] hash = MessageDigest.getInstance("SHA-256").digest(id.getBytes(StandardCharsets.UTF_8));
            StringBuilder derived = new StringBuilder();
            for (int i = 0; i < 9; i++) {
                derived.append(ALPHANUMERIC.charAt((hash[i] & 0xFF) % ALPHANUMERIC.length()));
            }
            return derived.toString();
        } catch (NoSuchAlgorithmException missing) {
            throw new IllegalStateException("every JVM has SHA-256", missing);
        }
    }

}
