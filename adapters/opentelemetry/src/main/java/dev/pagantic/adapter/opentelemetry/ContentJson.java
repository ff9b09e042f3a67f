package dev.pagantic.adapter.opentelemetry;

import dev.pagantic.core.Message;
import dev.pagantic.core.ToolCall;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import tools.jackson.databind.json.JsonMapper;

/**
 * Prompt and completion content in the conventions' message shape ({@code role}, {@code parts} of type {@code text},
 * {@code tool_call} or {@code tool_call_response}, and {@code finish_reason} on output messages), as JSON text: what
 * {@code gen_ai.input.messages} and {@code gen_ai.output.messages} hold when content capture is on.
 */
final class ContentJson {

    private static final JsonMapper JSON = JsonMapper.builder().build();

    private ContentJson() {
    }

    static String messages(List<Message> messages) {
        List<Object> out = new ArrayList<>(messages.size());
        for (Message message : messages) {
            out.add(message(message, ""));
        }
        return JSON.writeValueAsString(out);
    }

    static String output(String content, List<ToolCall> toolCalls, String finishReason) {
        return JSON.writeValueAsString(List.of(message(Message.assistant(content, toolCalls), finishReason)));
    }

    static String arguments(Map<String, Object> arguments) {
        return JSON.writeValueAsString(arguments);
    }

    private static Map<String, Object> message(Message message, String finishReason) {
        List<Object> parts = new ArrayList<>();
        if (!message.toolCallId().isEmpty()) {
            parts.add(part("tool_call_response", "id", message.toolCallId(), "response", message.content()));
        } else if (!message.content().isEmpty()) {
            parts.add(part("text", "content", message.content()));
        }
        for (ToolCall call : message.toolCalls()) {
            Map<String, Object> part = part("tool_call", "id", call.id(), "name", call.name());
            part.put("arguments", call.arguments());
            parts.add(part);
        }
        Map<String, Object> out = new LinkedHashMap<>();
        out.put("role", message.role().wireName());
        out.put("parts", parts);
        if (!finishReason.isEmpty()) {
            out.put("finish_reason", finishReason);
        }
        return out;
    }

    /** A part: its type first, then the given keys and values, in order. */
    private static Map<String, Object> part(String type, String... keysAndValues) {
        Map<String, Object> part = new LinkedHashMap<>();
        part.put("type", type);
        for (int i = 0; i < keysAndValues.length; i += 2) {
            part.put(keysAndValues[i], keysAndValues[i + 1]);
        }
        return part;
    }
}
