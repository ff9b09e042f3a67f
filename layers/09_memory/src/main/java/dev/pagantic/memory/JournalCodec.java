package dev.pagantic.memory;

import dev.pagantic.core.Message;
import dev.pagantic.core.Role;
import dev.pagantic.core.ToolCall;
import java.math.BigInteger;
import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.jspecify.annotations.Nullable;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;
import tools.jackson.databind.node.ArrayNode;
import tools.jackson.databind.node.ObjectNode;

/**
 * The JSON payloads of journal records. One object per record, with a type field {@code t}:
 * <pre>
 * {"t":"messages","messages":[{"role":"user","content":"hi"}, ...]}
 * {"t":"put","key":"k","value":...}
 * {"t":"remove","key":"k"}
 * {"t":"state","state":{"k":..., ...}}
 * </pre>
 * A message is {@code {"role", "content", "toolCalls":[{"id","name","arguments"}], "toolCallId", "name"}}, empty
 * fields left out. {@link JdbcConversationStore} stores each message and each state value in the same JSON forms, one
 * per row. Jackson 3 mappers are immutable, so the shared instance is not mutable state.
 */
final class JournalCodec {

    private static final JsonMapper MAPPER = JsonMapper.builder().build();

    private JournalCodec() {
    }

    static byte[] encode(JournalRecord record) {
        ObjectNode root = MAPPER.createObjectNode();
        if (record instanceof JournalRecord.Messages messages) {
            root.put("t", "messages");
            ArrayNode array = root.putArray("messages");
            messages.messages().forEach(message -> array.add(encodeMessage(message)));
        } else if (record instanceof JournalRecord.Put put) {
            root.put("t", "put");
            root.put("key", put.key());
            root.set("value", MAPPER.valueToTree(put.value()));
        } else if (record instanceof JournalRecord.Remove remove) {
            root.put("t", "remove");
            root.put("key", remove.key());
        } else if (record instanceof JournalRecord.State state) {
            root.put("t", "state");
            root.set("state", MAPPER.valueToTree(state.state()));
        } else {
            throw new IllegalArgumentException("unknown record " + record);
        }
        return MAPPER.writeValueAsBytes(root);
    }

    /**
     * Decodes a payload.
     *
     * @throws IllegalArgumentException if it is not a well-formed record (the caller reports it as corruption)
     */
    static JournalRecord decode(byte[] payload) {
        JsonNode root;
        try {
            root = MAPPER.readTree(payload);
        } catch (RuntimeException malformed) {
            throw new IllegalArgumentException("payload is not JSON: " + malformed.getMessage(), malformed);
        }
        if (root == null || !root.isObject()) {
            throw new IllegalArgumentException("payload is not a JSON object");
        }
        String type = text(root, "t");
        try {
            switch (type) {
                case "messages": {
                    List<Message> messages = new ArrayList<>();
                    for (JsonNode node : array(root, "messages")) {
                        messages.add(decodeMessage(node));
                    }
                    return new JournalRecord.Messages(messages);
                }
                case "put":
                    return new JournalRecord.Put(text(root, "key"), StateValues.normalize(text(root, "key"),
                            toJava(required(root, "value"), true)));
                case "remove":
                    return new JournalRecord.Remove(text(root, "key"));
                case "state": {
                    JsonNode state = required(root, "state");
                    if (!state.isObject()) {
                        throw new IllegalArgumentException("state is not an object");
                    }
                    Map<String, Object> values = new LinkedHashMap<>();
                    for (Map.Entry<String, JsonNode> entry : state.properties()) {
                        values.put(entry.getKey(), StateValues.normalize(entry.getKey(), toJava(entry.getValue(), true)));
                    }
                    return new JournalRecord.State(Collections.unmodifiableMap(values));
                }
                default:
                    throw new IllegalArgumentException("unknown record type '" + type + "'");
            }
        } catch (RuntimeException invalid) { // a PaganticException from a record constructor, for example
            if (invalid instanceof IllegalArgumentException) {
                throw invalid;
            }
            throw new IllegalArgumentException("invalid " + type + " record: " + invalid.getMessage(), invalid);
        }
    }

    /** A message as its JSON object text. */
    static String messageJson(Message message) {
        return MAPPER.writeValueAsString(encodeMessage(message));
    }

    /**
     * The message a JSON object text encodes.
     *
     * @throws IllegalArgumentException if it is not a well-formed message
     */
    static Message message(String json) {
        try {
            return decodeMessage(MAPPER.readTree(json));
        } catch (IllegalArgumentException invalid) {
            throw invalid;
        } catch (RuntimeException invalid) { // malformed JSON, an unknown role, a record constructor's check
            throw new IllegalArgumentException(invalid.getMessage(), invalid);
        }
    }

    /** A normalised session-state value as JSON text. */
    static String valueJson(Object value) {
        return MAPPER.writeValueAsString(value);
    }

    /**
     * The session-state value a JSON text encodes, normalised.
     *
     * @throws IllegalArgumentException if it is not JSON
     */
    static Object value(String key, String json) {
        JsonNode node;
        try {
            node = MAPPER.readTree(json);
        } catch (RuntimeException malformed) {
            throw new IllegalArgumentException("not JSON: " + malformed.getMessage(), malformed);
        }
        return StateValues.normalize(key, toJava(node, true));
    }

    private static ObjectNode encodeMessage(Message message) {
        ObjectNode node = MAPPER.createObjectNode();
        node.put("role", message.role().wireName());
        node.put("content", message.content());
        if (message.hasToolCalls()) {
            ArrayNode calls = node.putArray("toolCalls");
            for (ToolCall call : message.toolCalls()) {
                ObjectNode callNode = calls.addObject();
                callNode.put("id", call.id());
                callNode.put("name", call.name());
                callNode.set("arguments", MAPPER.valueToTree(call.arguments()));
            }
        }
        if (!message.toolCallId().isEmpty()) {
            node.put("toolCallId", message.toolCallId());
        }
        if (!message.name().isEmpty()) {
            node.put("name", message.name());
        }
        return node;
    }

    private static Message decodeMessage(JsonNode node) {
        if (!node.isObject()) {
            throw new IllegalArgumentException("message is not an object");
        }
        Role role = Role.fromWireName(text(node, "role"));
        List<ToolCall> calls = new ArrayList<>();
        JsonNode callsNode = node.get("toolCalls");
        if (callsNode != null) {
            for (JsonNode call : array(node, "toolCalls")) {
                JsonNode arguments = required(call, "arguments");
                if (!arguments.isObject()) {
                    throw new IllegalArgumentException("tool call arguments are not an object");
                }
                @SuppressWarnings("unchecked")
                Map<String, Object> args = (Map<String, Object>) toJava(arguments, false);
                calls.add(new ToolCall(text(call, "id"), text(call, "name"), args));
            }
        }
        return new Message(role, text(node, "content"), calls, optionalText(node, "toolCallId"),
                optionalText(node, "name"));
    }

    /**
     * A JSON tree as plain Java values. Integers become {@code Long} (or {@code BigInteger}) when {@code longs},
     * else the narrowest of {@code Integer}, {@code Long}, {@code BigInteger}, as Jackson reads tool arguments.
     */
    private static @Nullable Object toJava(JsonNode node, boolean longs) {
        if (node.isNull()) {
            return null;
        }
        if (node.isString()) {
            return node.stringValue();
        }
        if (node.isBoolean()) {
            return node.booleanValue();
        }
        if (node.isIntegralNumber()) {
            if (!longs && node.canConvertToInt()) {
                return node.intValue();
            }
            if (node.canConvertToLong()) {
                return node.longValue();
            }
            BigInteger big = node.bigIntegerValue();
            return big;
        }
        if (node.isNumber()) {
            return node.doubleValue();
        }
        if (node.isArray()) {
            List<Object> list = new ArrayList<>();
            for (JsonNode item : node) {
                list.add(toJava(item, longs));
            }
            return list;
        }
        if (node.isObject()) {
            Map<String, Object> map = new LinkedHashMap<>();
            for (Map.Entry<String, JsonNode> entry : node.properties()) {
                map.put(entry.getKey(), toJava(entry.getValue(), longs));
            }
            return map;
        }
        throw new IllegalArgumentException("unsupported JSON node " + node.getNodeType());
    }

    private static JsonNode required(JsonNode node, String field) {
        JsonNode value = node.get(field);
        if (value == null) {
            throw new IllegalArgumentException("missing field '" + field + "'");
        }
        return value;
    }

    private static String text(JsonNode node, String field) {
        JsonNode value = required(node, field);
        if (!value.isString()) {
            throw new IllegalArgumentException("field '" + field + "' is not a string");
        }
        return value.stringValue();
    }

    private static String optionalText(JsonNode node, String field) {
        return node.get(field) == null ? "" : text(node, field);
    }

    private static Iterable<JsonNode> array(JsonNode node, String field) {
        JsonNode value = required(node, field);
        if (!value.isArray()) {
            throw new IllegalArgumentException("field '" + field + "' is not an array");
        }
        return value;
    }
}
