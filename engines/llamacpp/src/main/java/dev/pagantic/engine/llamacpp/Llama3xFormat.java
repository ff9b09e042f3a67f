package dev.pagantic.engine.llamacpp;

import static dev.pagantic.engine.llamacpp.FormatGrammar.jsonString;
import static dev.pagantic.engine.llamacpp.FormatGrammar.text;

import dev.pagantic.core.CallContext;
import dev.pagantic.core.Message;
import dev.pagantic.core.Schema;
import dev.pagantic.core.ToolCall;
import dev.pagantic.core.ToolDefinition;
import dev.pagantic.inference.grammar.GbnfGrammar;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import tools.jackson.databind.JsonNode;

/**
 * Llama 3.1, 3.2 and 3.3, recognised by {@code <|start_header_id|>ipython<|end_header_id|>} in the template: a call is
 * the whole answer, one JSON object {@code {"name": "...", "parameters": {...}}} (a {@code "type": "function"}
 * member first is allowed); the template shows one call per turn. When the template also knows {@code <|python_tag|>}
 * (Llama 3.1), the built-in tools it was trained on are called its way, {@code <|python_tag|>brave_search.call(query="...")}:
 * {@code wolfram_alpha}, {@code web_search} and {@code brave_search} with a {@code query}, {@code python} and
 * {@code code_interpreter} with {@code code}.
 */
final class Llama3xFormat implements ToolFormat {

    static final String PYTHON_TAG = "<|python_tag|>";
    private static final Map<String, String> BUILTIN = Map.of("wolfram_alpha", "query", "web_search", "query",
            "brave_search", "query", "python", "code", "code_interpreter", "code");
    private static final Pattern BUILTIN_CALL = Pattern.compile(
            "<\\|python_tag\\|>\\s*([^.(]+)\\s*\\.\\s*call\\s*\\(\\s*(\\w+)\\s*=\\s*([\\s\\S]*?)\\)\\s*");

    private final boolean builtinTools;

    /** The format; {@code builtinTools} when the template has {@code <|python_tag|>}. */
    Llama3xFormat(boolean builtinTools) {
        this.builtinTools = builtinTools;
    }

    @Override
    public String name() {
        return builtinTools ? "Llama 3.x with builtin tools" : "Llama 3.x";
    }

    @Override
    public GbnfGrammar grammar(ToolSpec spec) {
        FormatGrammar g = new FormatGrammar();
        String ws = g.ws();
        List<ToolDefinition> tools = spec.callable();
        List<String> alternatives = new ArrayList<>();
        alternatives.add(g.anyCall("call", tools, g.arguments(tools), (tool, args) -> "\"{\" " + ws + " ("
                + g.member("type", jsonString("function")) + " " + ws + " \",\" " + ws + ")? "
                + g.member("name", jsonString(tool.name())) + " " + ws + " \",\" " + ws + " "
                + g.member("parameters", args) + " " + ws + " \"}\""));
        List<String> openings = new ArrayList<>(List.of("{"));
        for (ToolDefinition tool : tools) {
            builtinArgument(tool).ifPresent(argument -> {
                String value = g.schema("builtin-" + alternatives.size(), Parameters.properties(tool.parameters()).get(argument));
                alternatives.add(text(PYTHON_TAG + tool.name() + ".call(" + argument + "=") + " " + value + " "
                        + text(")"));
                if (openings.size() == 1) {
                    openings.add(PYTHON_TAG);
                }
            });
        }
        String calls = String.join(" | ", alternatives);
        return g.root(spec.forced() ? calls : calls + " | " + g.textNotStartingWith("text", openings));
    }

    /** The one argument of a built-in tool, when the template knows built-in tools and the tool is one. */
    private Optional<String> builtinArgument(ToolDefinition tool) {
        String argument = BUILTIN.get(tool.name());
        Schema parameters = tool.parameters();
        if (!builtinTools || argument == null || Parameters.declaredCount(parameters) != 1
                || !Parameters.properties(parameters).containsKey(argument)
                || !Parameters.required(parameters).contains(argument)) {
            return Optional.empty();
        }
        return Optional.of(argument);
    }

    @Override
    public ToolReply parse(String output, ToolSpec spec, CallContext ctx) {
        Matcher builtin = BUILTIN_CALL.matcher(output);
        if (builtinTools && builtin.matches()) {
            JsonNode value = FormatText.json(output, builtin.group(3), 0, "the argument").value();
            Map<String, Object> arguments = FormatText.arguments(output,
                    FormatText.JSON.createObjectNode().set(builtin.group(2), value));
            return new ToolReply("", "", List.of(ToolCall.of("call_" + ctx.newId(), builtin.group(1).strip(),
                    arguments)));
        }
        if (!output.startsWith("{")) {
            return ToolReply.text(output, ""); // as in the grammar, a call opens the answer
        }
        List<ToolCall> calls = new ArrayList<>();
        int i = 0;
        while (i < output.length()) {
            FormatText.JsonAt call = FormatText.json(output, output, i, "tool call");
            JsonNode value = call.value();
            if (calls.isEmpty() && !value.has("name")) {
                return ToolReply.text(output, ""); // JSON, but no call: an answer
            }
            JsonNode arguments = value.has("parameters") ? value.path("parameters") : value.path("arguments");
            calls.add(FormatText.call(output, value.path("name"), arguments, "", ctx));
            i = FormatText.skipSpace(output, call.end());
            if (i < output.length() && output.charAt(i) == ';') {
                i = FormatText.skipSpace(output, i + 1);
            }
        }
        return new ToolReply("", "", calls);
    }

    /** The conversation with each call in an assistant message of its own: the template refuses two in one. */
    @Override
    public List<Message> history(List<Message> messages) {
        List<Message> split = new ArrayList<>();
        for (Message message : messages) {
            if (message.toolCalls().size() <= 1) {
                split.add(message);
                continue;
            }
            for (int i = 0; i < message.toolCalls().size(); i++) {
                split.add(Message.assistant(i == 0 ? message.content() : "", List.of(message.toolCalls().get(i))));
            }
        }
        return split;
    }

    @Override
    public ToolReply partial(String output) {
        boolean call = output.startsWith("{")
                || builtinTools && (output.startsWith(PYTHON_TAG) || PYTHON_TAG.startsWith(output));
        return ToolReply.text(call ? "" : output, "");
    }
}
