package dev.pagantic.engine.llamacpp;

import de.kherud.llama.LlamaModel;
import dev.pagantic.core.ErrorCode;
import dev.pagantic.core.Message;
import dev.pagantic.core.PaganticException;
import dev.pagantic.core.ToolCall;
import dev.pagantic.core.ToolDefinition;
import java.util.List;
import java.util.Map;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;
import tools.jackson.databind.node.ArrayNode;
import tools.jackson.databind.node.ObjectNode;

/**
 * Renders a conversation into the model's prompt with the model's own chat template (Jinja, as llama-server does):
 * system, user, assistant (with its tool calls, in the OpenAI shape the template expects) and tool messages, the
 * offered tools, and template switches such as {@code enable_thinking}.
 *
 * <p>The template input is JSON written by Jackson, never by string concatenation: the binding's {@code applyTemplate}
 * aborts the whole JVM on malformed JSON (and on a lone surrogate escape), so every string is first made safe
 * ({@link BmpCodec}) and a NUL character, which would silently cut the prompt in native code, is refused.
 */
final class PromptRenderer {

    private static final JsonMapper JSON = JsonMapper.builder().build();

    private PromptRenderer() {
    }

    /**
     * The prompt for the messages.
     *
     * @throws PaganticException {@code CONFIG_INVALID} for a message or tool holding a NUL character
     */
    static String render(LlamaModel model, List<Message> messages, List<ToolDefinition> tools,
                         Map<String, Object> templateSwitches) {
        String input = JSON.writeValueAsString(input(messages, tools, templateSwitches));
        return BmpCodec.decode(model.applyTemplate(input));
    }

    static ObjectNode input(List<Message> messages, List<ToolDefinition> tools, Map<String, Object> templateSwitches) {
        ObjectNode input = JSON.createObjectNode();
        ArrayNode list = input.putArray("messages");
        for (int i = 0; i < messages.size(); i++) {
            list.add(message(messages.get(i), i));
        }
        if (!tools.isEmpty()) {
            ArrayNode definitions = input.putArray("tools");
            tools.forEach(tool -> definitions.add(tool(tool)));
        }
        input.put("add_generation_prompt", true);
        if (!templateSwitches.isEmpty()) {
            input.set("chat_template_kwargs", safe(JSON.valueToTree(templateSwitches), "template option"));
        }
        return input;
    }

    private static ObjectNode message(Message message, int index) {
        ObjectNode node = JSON.createObjectNode();
        node.put("role", message.role().wireName());
        if (message.hasToolCalls() && message.content().isEmpty()) {
            node.putNull("content"); // as llama-server sends it: templates such as DeepSeek R1's test for none
        } else {
            node.put("content", text(message.content(), "message " + index));
        }
        if (message.hasToolCalls()) {
            ArrayNode calls = node.putArray("tool_calls");
            for (ToolCall call : message.toolCalls()) {
                ObjectNode function = JSON.createObjectNode()
                        .put("name", text(call.name(), "tool call name"))
                        .put("arguments", text(JSON.writeValueAsString(call.arguments()), "tool call arguments"));
                calls.add(JSON.createObjectNode().put("id", text(call.id(), "tool call id")).put("type", "function")
                        .set("function", function));
            }
        }
        if (!message.toolCallId().isEmpty()) {
            node.put("tool_call_id", text(message.toolCallId(), "tool call id"));
        }
        return node;
    }

    private static ObjectNode tool(ToolDefinition tool) {
        ObjectNode function = JSON.createObjectNode()
                .put("name", text(tool.name(), "tool name"))
                .put("description", text(tool.description(), "tool description"));
        function.set("parameters", safe(JSON.valueToTree(tool.parameters().toJsonSchema()), "tool parameters"));
        return JSON.createObjectNode().put("type", "function").set("function", function);
    }

    /** The node with every string made safe for the native side. */
    private static JsonNode safe(JsonNode node, String where) {
        if (node.isString()) {
            return JSON.getNodeFactory().stringNode(text(node.stringValue(), where));
        }
        if (node.isObject()) {
            ObjectNode copy = JSON.createObjectNode();
            node.properties().forEach(entry -> copy.set(text(entry.getKey(), where), safe(entry.getValue(), where)));
            return copy;
        }
        if (node.isArray()) {
            ArrayNode copy = JSON.createArrayNode();
            node.forEach(element -> copy.add(safe(element, where)));
            return copy;
        }
        return node;
    }

    private static String text(String value, String where) {
        if (value.indexOf('\0') >= 0) {
            throw PaganticException.builder(ErrorCode.CONFIG_INVALID, where + " holds a NUL character, which native "
                    + "code would take for the end of the text").detail("where", where).build();
        }
        return BmpCodec.encode(value);
    }
}
