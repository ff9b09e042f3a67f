package dev.pagantic.orchestrate.facade;

import static dev.pagantic.core.Preconditions.require;
import static dev.pagantic.core.Preconditions.requireNonNull;

import dev.pagantic.core.Correlation;
import dev.pagantic.core.ErrorCode;
import dev.pagantic.core.Message;
import dev.pagantic.core.PaganticException;
import dev.pagantic.core.Preconditions;
import dev.pagantic.core.Role;
import dev.pagantic.core.Schema;
import dev.pagantic.core.TokenUsage;
import dev.pagantic.core.ToolCall;
import dev.pagantic.core.ToolDefinition;
import dev.pagantic.inference.InferenceSettings;
import dev.pagantic.orchestrate.agent.AgentEvent;
import dev.pagantic.orchestrate.multimodel.Directive;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import tools.jackson.core.JacksonException;
import tools.jackson.core.type.TypeReference;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;
import tools.jackson.databind.node.ArrayNode;
import tools.jackson.databind.node.ObjectNode;

/**
 * The JSON wire form of the boundary contracts, one home for every adapter (the HTTP API's native endpoint, the
 * command line's {@code --json}, the terminal's saved conversations), with seed 001's snake_case field names.
 *
 * <pre>{@code
 * {"request_id": "", "session_id": "s-1", "trace_id": "", "mode": "structured",
 *  "messages": [{"role": "user", "content": "Analyze: great product!"}],
 *  "hints": {"max_tokens": 256, "timeout_ms": 30000, "temperature": 0.2, "top_p": 0.9, "seed": 42,
 *            "stop": ["\n\n"], "options": {}},
 *  "output": {"schema": {"type": "object", ...}, "grammar": "root ::= ...", "repair_allowed": true,
 *             "strict_validation": true},
 *  "tools": ["search"],
 *  "caller_tools": [{"name": "get_time", "description": "...", "parameters": {"type": "object"}}],
 *  "directive": {"iterations": 1, "primary": "small", "review": "large", "voters": ["a", "b"], "min_weight": 0,
 *                "max_voters": 3}}
 * }</pre>
 * Every field but {@code messages} is optional. A message is {@code {"role", "content", "tool_calls": [{"id", "name",
 * "arguments"}], "tool_call_id", "name"}}. A response has {@code request_id}, {@code session_id}, {@code content},
 * {@code structured_output}, {@code tool_calls_made}, {@code tool_calls_requested}, {@code confidence},
 * {@code confidence_source}, {@code validation_result}, {@code token_usage}, {@code error} and {@code finish_reason}.
 * A grammar file cannot be named on the wire: a remote caller must not make the server read its files. An
 * {@linkplain #toJson(AgentEvent) agent event} is a flat object named by its {@code type}.
 */
public final class FacadeJson {

    private static final JsonMapper JSON = JsonMapper.builder().build();
    private static final TypeReference<Map<String, Object>> OBJECT = new TypeReference<>() {
    };

    private FacadeJson() {
    }

    /**
     * A request from its JSON form. The envelope rules are not checked here: the orchestrator checks them at INIT.
     *
     * @throws PaganticException {@code CONFIG_INVALID} for text that is not such a request (not JSON, a field of the
     *                           wrong type, an unknown mode or role, an unsupported schema keyword)
     */
    public static SystemRequest requestFromJson(String json) {
        requireNonNull(json, "json");
        JsonNode root = read(json);
        require(root.isObject(), "a request is a JSON object");
        SystemRequest.Builder request = SystemRequest.builder()
                .requestId(text(root, "request_id"))
                .sessionId(text(root, "session_id"))
                .traceId(text(root, "trace_id"))
                .mode(root.hasNonNull("mode") ? Mode.fromWireName(text(root, "mode")) : Mode.CHAT)
                .messages(messages(root.path("messages")))
                .hints(hints(root.path("hints")))
                .output(output(root.path("output")));
        root.path("tools").forEach(name -> {
            // asString() throws Jackson's own exception for an object: refuse it as the envelope error it is
            require(name.isString(), "a tool whitelist entry is a tool name (a JSON string)");
            request.tools(name.stringValue());
        });
        root.path("caller_tools").forEach(tool -> request.callerTool(toolDefinition(tool)));
        request.directive(directive(root.path("directive")));
        return request.build();
    }

    /** The JSON form of a request. */
    public static String toJson(SystemRequest request) {
        ObjectNode root = JSON.createObjectNode()
                .put("request_id", request.requestId())
                .put("session_id", request.sessionId())
                .put("trace_id", request.traceId())
                .put("mode", request.mode().wireName());
        root.set("messages", messagesNode(request.messages()));
        InferenceSettings settings = request.hints().settings();
        ObjectNode hintsNode = root.putObject("hints").put("max_tokens", settings.maxTokens())
                .put("timeout_ms", request.hints().timeout().toMillis());
        settings.temperature().ifPresent(t -> hintsNode.put("temperature", t));
        settings.topP().ifPresent(p -> hintsNode.put("top_p", p));
        settings.seed().ifPresent(seed -> hintsNode.put("seed", seed));
        if (!settings.stop().isEmpty()) {
            ArrayNode stop = hintsNode.putArray("stop");
            settings.stop().forEach(stop::add);
        }
        hintsNode.set("options", JSON.valueToTree(settings.options()));
        ObjectNode output = root.putObject("output").put("repair_allowed", request.output().repairAllowed())
                .put("strict_validation", request.output().strictValidation());
        request.output().schema().ifPresent(schema -> output.set("schema", JSON.valueToTree(schema.toJsonSchema())));
        request.output().grammar().ifPresent(grammar -> output.put("grammar", grammar.load()));
        ArrayNode tools = root.putArray("tools");
        request.tools().forEach(tools::add);
        ArrayNode callerTools = root.putArray("caller_tools");
        request.callerTools().forEach(tool -> callerTools.add(JSON.createObjectNode().put("name", tool.name())
                .put("description", tool.description())
                .set("parameters", JSON.valueToTree(tool.parameters().toJsonSchema()))));
        if (!request.directive().isNone()) {
            root.set("directive", directiveNode(request.directive()));
        }
        return JSON.writeValueAsString(root);
    }

    /** The JSON form of a response. */
    public static String toJson(SystemResponse response) {
        return JSON.writeValueAsString(responseNode(response));
    }

    /** The JSON form of a response, as a map of JSON values (for adapters that embed it in a larger document). */
    public static Map<String, Object> toMap(SystemResponse response) {
        return JSON.convertValue(responseNode(response), OBJECT);
    }

    /**
     * The JSON form of an agent event (seed 004): its {@code type} ({@link AgentEvent#eventType()}), the request's
     * {@code request_id}, {@code session_id} and {@code trace_id}, and the event's payload:
     * <ul>
     *   <li>{@code turn_start}: {@code timestamp} (ISO-8601);</li>
     *   <li>{@code steering_mode}: {@code mode} ({@code respond}, {@code steer}, {@code interrupt}) and
     *       {@code queue_size};</li>
     *   <li>{@code thinking}: {@code text};</li>
     *   <li>{@code tool_call}: {@code tool_call_id}, {@code tool_name} and {@code args} (an object);</li>
     *   <li>{@code tool_result}: {@code tool_call_id}, {@code tool_name}, {@code result} and {@code error}
     *       (a boolean; {@code result} is then the error text the model sees);</li>
     *   <li>{@code text_delta}: {@code text} and {@code index};</li>
     *   <li>{@code turn_end}: {@code message} (a message, as in a request) and {@code duration_ms}.</li>
     * </ul>
     */
    public static String toJson(AgentEvent event) {
        requireNonNull(event, "event");
        Correlation correlation = event.correlation();
        ObjectNode node = JSON.createObjectNode().put("type", event.eventType())
                .put("request_id", correlation.requestId())
                .put("session_id", correlation.sessionId())
                .put("trace_id", correlation.traceId());
        if (event instanceof AgentEvent.TurnStart start) {
            node.put("timestamp", start.timestamp().toString());
        } else if (event instanceof AgentEvent.SteeringMode steering) {
            node.put("mode", steering.mode().wireName()).put("queue_size", steering.queueSize());
        } else if (event instanceof AgentEvent.Thinking thinking) {
            node.put("text", thinking.text());
        } else if (event instanceof AgentEvent.ToolCallEvent call) {
            node.put("tool_call_id", call.toolCallId()).put("tool_name", call.toolName())
                    .set("args", JSON.valueToTree(call.args()));
        } else if (event instanceof AgentEvent.ToolResultEvent result) {
            node.put("tool_call_id", result.toolCallId()).put("tool_name", result.toolName())
                    .put("result", result.result()).put("error", result.error());
        } else if (event instanceof AgentEvent.TextDelta delta) {
            node.put("text", delta.text()).put("index", delta.index());
        } else if (event instanceof AgentEvent.TurnEnd end) {
            node.set("message", messagesNode(List.of(end.message())).get(0));
            node.put("duration_ms", end.duration().toMillis());
        }
        return JSON.writeValueAsString(node);
    }

    /** The JSON form of messages (for saved conversations). */
    public static String messagesToJson(List<Message> messages) {
        return JSON.writeValueAsString(messagesNode(messages));
    }

    /**
     * Messages from their JSON form (an array).
     *
     * @throws PaganticException {@code CONFIG_INVALID} for text that is not such an array
     */
    public static List<Message> messagesFromJson(String json) {
        requireNonNull(json, "json");
        JsonNode root = read(json);
        require(root.isArray(), "messages are a JSON array");
        return messages(root);
    }

    // ---------------------------------------------------------------------------------------------------- requests

    private static List<Message> messages(JsonNode array) {
        List<Message> messages = new ArrayList<>();
        for (JsonNode node : array) {
            require(node.isObject(), "a message is a JSON object");
            Role role = Role.fromWireName(text(node, "role"));
            List<ToolCall> calls = new ArrayList<>();
            node.path("tool_calls").forEach(call -> calls.add(ToolCall.of(text(call, "id"), text(call, "name"),
                    object(call.path("arguments")))));
            messages.add(new Message(role, text(node, "content"), calls, text(node, "tool_call_id"),
                    text(node, "name")));
        }
        return messages;
    }

    private static ExecutionHints hints(JsonNode node) {
        ExecutionHints.Builder hints = ExecutionHints.builder()
                .maxTokens(node.path("max_tokens").asInt(0))
                .timeout(Duration.ofMillis(node.path("timeout_ms").asLong(0)))
                .options(object(node.path("options")));
        if (node.hasNonNull("temperature")) {
            hints.temperature(number(node, "temperature"));
        }
        if (node.hasNonNull("top_p")) {
            hints.topP(number(node, "top_p"));
        }
        if (node.hasNonNull("seed")) {
            JsonNode seed = node.path("seed");
            require(seed.isIntegralNumber() && seed.canConvertToLong(), "field 'seed' must be an integer");
            hints.seed(seed.longValue());
        }
        JsonNode stop = node.path("stop");
        if (!stop.isMissingNode() && !stop.isNull()) {
            require(stop.isArray(), "field 'stop' must be an array of strings");
            List<String> strings = new ArrayList<>();
            stop.forEach(text -> {
                require(text.isString(), "a stop string must be a string");
                strings.add(text.stringValue());
            });
            hints.stop(strings);
        }
        return hints.build();
    }

    private static OutputContract output(JsonNode node) {
        if (node.isMissingNode() || node.isNull()) {
            return OutputContract.none();
        }
        require(!node.has("grammar_file"), "a grammar file cannot be named in a request; send the grammar");
        OutputContract.Builder output = OutputContract.builder()
                .repairAllowed(node.path("repair_allowed").asBoolean(true))
                .strictValidation(node.path("strict_validation").asBoolean(true));
        if (node.hasNonNull("schema")) {
            output.schema(Schema.fromJsonSchema(object(node.path("schema"))));
        }
        if (node.hasNonNull("grammar")) {
            output.grammar(text(node, "grammar"));
        }
        return output.build();
    }

    private static ToolDefinition toolDefinition(JsonNode node) {
        Schema parameters = node.hasNonNull("parameters") ? Schema.fromJsonSchema(object(node.path("parameters")))
                : Schema.object().build();
        return ToolDefinition.of(text(node, "name"), text(node, "description"), parameters);
    }

    // --------------------------------------------------------------------------------------------------- responses

    private static ObjectNode responseNode(SystemResponse response) {
        ObjectNode root = JSON.createObjectNode()
                .put("request_id", response.requestId())
                .put("session_id", response.sessionId())
                .put("content", response.content());
        response.structuredOutput().ifPresent(value -> root.set("structured_output", JSON.valueToTree(value)));
        ArrayNode made = root.putArray("tool_calls_made");
        for (ToolCallRecord call : response.toolCallsMade()) {
            ObjectNode record = made.addObject().put("id", call.id()).put("name", call.name())
                    .put("result", call.result()).put("is_error", call.isError())
                    .put("duration_ms", call.duration().toMillis());
            record.set("arguments", JSON.valueToTree(call.arguments()));
            call.errorCode().ifPresent(code -> record.put("error_code", code.name()));
        }
        ArrayNode requested = root.putArray("tool_calls_requested");
        response.toolCallsRequested().forEach(call -> requested.addObject().put("id", call.id())
                .put("name", call.name()).set("arguments", JSON.valueToTree(call.arguments())));
        response.confidence().ifPresent(c -> root.put("confidence", c));
        response.confidenceSource().ifPresent(source -> root.put("confidence_source", source.wireName()));
        response.validationResult().ifPresent(v -> root.set("validation_result", validationNode(v)));
        root.set("token_usage", usageNode(response.tokenUsage()));
        response.error().ifPresent(error -> root.set("error", errorNode(error)));
        root.put("finish_reason", response.finishReason().wireName());
        return root;
    }

    private static ObjectNode validationNode(ValidationResult validation) {
        ObjectNode node = JSON.createObjectNode().put("passed", validation.passed()).put("failed", validation.failed())
                .put("repair_attempts", validation.repairAttempts()).put("repaired", validation.repaired())
                .put("valid", validation.valid());
        node.set("steps_run", JSON.valueToTree(validation.stepsRun()));
        ArrayNode violations = node.putArray("violations");
        validation.violations().forEach(v -> violations.addObject().put("path", v.path())
                .put("keyword", v.keyword()).put("message", v.message()));
        return node;
    }

    private static ObjectNode usageNode(TokenUsage usage) {
        return JSON.createObjectNode().put("prompt_tokens", usage.promptTokens())
                .put("reasoning_tokens", usage.reasoningTokens()).put("output_tokens", usage.outputTokens())
                .put("total_tokens", usage.totalTokens()).put("context_window", usage.contextWindow())
                .put("generation_ms", usage.generationTime().toMillis())
                .put("tokens_per_second", usage.tokensPerSecond());
    }

    private static ObjectNode errorNode(SystemError error) {
        ObjectNode node = JSON.createObjectNode().put("code", error.code().name())
                .put("category", error.category().displayName()).put("retryable", error.retryable())
                .put("message", error.message());
        node.set("details", JSON.valueToTree(error.details()));
        return node;
    }

    private static ArrayNode messagesNode(List<Message> messages) {
        ArrayNode array = JSON.createArrayNode();
        for (Message message : messages) {
            ObjectNode node = array.addObject().put("role", message.role().wireName()).put("content",
                    message.content());
            if (message.hasToolCalls()) {
                ArrayNode calls = node.putArray("tool_calls");
                message.toolCalls().forEach(call -> calls.addObject().put("id", call.id()).put("name", call.name())
                        .set("arguments", JSON.valueToTree(call.arguments())));
            }
            if (!message.toolCallId().isEmpty()) {
                node.put("tool_call_id", message.toolCallId());
            }
            if (!message.name().isEmpty()) {
                node.put("name", message.name());
            }
        }
        return array;
    }

    private static Directive directive(JsonNode node) {
        if (node.isMissingNode() || node.isNull()) {
            return Directive.NONE;
        }
        require(node.isObject(), "field 'directive' must be an object");
        Directive.Builder directive = Directive.builder()
                .iterations(integer(node, "iterations"))
                .minWeight(integer(node, "min_weight"));
        if (node.hasNonNull("max_voters")) {
            directive.maxVoters(integer(node, "max_voters"));
        }
        String primary = text(node, "primary");
        String review = text(node, "review");
        directive.primary(primary.isEmpty() ? null : primary).review(review.isEmpty() ? null : review);
        JsonNode voters = node.path("voters");
        require(voters.isMissingNode() || voters.isNull() || voters.isArray(),
                "field 'voters' must be an array of engine ids");
        List<String> ids = new ArrayList<>();
        voters.forEach(id -> {
            require(id.isString(), "a voter id must be a string");
            ids.add(id.stringValue());
        });
        return directive.voters(ids).build();
    }

    private static ObjectNode directiveNode(Directive directive) {
        ObjectNode node = JSON.createObjectNode().put("iterations", directive.iterations());
        directive.primary().ifPresent(id -> node.put("primary", id));
        directive.review().ifPresent(id -> node.put("review", id));
        ArrayNode voters = node.putArray("voters");
        directive.voters().forEach(voters::add);
        node.put("min_weight", directive.minWeight());
        node.put("max_voters", directive.maxVoters());
        return node;
    }

    private static int integer(JsonNode node, String field) {
        JsonNode value = node.path(field);
        if (value.isMissingNode() || value.isNull()) {
            return 0;
        }
        require(value.isIntegralNumber() && value.canConvertToInt(), "field '" + field
                + "' must be an integer");
        return value.intValue();
    }

    // ------------------------------------------------------------------------------------------------------- parts

    private static JsonNode read(String json) {
        try {
            return JSON.readTree(json);
        } catch (JacksonException notJson) {
            throw PaganticException.of(ErrorCode.CONFIG_INVALID, "not JSON: " + notJson.getOriginalMessage(),
                    notJson);
        }
    }

    private static String text(JsonNode node, String field) {
        JsonNode value = node.path(field);
        if (value.isMissingNode() || value.isNull()) {
            return "";
        }
        require(value.isString(), "field '" + field + "' must be a string");
        return value.stringValue();
    }

    private static double number(JsonNode node, String field) {
        JsonNode value = node.path(field);
        require(value.isNumber(), "field '" + field + "' must be a number");
        return value.doubleValue();
    }

    private static Map<String, Object> object(JsonNode node) {
        if (node.isMissingNode() || node.isNull()) {
            return new LinkedHashMap<>();
        }
        require(node.isObject(), "expected a JSON object: ", node);
        return JSON.convertValue(node, OBJECT);
    }
}
