package dev.pagantic.adapter.api;

import dev.pagantic.core.Message;
import dev.pagantic.core.PaganticException;
import dev.pagantic.core.Role;
import dev.pagantic.core.Schema;
import dev.pagantic.core.ToolCall;
import dev.pagantic.core.ToolDefinition;
import dev.pagantic.orchestrate.facade.ExecutionHints;
import dev.pagantic.orchestrate.facade.Mode;
import dev.pagantic.orchestrate.facade.OutputContract;
import dev.pagantic.orchestrate.facade.SystemRequest;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import tools.jackson.core.JacksonException;
import tools.jackson.core.type.TypeReference;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;

/**
 * Maps an OpenAI chat completion request body onto a {@link SystemRequest}; the one place that knows OpenAI's request
 * vocabulary. It only translates: the prompt is built, tools are offered and output is validated behind the facade.
 *
 * <ul>
 *   <li>{@code messages}: {@code system} and {@code developer} become system messages, {@code user} user messages,
 *       {@code assistant} assistant messages with their {@code tool_calls} (arguments: a JSON object in a string),
 *       {@code tool} tool results answering {@code tool_call_id} (the tool's name is taken from the assistant call it
 *       answers). Content is a string, null, or an array of {@code {"type": "text", "text"}} parts, joined by line
 *       breaks; other part types (images, audio) are refused.</li>
 *   <li>{@code tools}: each {@code {"type": "function", "function": {name, description, parameters}}} becomes a caller
 *       tool ({@link SystemRequest.Builder#callerTool}): when the model calls it, the call is handed back to the
 *       client. {@code tool_choice} ({@code auto}, {@code none}, {@code required}) and {@code parallel_tool_calls}
 *       pass to the engine as options; naming one function is refused.</li>
 *   <li>{@code response_format}: {@code json_schema} selects {@link Mode#STRUCTURED} with the schema as the output
 *       contract; {@code text} is the default; {@code json_object} (JSON without a schema) is refused, since there is
 *       nothing to validate against.</li>
 *   <li>{@code temperature}, {@code top_p}, {@code max_completion_tokens} (or the older {@code max_tokens}),
 *       {@code seed} and {@code stop} (a string or up to 4 strings) become the request's inference settings, which
 *       reach the engine; {@code presence_penalty} and {@code frequency_penalty} engine options.</li>
 *   <li>Refused rather than ignored, because ignoring them would change the answer: {@code n} other than 1,
 *       {@code logprobs}, and llama-server's {@code grammar} extension. Other fields ({@code user}, {@code metadata},
 *       ...) are ignored.</li>
 * </ul>
 * Failures are {@link ApiFailure}s (400) or the {@link PaganticException} of the facade type that refused a value.
 */
final class ChatCompletionRequestMapper {

    private static final JsonMapper JSON = JsonMapper.builder().build();
    /** The most stop sequences a request may give, as OpenAI allows. */
    private static final int MAX_STOP = 4;
    private static final TypeReference<Map<String, Object>> OBJECT = new TypeReference<>() {
    };

    private final ApiLimits limits;

    ChatCompletionRequestMapper(ApiLimits limits) {
        this.limits = Objects.requireNonNull(limits, "limits");
    }

    /**
     * The call for a request body.
     *
     * @param body      the parsed JSON body
     * @param requestId the request id to assign
     * @param traceId   the trace id from the caller's {@code traceparent}; empty to have one generated
     * @throws ApiFailure        400 for a malformed request or one that breaks a limit
     * @throws PaganticException {@code CONFIG_INVALID} for a value a facade type refuses (a schema keyword, a
     *                           temperature out of range)
     */
    ChatCompletionCall map(JsonNode body, String requestId, String traceId) {
        require(body.isObject(), "the request body must be a JSON object");
        SystemRequest.Builder request = SystemRequest.builder().requestId(requestId).traceId(traceId)
                .messages(messages(body.path("messages")));
        boolean structured = responseFormat(body.path("response_format"), request);
        List<ToolDefinition> tools = tools(body.path("tools"));
        if (structured && !tools.isEmpty()) {
            throw ApiFailure.badRequest("'tools' and a json_schema 'response_format' cannot be combined: a structured "
                    + "answer is one validated JSON document");
        }
        tools.forEach(request::callerTool);
        refuseUnsupported(body);
        request.hints(hints(body));
        JsonNode streamOptions = body.path("stream_options");
        return new ChatCompletionCall(request.build(), optionalText(body, "model"), bool(body, "stream"),
                streamOptions.isObject() && bool(streamOptions, "include_usage"), structured);
    }

    // ------------------------------------------------------------------------------------------------------ messages

    private List<Message> messages(JsonNode array) {
        require(array.isArray(), "'messages' must be an array of messages");
        if (array.size() > limits.maxMessages()) {
            throw ApiFailure.badRequest("too many messages: " + array.size() + " (the limit is "
                    + limits.maxMessages() + ")");
        }
        List<Message> messages = new ArrayList<>();
        Map<String, String> toolNamesByCallId = new HashMap<>();
        int index = 0;
        for (JsonNode node : array) {
            String where = "messages[" + index++ + "]";
            require(node.isObject(), where + " must be an object");
            String role = text(node, "role", where);
            String content = content(node.path("content"), where);
            switch (role) {
                case "system", "developer" -> messages.add(Message.system(content));
                case "user" -> messages.add(Message.user(content));
                case "assistant" -> {
                    List<ToolCall> calls = toolCalls(node.path("tool_calls"), where);
                    calls.forEach(call -> toolNamesByCallId.put(call.id(), call.name()));
                    messages.add(new Message(Role.ASSISTANT, content, calls, "", ""));
                }
                case "tool" -> {
                    String callId = text(node, "tool_call_id", where);
                    String name = toolNamesByCallId.getOrDefault(callId, optionalText(node, "name"));
                    require(!name.isEmpty(), where + " answers tool call '" + callId
                            + "', which no earlier assistant message made");
                    messages.add(Message.toolResult(callId, name, content));
                }
                default -> throw ApiFailure.badRequest(where + " has an unsupported role '" + role
                        + "' (system, developer, user, assistant or tool)");
            }
        }
        return messages;
    }

    /** A message's content: a string, null, or text parts, within the length limit. */
    private String content(JsonNode content, String where) {
        String text;
        if (content.isMissingNode() || content.isNull()) {
            text = "";
        } else if (content.isString()) {
            text = content.stringValue();
        } else if (content.isArray()) {
            List<String> parts = new ArrayList<>();
            for (JsonNode part : content) {
                String type = part.path("type").asString("");
                require(type.equals("text") && part.path("text").isString(), where
                        + ": only text content parts ({\"type\": \"text\", \"text\": ...}) are supported, not '"
                        + type + "'");
                parts.add(part.path("text").stringValue());
            }
            text = String.join("\n", parts);
        } else {
            throw ApiFailure.badRequest(where + ".content must be a string or an array of text parts");
        }
        if (text.length() > limits.maxMessageChars()) {
            throw ApiFailure.badRequest(where + " is too long: " + text.length() + " characters (the limit is "
                    + limits.maxMessageChars() + ")");
        }
        return text;
    }

    private List<ToolCall> toolCalls(JsonNode array, String where) {
        if (array.isMissingNode() || array.isNull()) {
            return List.of();
        }
        require(array.isArray(), where + ".tool_calls must be an array");
        List<ToolCall> calls = new ArrayList<>();
        for (JsonNode call : array) {
            String type = call.path("type").asString("function");
            require(type.equals("function"), where + ": tool calls of type '" + type + "' are not supported");
            JsonNode function = call.path("function");
            require(function.isObject(), where + ": a tool call needs a 'function' object");
            String name = text(function, "name", where + ".tool_calls[].function");
            calls.add(ToolCall.of(text(call, "id", where + ".tool_calls[]"), name,
                    arguments(function.path("arguments"), where, name)));
        }
        return calls;
    }

    /** OpenAI sends arguments as a JSON object inside a string. */
    private static Map<String, Object> arguments(JsonNode arguments, String where, String tool) {
        if (arguments.isMissingNode() || arguments.isNull()
                || (arguments.isString() && arguments.stringValue().isBlank())) {
            return Map.of();
        }
        JsonNode parsed = arguments;
        if (arguments.isString()) {
            try {
                parsed = JSON.readTree(arguments.stringValue());
            } catch (JacksonException notJson) {
                throw ApiFailure.badRequest(where + ": the arguments of the call of '" + tool
                        + "' are not JSON: " + notJson.getOriginalMessage());
            }
        }
        require(parsed.isObject(), where + ": the arguments of the call of '" + tool + "' must be a JSON object");
        return JSON.convertValue(parsed, OBJECT);
    }

    // --------------------------------------------------------------------------------------------------------- tools

    private static List<ToolDefinition> tools(JsonNode array) {
        if (array.isMissingNode() || array.isNull()) {
            return List.of();
        }
        require(array.isArray(), "'tools' must be an array");
        List<ToolDefinition> tools = new ArrayList<>();
        for (JsonNode tool : array) {
            String type = tool.path("type").asString("");
            require(type.equals("function"), "tools of type '" + type + "' are not supported (only 'function')");
            JsonNode function = tool.path("function");
            require(function.isObject(), "a tool needs a 'function' object");
            String name = text(function, "name", "tools[].function");
            JsonNode parameters = function.path("parameters");
            Schema schema = parameters.isObject() ? Schema.fromJsonSchema(JSON.convertValue(parameters, OBJECT))
                    : Schema.object().build();
            tools.add(ToolDefinition.of(name, optionalText(function, "description"), schema));
        }
        return tools;
    }

    // ----------------------------------------------------------------------------------------------- output & hints

    /** Applies {@code response_format}; whether it asked for a JSON schema. */
    private static boolean responseFormat(JsonNode format, SystemRequest.Builder request) {
        if (format.isMissingNode() || format.isNull()) {
            return false;
        }
        require(format.isObject(), "'response_format' must be an object");
        String type = format.path("type").asString("");
        switch (type) {
            case "text":
                return false;
            case "json_schema":
                JsonNode schema = format.path("json_schema").path("schema");
                require(schema.isObject(), "response_format json_schema needs 'json_schema.schema', a JSON Schema "
                        + "object");
                // Strict: an answer that still breaks the schema after repair and retries is a 422, never content
                // with a 200 (an answer cut off at max_tokens is a 200 with finish_reason "length", as OpenAI's).
                request.mode(Mode.STRUCTURED).output(OutputContract.builder()
                        .schema(Schema.fromJsonSchema(JSON.convertValue(schema, OBJECT))).strictValidation(true)
                        .build());
                return true;
            case "json_object":
                throw ApiFailure.badRequest("response_format 'json_object' is not supported: send 'json_schema' with "
                        + "the schema the answer must follow");
            default:
                throw ApiFailure.badRequest("unsupported response_format type '" + type
                        + "' (text or json_schema)");
        }
    }

    private static ExecutionHints hints(JsonNode body) {
        ExecutionHints.Builder hints = ExecutionHints.builder();
        if (body.hasNonNull("temperature")) {
            hints.temperature(number(body, "temperature"));
        }
        if (body.hasNonNull("top_p")) {
            hints.topP(number(body, "top_p"));
        }
        String tokensField = body.hasNonNull("max_completion_tokens") ? "max_completion_tokens" : "max_tokens";
        if (body.hasNonNull(tokensField)) {
            JsonNode tokens = body.path(tokensField);
            require(tokens.isIntegralNumber() && tokens.canConvertToInt() && tokens.intValue() > 0,
                    "'" + tokensField + "' must be a positive integer");
            hints.maxTokens(tokens.intValue());
        }
        if (body.hasNonNull("seed")) {
            JsonNode seed = body.path("seed");
            require(seed.isIntegralNumber() && seed.canConvertToLong(), "'seed' must be an integer");
            hints.seed(seed.longValue());
        }
        hints.stop(stop(body.path("stop")));
        Map<String, Object> options = new LinkedHashMap<>();
        JsonNode toolChoice = body.path("tool_choice");
        if (!toolChoice.isMissingNode() && !toolChoice.isNull()) {
            require(toolChoice.isString(), "'tool_choice' naming a function is not supported (auto, none or "
                    + "required)");
            options.put("tool_choice", toolChoice.stringValue());
        }
        if (body.hasNonNull("parallel_tool_calls")) {
            options.put("parallel_tool_calls", bool(body, "parallel_tool_calls"));
        }
        for (String penalty : List.of("presence_penalty", "frequency_penalty")) {
            if (body.hasNonNull(penalty)) {
                options.put(penalty, number(body, penalty));
            }
        }
        return hints.options(options).build();
    }

    /** OpenAI's {@code stop}: a string or an array of up to 4 non-empty strings; none when absent. */
    private static List<String> stop(JsonNode stop) {
        if (stop.isMissingNode() || stop.isNull()) {
            return List.of();
        }
        if (stop.isString()) {
            require(!stop.stringValue().isEmpty(), "'stop' must not be empty");
            return List.of(stop.stringValue());
        }
        require(stop.isArray() && stop.size() <= MAX_STOP, "'stop' must be a string or an array of at most " + MAX_STOP
                + " strings");
        List<String> strings = new ArrayList<>();
        for (JsonNode text : stop) {
            require(text.isString() && !text.stringValue().isEmpty(), "every stop sequence must be a non-empty string");
            strings.add(text.stringValue());
        }
        return strings;
    }

    private static void refuseUnsupported(JsonNode body) {
        JsonNode n = body.path("n");
        // canConvertToInt first: Jackson 3's intValue() throws for an integer beyond the int range, which escaped as
        // a 500 (ChatCompletionRequestFuzzTest's seed n-beyond-int-range).
        require(n.isMissingNode() || n.isNull() || (n.isIntegralNumber() && n.canConvertToInt() && n.intValue() == 1),
                "'n' other than 1 is not supported: one choice per request");
        require(!body.path("logprobs").asBoolean(false), "'logprobs' is not supported");
        require(!body.has("grammar"), "a 'grammar' field (llama-server's extension) is not supported: constrain the "
                + "output with response_format json_schema");
    }

    // ---------------------------------------------------------------------------------------------------- accessors

    private static String text(JsonNode node, String field, String where) {
        JsonNode value = node.path(field);
        require(value.isString() && !value.stringValue().isBlank(), where + " needs '" + field + "', a string");
        return value.stringValue();
    }

    private static String optionalText(JsonNode node, String field) {
        JsonNode value = node.path(field);
        if (value.isMissingNode() || value.isNull()) {
            return "";
        }
        require(value.isString(), "'" + field + "' must be a string");
        return value.stringValue();
    }

    /**
     * A finite number. Read through {@code numberValue()}: Jackson 3's {@code doubleValue()} throws for an integer
     * beyond the double range (a 500 before; ChatCompletionRequestFuzzTest's seed number-beyond-double-range), and
     * {@code 1e400} reads as infinity.
     */
    private static double number(JsonNode node, String field) {
        JsonNode value = node.path(field);
        require(value.isNumber(), "'" + field + "' must be a number");
        double number = value.numberValue().doubleValue();
        require(Double.isFinite(number), "'" + field + "' must be a finite number");
        return number;
    }

    private static boolean bool(JsonNode node, String field) {
        JsonNode value = node.path(field);
        if (value.isMissingNode() || value.isNull()) {
            return false;
        }
        require(value.isBoolean(), "'" + field + "' must be true or false");
        return value.booleanValue();
    }

    private static void require(boolean condition, String message) {
        if (!condition) {
            throw ApiFailure.badRequest(message);
        }
    }
}
