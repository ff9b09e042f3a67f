package dev.pagantic.engine.llamacpp;

import static dev.pagantic.engine.llamacpp.FormatGrammar.jsonString;

import dev.pagantic.core.CallContext;
import dev.pagantic.core.Message;
import dev.pagantic.core.PaganticException;
import dev.pagantic.core.Role;
import dev.pagantic.core.Schema;
import dev.pagantic.core.ToolCall;
import dev.pagantic.core.ToolDefinition;
import dev.pagantic.inference.grammar.GbnfGrammar;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.node.ArrayNode;
import tools.jackson.databind.node.ObjectNode;

/**
 * The format for a template that teaches no tool calls (ChatML, Phi, Gemma, a model without a chat template): the
 * answer is one JSON object, {@code {"tool_call": {...}}}, {@code {"tool_calls": [...]}} or {@code {"response":
 * "..."}}, the shape of llama.cpp's generic format. Unlike llama.cpp b4916, which describes that shape in a system
 * message that disagrees with its own grammar (it names {@code tool_call} and {@code response}, shows {@code tool_calls}
 * with an {@code id} its grammar forbids) and is cut by a stray {@code <|im_end|>} from minja's tool-call example, the
 * engine writes the description itself, from the same request as the grammar: what the prompt shows is exactly what
 * the grammar admits ({@code tool_calls} only with parallel calls, {@code response} only when no call is forced, an
 * optional {@code id}). The tools, earlier calls and tool results are rendered as plain messages, so the template
 * needs no tool support: calls as the assistant's JSON, results as user messages {@code {"tool_response": {...}}}.
 */
final class GenericFormat implements ToolFormat {

    /** The longest id a call may carry: the model's ids are echoes, so a long one is only a model that rambles. */
    static final int MAX_ID_LENGTH = 64;

    @Override
    public String name() {
        return "Generic";
    }

    @Override
    public GbnfGrammar grammar(ToolSpec spec) {
        FormatGrammar g = new FormatGrammar();
        String ws = g.ws();
        String id = " (" + ws + " \",\" " + ws + " " + g.member("id", g.schema("id", Schema.string()
                .withMaxLength(MAX_ID_LENGTH))) + ")?";
        String call = g.anyCall("call", spec.callable(), g.arguments(spec.callable()), (tool, args) -> "\"{\" " + ws
                + " " + g.member("name", jsonString(tool.name())) + " " + ws + " \",\" " + ws + " "
                + g.member("arguments", args) + id + " " + ws + " \"}\"");
        List<String> answers = new ArrayList<>(List.of(g.object(g.member("tool_call", call))));
        if (spec.maxCalls() > 1) {
            answers.add(g.object(g.member("tool_calls", "\"[\" " + ws + " "
                    + FormatGrammar.repeated(call, "\",\" " + ws, spec.maxCalls()) + " " + ws + " \"]\"")));
        }
        if (!spec.forced()) {
            answers.add(g.object(g.member("response", g.schema("response", Schema.string()))));
        }
        return g.root("(" + String.join(" | ", answers) + ") " + ws);
    }

    @Override
    public ToolReply parse(String output, ToolSpec spec, CallContext ctx) {
        FormatText.JsonAt answer = FormatText.json(output, output, 0, "JSON answer");
        JsonNode value = answer.value();
        if (FormatText.skipSpace(output, answer.end()) < output.length() || !value.isObject()) {
            throw FormatText.malformed(output, "the answer is not one JSON object");
        }
        if (value.has("response")) {
            JsonNode response = value.path("response");
            return ToolReply.text(response.isString() ? response.asString() : response.toString(), "");
        }
        JsonNode calls = value.has("tool_calls") ? value.path("tool_calls")
                : value.has("tool_call") ? FormatText.JSON.createArrayNode().add(value.path("tool_call"))
                : null;
        if (calls == null) {
            throw FormatText.malformed(output, "neither tool_call, tool_calls nor response");
        }
        // The model's ids are echoes of the example (the history it sees is rendered here, with pagantic's ids):
        // every call gets a new one.
        return new ToolReply("", "", FormatText.calls(output, calls, "name", "arguments", "", ctx));
    }

    /** A response cut off by the token limit is the response so far; a call cut off is malformed. */
    @Override
    public ToolReply cutOff(String output, PaganticException refused) {
        return RESPONSE_OPENING.matcher(output).lookingAt() ? ToolReply.text(responseSoFar(output), "")
                : ToolFormat.super.cutOff(output, refused);
    }

    @Override
    public ToolReply partial(String output) {
        return ToolReply.text(responseSoFar(output), "");
    }

    private static final Pattern RESPONSE_OPENING = Pattern.compile("\\s*\\{\\s*\"response\"\\s*:\\s*\"");

    /**
     * The text of the {@code response} string written so far, decoded; empty while the output is not (yet) known to
     * be a response. An escape that is not complete yet is left for the next piece.
     */
    static String responseSoFar(String output) {
        Matcher opening = RESPONSE_OPENING.matcher(output);
        if (!opening.lookingAt()) {
            return "";
        }
        StringBuilder text = new StringBuilder();
        int i = opening.end();
        while (i < output.length() && output.charAt(i) != '"') {
            char c = output.charAt(i);
            if (c != '\\') {
                text.append(c);
                i++;
                continue;
            }
            int length = i + 1 < output.length() && output.charAt(i + 1) == 'u' ? 6 : 2;
            if (i + length > output.length()) {
                break;
            }
            String escape = output.substring(i, i + length);
            boolean highSurrogate = length == 6 && "dD".indexOf(escape.charAt(2)) >= 0
                    && "89abAB".indexOf(escape.charAt(3)) >= 0;
            if (highSurrogate && i + 12 > output.length()) {
                break; // the low half of a surrogate pair is still to come
            }
            try {
                text.append(FormatText.JSON.readValue("\"" + escape + "\"", String.class));
            } catch (tools.jackson.core.JacksonException notAnEscape) {
                break; // the grammar admits no such escape: nothing more is certainly text
            }
            i += length;
        }
        return text.toString();
    }

    @Override
    public boolean templateDescribesTools() {
        return false;
    }

    /**
     * Earlier calls as the assistant's JSON answers, tool results as user messages; text answers stay text (a chat
     * without tools is rendered as it always is).
     */
    @Override
    public List<Message> history(List<Message> messages) {
        List<Message> rendered = new ArrayList<>();
        StringBuilder results = new StringBuilder();
        for (Message message : messages) {
            if (message.role() == Role.TOOL) {
                results.append(results.length() == 0 ? "" : "\n").append(toolResponse(message));
                continue;
            }
            if (results.length() > 0) {
                rendered.add(Message.user(results.toString()));
                results.setLength(0);
            }
            rendered.add(message.hasToolCalls() ? Message.assistant(answer(message)) : message);
        }
        if (results.length() > 0) {
            rendered.add(Message.user(results.toString()));
        }
        return rendered;
    }

    /**
     * The description of the tools and answers, added to the first system message or as one; earlier text answers
     * shown as the {@code response} the model is asked to write.
     */
    @Override
    public List<Message> describeTools(List<Message> messages, List<ToolDefinition> tools, ToolSpec spec) {
        List<Message> described = new ArrayList<>(history(messages.stream().map(message -> message.role()
                == Role.ASSISTANT && !message.hasToolCalls() ? Message.assistant(answer(message)) : message).toList()));
        String instructions = instructions(tools, spec);
        if (!described.isEmpty() && described.get(0).role() == Role.SYSTEM) {
            described.set(0, Message.system(described.get(0).content() + "\n\n" + instructions));
        } else {
            described.add(0, Message.system(instructions));
        }
        return described;
    }

    /** What the model is told: the tools, and the answers the grammar admits, one example line each. */
    static String instructions(List<ToolDefinition> tools, ToolSpec spec) {
        ArrayNode described = FormatText.JSON.createArrayNode();
        for (ToolDefinition tool : tools) {
            described.addObject().put("name", tool.name()).put("description", tool.description())
                    .set("parameters", FormatText.JSON.valueToTree(tool.parameters().toJsonSchema()));
        }
        List<String> forms = new ArrayList<>(List.of("`tool_call` (a request to call one tool)"));
        List<String> examples = new ArrayList<>(List.of(
                "{\"tool_call\": {\"name\": \"<tool name>\", \"arguments\": {<arguments>}, \"id\": \"<optional id>\"}}"));
        if (spec.maxCalls() > 1) {
            forms.add("`tool_calls` (a request to call several tools at once, at most " + spec.maxCalls() + ")");
            examples.add("{\"tool_calls\": [{\"name\": \"<tool name>\", \"arguments\": {<arguments>}}, "
                    + "{\"name\": \"<tool name>\", \"arguments\": {<arguments>}}]}");
        }
        if (!spec.forced()) {
            forms.add("`response` (your reply to the user)");
            examples.add("{\"response\": \"<your reply>\"}");
        }
        String callable = spec.callable().size() == tools.size() ? ""
                : " You must call " + String.join(" or ", spec.callable().stream().map(t -> "`" + t.name() + "`")
                .toList()) + ".";
        return "You can call these tools (their arguments are described by JSON Schema):\n"
                + FormatText.JSON.writerWithDefaultPrettyPrinter().writeValueAsString(described) + "\n\n"
                + "Respond with one JSON object and nothing else, either with " + String.join(" or with ", forms)
                + "." + callable + " Its forms:\n" + String.join("\n", examples) + "\n\n"
                + "Tool results come back in a user message: {\"tool_response\": {\"tool\": \"<tool name>\", "
                + "\"tool_call_id\": \"<id>\", \"content\": \"<result>\"}}";
    }

    /** An assistant message as the JSON the model writes: its calls, or its text as the response. */
    private static String answer(Message message) {
        ObjectNode answer = FormatText.JSON.createObjectNode();
        if (!message.hasToolCalls()) {
            answer.put("response", message.content());
        } else if (message.toolCalls().size() == 1) {
            answer.set("tool_call", call(message.toolCalls().get(0)));
        } else {
            ArrayNode calls = answer.putArray("tool_calls");
            message.toolCalls().forEach(call -> calls.add(call(call)));
        }
        return FormatText.JSON.writeValueAsString(answer);
    }

    private static ObjectNode call(ToolCall call) {
        ObjectNode node = FormatText.JSON.createObjectNode().put("name", call.name());
        node.set("arguments", FormatText.JSON.valueToTree(call.arguments()));
        return node.put("id", call.id());
    }

    private static String toolResponse(Message result) {
        Map<String, Object> response = new LinkedHashMap<>();
        response.put("tool", result.name());
        response.put("tool_call_id", result.toolCallId());
        response.put("content", result.content());
        return FormatText.JSON.writeValueAsString(Map.of("tool_response", response));
    }
}
