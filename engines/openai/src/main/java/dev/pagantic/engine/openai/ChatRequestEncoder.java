package dev.pagantic.engine.openai;

import dev.pagantic.core.ErrorCode;
import dev.pagantic.core.Message;
import dev.pagantic.core.PaganticException;
import dev.pagantic.core.ToolCall;
import dev.pagantic.core.ToolDefinition;
import dev.pagantic.inference.InferenceSettings;
import dev.pagantic.inference.Request;
import java.util.HashSet;
import java.util.Map;
import java.util.Set;
import tools.jackson.databind.json.JsonMapper;
import tools.jackson.databind.node.ArrayNode;
import tools.jackson.databind.node.ObjectNode;

/**
 * Writes a {@link Request} as an OpenAI chat completions request body.
 *
 * <p>The request's options are the vendor-specific knobs ({@code top_k}, {@code min_p}, {@code tool_choice},
 * {@code chat_template_kwargs}...) and go to the top level unchanged. An option may not replace the fields that define
 * the exchange ({@code model}, {@code messages}, {@code stream}, {@code stream_options}, {@code tools}), nor a field
 * the request already sets through its typed accessors (a temperature given twice is refused rather than resolved by a
 * rule nobody remembers): both are {@code CONFIG_INVALID}.
 */
final class ChatRequestEncoder {

    private static final Set<String> RESERVED = Set.of("model", "messages", "stream", "stream_options", "tools");

    private final JsonMapper json;
    private final String model;
    private final ConstraintMode mode;

    ChatRequestEncoder(JsonMapper json, String model, ConstraintMode mode) {
        this.json = json;
        this.model = model;
        this.mode = mode;
    }

    /** The body, as bytes ready to send. */
    byte[] encode(Request request, boolean stream) {
        return json.writeValueAsBytes(toJson(request, stream));
    }

    /** The body as a JSON tree. */
    ObjectNode toJson(Request request, boolean stream) {
        ObjectNode body = json.createObjectNode();
        body.put("model", model);
        ArrayNode messages = body.putArray("messages");
        for (Message message : request.messages()) {
            messages.add(message(message));
        }
        if (!request.tools().isEmpty()) {
            ArrayNode tools = body.putArray("tools");
            for (ToolDefinition tool : request.tools()) {
                ObjectNode function = tools.addObject().put("type", "function").putObject("function");
                function.put("name", tool.name());
                if (!tool.description().isEmpty()) {
                    function.put("description", tool.description());
                }
                function.set("parameters", json.valueToTree(tool.parameters().toJsonSchema()));
            }
        }
        // A server that honours both refuses both at once (llama-server); the grammar is the more specific one.
        boolean sendGrammar = request.hasGrammar() && mode == ConstraintMode.GRAMMAR;
        if (sendGrammar) {
            body.put("grammar", request.grammar().orElseThrow().text());
        } else if (request.schema().isPresent()) {
            ObjectNode schema = body.putObject("response_format").put("type", "json_schema")
                    .putObject("json_schema");
            schema.put("name", "output");
            schema.set("schema", json.valueToTree(request.schema().get().toJsonSchema()));
            schema.put("strict", true);
        }
        InferenceSettings settings = request.settings();
        settings.temperature().ifPresent(value -> body.put("temperature", value));
        settings.topP().ifPresent(value -> body.put("top_p", value));
        if (settings.hasMaxTokens()) {
            body.put("max_tokens", settings.maxTokens());
        }
        settings.seed().ifPresent(value -> body.put("seed", value));
        if (!settings.stop().isEmpty()) {
            ArrayNode stop = body.putArray("stop");
            settings.stop().forEach(stop::add);
        }
        body.put("stream", stream);
        if (stream) {
            body.putObject("stream_options").put("include_usage", true);
        }
        Set<String> typed = new HashSet<>();
        body.propertyNames().forEach(typed::add);
        for (Map.Entry<String, Object> option : settings.options().entrySet()) {
            String key = option.getKey();
            if (RESERVED.contains(key)) {
                throw PaganticException.builder(ErrorCode.CONFIG_INVALID, "option '" + key
                        + "' cannot be passed through: the engine writes it from the request").detail("option", key)
                        .build();
            }
            if (typed.contains(key)) {
                throw PaganticException.builder(ErrorCode.CONFIG_INVALID, "option '" + key
                        + "' conflicts with the request's own " + key + ": set it once").detail("option", key)
                        .build();
            }
            body.set(key, json.valueToTree(option.getValue()));
        }
        return body;
    }

    private ObjectNode message(Message message) {
        ObjectNode node = json.createObjectNode().put("role", message.role().wireName());
        switch (message.role()) {
            case SYSTEM, USER -> node.put("content", message.content());
            case ASSISTANT -> {
                if (message.content().isEmpty() && message.hasToolCalls()) {
                    node.putNull("content"); // OpenAI's form of "only tool calls"
                } else {
                    node.put("content", message.content());
                }
                if (message.hasToolCalls()) {
                    ArrayNode calls = node.putArray("tool_calls");
                    for (ToolCall call : message.toolCalls()) {
                        ObjectNode function = calls.addObject().put("id", call.id()).put("type", "function")
                                .putObject("function");
                        function.put("name", call.name());
                        function.put("arguments", json.writeValueAsString(call.arguments())); // a JSON string
                    }
                }
            }
            case TOOL -> {
                node.put("tool_call_id", message.toolCallId());
                node.put("name", message.name()); // not required by OpenAI, used by chat templates of local servers
                node.put("content", message.content());
            }
        }
        return node;
    }
}
