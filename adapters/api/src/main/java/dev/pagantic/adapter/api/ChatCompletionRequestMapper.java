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
import java.util.OptionalLong;
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
 *   <li>{@code temperature} (0 to 2), {@code top_p} (0 to 1), {@code max_completion_tokens} (or the older
 *       {@code max_tokens}), {@code seed} and {@code stop} (a string or up to 4 strings) become the request's
 *       inference settings, which reach the engine; {@code presence_penalty} and {@code frequency_penalty} (-2 to 2)
 *       engine options, as are llama-server's {@code top_k}, {@code min_p}, {@code repeat_penalty},
 *       {@code repeat_last_n} and {@code cache_prompt}; {@code logit_bias} (token ids to biases from -100 to 100) is
 *       the engine option of that name. Ranges are OpenAI's, and so are the codes of a value outside
 *       them ({@code decimal_above_max_value}, ...).</li>
 *   <li>{@code n} (1 to 128) is the number of choices ({@link ChatCompletionCall#choices()}).</li>
 *   <li>Refused (400 {@code unsupported_parameter}) rather than ignored, because ignoring them would change the
 *       answer: {@code logprobs} and {@code top_logprobs} (llama.cpp's {@code n_probs}, which aborts the JVM in
 *       java-llama.cpp 4.2.0 at any value), {@code audio}, {@code prediction},
 *       {@code modalities} other than text, llama-server's {@code grammar} and its other sampling extensions
 *       ({@code mirostat}, {@code typical_p}, {@code dry_*}, {@code n_probs}, ...). Other fields ({@code user},
 *       {@code metadata}, {@code store}, ...) are ignored, as OpenAI-compatible servers do.</li>
 * </ul>
 * Failures are {@link ApiFailure}s (400, naming the field at fault as {@code param}) or the {@link PaganticException}
 * of the facade type that refused a value.
 */
final class ChatCompletionRequestMapper {

    private static final JsonMapper JSON = JsonMapper.builder().build();
    /** The most stop sequences a request may give, as OpenAI allows. */
    private static final int MAX_STOP = 4;
    /**
     * llama-server's request extensions that this server does not honour: refused rather than ignored, since each
     * changes the answer ({@code top_k}, {@code min_p}, {@code repeat_penalty}, {@code repeat_last_n} and
     * {@code cache_prompt} are taken).
     */
    private static final List<String> LLAMA_SERVER_REFUSED = List.of("json_schema", "mirostat", "mirostat_tau",
            "mirostat_eta", "typical_p", "dynatemp_range", "dynatemp_exponent", "xtc_probability", "xtc_threshold",
            "dry_multiplier", "dry_base", "dry_allowed_length", "dry_penalty_last_n", "dry_sequence_breakers",
            "top_n_sigma", "n_probs", "samplers", "id_slot", "ignore_eos", "n_keep", "lora");
    /** The most choices a request may ask for, as OpenAI allows. */
    static final int MAX_CHOICES = 128;
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
        if (!body.isObject()) {
            throw ApiFailure.badRequest("the request body must be a JSON object");
        }
        require(body.has("messages"), "messages", "missing_required_parameter", "'messages' is required");
        SystemRequest.Builder request = SystemRequest.builder().requestId(requestId).traceId(traceId)
                .messages(messages(body.path("messages")));
        boolean structured = responseFormat(body.path("response_format"), request);
        List<ToolDefinition> tools = tools(body.path("tools"));
        if (structured && !tools.isEmpty()) {
            throw ApiFailure.badParam("tools", "unsupported_value", "'tools' and a json_schema 'response_format' cannot "
                    + "be combined: a structured answer is one validated JSON document");
        }
        tools.forEach(request::callerTool);
        refuseUnsupported(body);
        request.hints(hints(body));
        JsonNode streamOptions = body.path("stream_options");
        require(streamOptions.isMissingNode() || streamOptions.isNull() || streamOptions.isObject(), "stream_options",
                "invalid_type", "'stream_options' must be an object");
        return new ChatCompletionCall(request.build(), optionalText(body, "model"), bool(body, "stream"),
                streamOptions.isObject() && bool(streamOptions, "include_usage"), structured, choices(body),
                body.hasNonNull("seed") ? OptionalLong.of(body.path("seed").longValue()) : OptionalLong.empty());
    }

    // ------------------------------------------------------------------------------------------------------ messages

    private List<Message> messages(JsonNode array) {
        require(array.isArray(), "messages", "invalid_type", "'messages' must be an array of messages");
        require(!array.isEmpty(), "messages", "empty_array", "'messages' must hold at least one message");
        require(array.size() <= limits.maxMessages(), "messages", "array_above_max_length", "too many messages: "
                + array.size() + " (the limit is " + limits.maxMessages() + ")");
        List<Message> messages = new ArrayList<>();
        Map<String, String> toolNamesByCallId = new HashMap<>();
        int index = 0;
        for (JsonNode node : array) {
            String where = "messages[" + index++ + "]";
            require(node.isObject(), where, "invalid_type", where + " must be an object");
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
                    require(!name.isEmpty(), where + ".tool_call_id", "invalid_value", where + " answers tool call '"
                            + callId + "', which no earlier assistant message made");
                    messages.add(Message.toolResult(callId, name, content));
                }
                default -> throw ApiFailure.badParam(where + ".role", "invalid_value", where
                        + " has an unsupported role '" + role + "' (system, developer, user, assistant or tool)");
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
                require(type.equals("text") && part.path("text").isString(), where + ".content",
                        "unsupported_value", where + ": only text content parts ({\"type\": \"text\", \"text\": ...}) are supported, not '"
                        + type + "'");
                parts.add(part.path("text").stringValue());
            }
            text = String.join("\n", parts);
        } else {
            throw ApiFailure.badParam(where + ".content", "invalid_type",
                    where + ".content must be a string or an array of text parts");
        }
        require(text.length() <= limits.maxMessageChars(), where + ".content", "string_above_max_length",
                where + " is too long: " + text.length() + " characters (the limit is " + limits.maxMessageChars()
                        + ")");
        return text;
    }

    private List<ToolCall> toolCalls(JsonNode array, String where) {
        if (array.isMissingNode() || array.isNull()) {
            return List.of();
        }
        require(array.isArray(), where + ".tool_calls", "invalid_type", where + ".tool_calls must be an array");
        List<ToolCall> calls = new ArrayList<>();
        for (JsonNode call : array) {
            String type = call.path("type").asString("function");
            require(type.equals("function"), where + ".tool_calls", "unsupported_value", where + ": tool calls of type '"
                    + type + "' are not supported");
            JsonNode function = call.path("function");
            require(function.isObject(), where + ".tool_calls", "invalid_type",
                    where + ": a tool call needs a 'function' object");
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
                // Jackson's own text names its classes and settings, so it is not echoed.
                throw ApiFailure.badParam(where + ".tool_calls", "invalid_value", where
                        + ": the arguments of the call of '" + tool + "' are not valid JSON");
            }
        }
        require(parsed.isObject(), where + ".tool_calls", "invalid_type", where + ": the arguments of the call of '"
                + tool + "' must be a JSON object");
        return JSON.convertValue(parsed, OBJECT);
    }

    // --------------------------------------------------------------------------------------------------------- tools

    private static List<ToolDefinition> tools(JsonNode array) {
        if (array.isMissingNode() || array.isNull()) {
            return List.of();
        }
        require(array.isArray(), "tools", "invalid_type", "'tools' must be an array");
        List<ToolDefinition> tools = new ArrayList<>();
        for (JsonNode tool : array) {
            String type = tool.path("type").asString("");
            require(type.equals("function"), "tools", "unsupported_value",
                    "tools of type '" + type + "' are not supported (only 'function')");
            JsonNode function = tool.path("function");
            require(function.isObject(), "tools", "invalid_type", "a tool needs a 'function' object");
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
        require(format.isObject(), "response_format", "invalid_type", "'response_format' must be an object");
        String type = format.path("type").asString("");
        switch (type) {
            case "text":
                return false;
            case "json_schema":
                JsonNode schema = format.path("json_schema").path("schema");
                require(schema.isObject(), "response_format.json_schema.schema", "missing_required_parameter",
                        "response_format json_schema needs 'json_schema.schema', a JSON Schema object");
                // Strict: an answer that still breaks the schema after repair and retries is a 422, never content
                // with a 200 (an answer cut off at max_tokens is a 200 with finish_reason "length", as OpenAI's).
                request.mode(Mode.STRUCTURED).output(OutputContract.builder()
                        .schema(Schema.fromJsonSchema(JSON.convertValue(schema, OBJECT))).strictValidation(true)
                        .build());
                return true;
            case "json_object":
                throw ApiFailure.badParam("response_format.type", "unsupported_value", "response_format "
                        + "'json_object' is not supported: send 'json_schema' with the schema the answer must follow");
            default:
                throw ApiFailure.badParam("response_format.type", "invalid_value", "unsupported response_format type '"
                        + type + "' (text or json_schema)");
        }
    }

    private static ExecutionHints hints(JsonNode body) {
        ExecutionHints.Builder hints = ExecutionHints.builder();
        if (body.hasNonNull("temperature")) {
            hints.temperature(number(body, "temperature", 0, 2));
        }
        if (body.hasNonNull("top_p")) {
            hints.topP(number(body, "top_p", 0, 1));
        }
        String tokensField = body.hasNonNull("max_completion_tokens") ? "max_completion_tokens" : "max_tokens";
        if (body.hasNonNull(tokensField)) {
            JsonNode tokens = body.path(tokensField);
            require(tokens.isIntegralNumber(), tokensField, "invalid_type", "'" + tokensField + "' must be an integer");
            require(tokens.canConvertToInt() && tokens.intValue() > 0, tokensField,
                    tokens.canConvertToInt() ? "integer_below_min_value" : "integer_above_max_value",
                    "'" + tokensField + "' must be a positive integer below 2^31");
            hints.maxTokens(tokens.intValue());
        }
        if (body.hasNonNull("seed")) {
            JsonNode seed = body.path("seed");
            require(seed.isIntegralNumber() && seed.canConvertToLong(), "seed", "invalid_type",
                    "'seed' must be a 64-bit integer");
            hints.seed(seed.longValue());
        }
        hints.stop(stop(body.path("stop")));
        Map<String, Object> options = new LinkedHashMap<>();
        JsonNode toolChoice = body.path("tool_choice");
        if (!toolChoice.isMissingNode() && !toolChoice.isNull()) {
            require(toolChoice.isString(), "tool_choice", "unsupported_value", "'tool_choice' naming a function is "
                    + "not supported (auto, none or required)");
            require(List.of("auto", "none", "required").contains(toolChoice.stringValue()), "tool_choice",
                    "invalid_value", "'tool_choice' must be auto, none or required");
            options.put("tool_choice", toolChoice.stringValue());
        }
        if (body.hasNonNull("parallel_tool_calls")) {
            options.put("parallel_tool_calls", bool(body, "parallel_tool_calls"));
        }
        for (String penalty : List.of("presence_penalty", "frequency_penalty")) {
            if (body.hasNonNull(penalty)) {
                options.put(penalty, number(body, penalty, -2, 2));
            }
        }
        // llama-server's sampling extensions that the llama.cpp engine takes as options of the same name.
        if (body.hasNonNull("top_k")) {
            options.put("top_k", (int) wholeNumber(body, "top_k", 0));
        }
        if (body.hasNonNull("repeat_last_n")) {
            options.put("repeat_last_n", (int) wholeNumber(body, "repeat_last_n", -1));
        }
        if (body.hasNonNull("min_p")) {
            options.put("min_p", number(body, "min_p", 0, 1));
        }
        if (body.hasNonNull("repeat_penalty")) {
            options.put("repeat_penalty", number(body, "repeat_penalty", 0, Float.MAX_VALUE));
        }
        if (body.hasNonNull("cache_prompt")) {
            options.put("cache_prompt", bool(body, "cache_prompt"));
        }
        JsonNode logitBias = body.path("logit_bias");
        if (logitBias.isObject() && !logitBias.isEmpty()) {
            options.put("logit_bias", logitBias(logitBias));
        }
        return hints.options(options).build();
    }

    /** OpenAI's {@code logit_bias}: token ids (decimal text) to biases from -100 to 100. */
    private static Map<String, Object> logitBias(JsonNode biases) {
        Map<String, Object> checked = new LinkedHashMap<>();
        biases.properties().forEach(entry -> {
            String token = entry.getKey();
            require(token.matches("[0-9]{1,9}"), "logit_bias", "invalid_value", "'logit_bias' keys must be token "
                    + "ids (whole numbers from 0): " + token);
            JsonNode bias = entry.getValue();
            require(bias.isNumber(), "logit_bias", "invalid_type", "'logit_bias' values must be numbers");
            double value = bias.numberValue().doubleValue();
            require(value >= -100 && value <= 100, "logit_bias", value > 100 ? "decimal_above_max_value"
                    : "decimal_below_min_value", "'logit_bias' values must be from -100 to 100: " + bias.asString());
            checked.put(String.valueOf(Integer.parseInt(token)), value);
        });
        return checked;
    }

    /** OpenAI's {@code stop}: a string or an array of up to 4 non-empty strings; none when absent. */
    private static List<String> stop(JsonNode stop) {
        if (stop.isMissingNode() || stop.isNull()) {
            return List.of();
        }
        if (stop.isString()) {
            require(!stop.stringValue().isEmpty(), "stop", "invalid_value", "'stop' must not be empty");
            return List.of(stop.stringValue());
        }
        require(stop.isArray(), "stop", "invalid_type", "'stop' must be a string or an array of strings");
        require(stop.size() <= MAX_STOP, "stop", "array_above_max_length", "'stop' holds at most " + MAX_STOP
                + " sequences");
        List<String> strings = new ArrayList<>();
        for (JsonNode text : stop) {
            require(text.isString() && !text.stringValue().isEmpty(), "stop", "invalid_value",
                    "every stop sequence must be a non-empty string");
            strings.add(text.stringValue());
        }
        return strings;
    }

    /** OpenAI's {@code n}: 1 to {@value #MAX_CHOICES}; 1 when absent. */
    private static int choices(JsonNode body) {
        JsonNode n = body.path("n");
        if (n.isMissingNode() || n.isNull()) {
            return 1;
        }
        // canConvertToInt first: Jackson 3's intValue() throws for an integer beyond the int range, which escaped as
        // a 500 (ChatCompletionRequestFuzzTest's seed n-beyond-int-range).
        require(n.isIntegralNumber(), "n", "invalid_type", "'n' must be an integer");
        require(n.canConvertToInt() && n.intValue() <= MAX_CHOICES, "n", "integer_above_max_value",
                "'n' must be at most " + MAX_CHOICES);
        require(n.intValue() >= 1, "n", "integer_below_min_value", "'n' must be at least 1");
        return n.intValue();
    }

    private static void refuseUnsupported(JsonNode body) {
        for (String field : List.of("logprobs", "top_logprobs")) {
            JsonNode value = body.path(field);
            boolean unset = value.isMissingNode() || value.isNull() || (value.isBoolean() && !value.booleanValue());
            require(unset, field, "unsupported_parameter", "'" + field + "' is not supported by this server: the "
                    + "llama.cpp binding aborts the whole process when asked for token probabilities, and ignoring it "
                    + "would change the answer");
        }
        JsonNode logitBias = body.path("logit_bias");
        require(logitBias.isMissingNode() || logitBias.isNull() || logitBias.isObject(), "logit_bias",
                "invalid_type", "'logit_bias' must be an object mapping token ids to biases");
        for (String field : List.of("audio", "prediction")) {
            require(!body.hasNonNull(field), field, "unsupported_parameter", "'" + field + "' is not supported");
        }
        JsonNode modalities = body.path("modalities");
        require(modalities.isMissingNode() || modalities.isNull() || (modalities.isArray() && modalities.size() == 1
                && "text".equals(modalities.path(0).asString(""))), "modalities", "unsupported_value",
                "only the 'text' modality is supported");
        require(!body.has("grammar"), "grammar", "unsupported_parameter", "a 'grammar' field (llama-server's "
                + "extension) is not supported: constrain the output with response_format json_schema");
        for (String extension : LLAMA_SERVER_REFUSED) {
            require(!body.hasNonNull(extension), extension, "unsupported_parameter", "llama-server's '" + extension
                    + "' extension is not supported by this server");
        }
    }

    // ---------------------------------------------------------------------------------------------------- accessors

    private static String text(JsonNode node, String field, String where) {
        JsonNode value = node.path(field);
        require(!value.isMissingNode() && !value.isNull(), where + "." + field, "missing_required_parameter",
                where + " needs '" + field + "'");
        require(value.isString() && !value.stringValue().isBlank(), where + "." + field, "invalid_type",
                where + "." + field + " must be a non-empty string");
        return value.stringValue();
    }

    private static String optionalText(JsonNode node, String field) {
        JsonNode value = node.path(field);
        if (value.isMissingNode() || value.isNull()) {
            return "";
        }
        require(value.isString(), field, "invalid_type", "'" + field + "' must be a string");
        return value.stringValue();
    }

    /**
     * A number within OpenAI's range for the field. Read through {@code numberValue()}: Jackson 3's
     * {@code doubleValue()} throws for an integer beyond the double range (a 500 before; ChatCompletionRequestFuzzTest's
     * seed number-beyond-double-range), and {@code 1e400} reads as infinity, which is above any maximum.
     */
    private static double number(JsonNode node, String field, double min, double max) {
        JsonNode value = node.path(field);
        require(value.isNumber(), field, "invalid_type", "'" + field + "' must be a number");
        double number = value.numberValue().doubleValue();
        require(!Double.isNaN(number) && number <= max, field, "decimal_above_max_value",
                "'" + field + "' must be at most " + format(max) + ": " + value.asString());
        require(number >= min, field, "decimal_below_min_value",
                "'" + field + "' must be at least " + format(min) + ": " + value.asString());
        return number;
    }

    /** A whole number of at least {@code min}. */
    private static long wholeNumber(JsonNode node, String field, int min) {
        JsonNode value = node.path(field);
        require(value.isIntegralNumber(), field, "invalid_type", "'" + field + "' must be an integer");
        require(value.canConvertToInt() && value.intValue() >= min, field,
                value.canConvertToInt() ? "integer_below_min_value" : "integer_above_max_value",
                "'" + field + "' must be an integer of at least " + min);
        return value.intValue();
    }

    private static String format(double bound) {
        return bound == Math.rint(bound) ? String.valueOf((long) bound) : String.valueOf(bound);
    }

    private static boolean bool(JsonNode node, String field) {
        JsonNode value = node.path(field);
        if (value.isMissingNode() || value.isNull()) {
            return false;
        }
        require(value.isBoolean(), field, "invalid_type", "'" + field + "' must be true or false");
        return value.booleanValue();
    }

    private static void require(boolean condition, String param, String openAiCode, String message) {
        if (!condition) {
            throw ApiFailure.badParam(param, openAiCode, message);
        }
    }
}
