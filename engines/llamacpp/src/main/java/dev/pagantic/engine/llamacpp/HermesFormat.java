package dev.pagantic.engine.llamacpp;

import static dev.pagantic.engine.llamacpp.FormatGrammar.jsonString;
import static dev.pagantic.engine.llamacpp.FormatGrammar.text;

import dev.pagantic.core.CallContext;
import dev.pagantic.core.ToolCall;
import dev.pagantic.inference.grammar.GbnfGrammar;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import tools.jackson.databind.JsonNode;

/**
 * Hermes 2 Pro: Hermes 2/3, Qwen 2.5 (and QwQ, Qwen 3) templates, recognised by {@code <tool_call>} in the template.
 * A call is {@code <tool_call>\n{"name": "...", "arguments": {...}}\n</tool_call>}, after any text; parallel calls
 * follow one another. A {@code <think>} block that opens the answer is reasoning.
 */
final class HermesFormat implements ToolFormat {

    static final String OPEN = "<tool_call>";
    static final String CLOSE = "</tool_call>";

    @Override
    public String name() {
        return "Hermes 2 Pro";
    }

    @Override
    public GbnfGrammar grammar(ToolSpec spec) {
        FormatGrammar g = new FormatGrammar();
        String ws = g.ws();
        List<String> arguments = g.arguments(spec.callable());
        String call = g.anyCall("call", spec.callable(), arguments, (tool, args) -> g.object(
                g.member("name", jsonString(tool.name())), g.member("arguments", args)));
        String block = g.rule("block", text(OPEN) + " " + ws + " " + call + " " + ws + " " + text(CLOSE));
        String more = spec.maxCalls() == 1 ? "" : " (" + ws + " " + block + "){0," + (spec.maxCalls() - 1) + "}";
        String rest = g.rule("rest", ws + " " + call + " " + ws + " " + text(CLOSE) + more + " " + ws);
        return g.answer(spec.forced(), text(OPEN) + " " + rest, Map.of(OPEN, rest));
    }

    @Override
    public ToolReply parse(String output, ToolSpec spec, CallContext ctx) {
        FormatText.Thought thought = FormatText.thought(output, "<think>", "</think>");
        String text = thought.rest();
        int at = text.indexOf(OPEN);
        if (at < 0) {
            return ToolReply.text(text, thought.reasoning());
        }
        List<ToolCall> calls = new ArrayList<>();
        int i = at;
        while ((i = FormatText.skipSpace(text, i)) < text.length()) {
            if (!text.startsWith(OPEN, i)) {
                throw FormatText.malformed(output, "text after a tool call");
            }
            FormatText.JsonAt call = FormatText.json(output, text, i + OPEN.length(), "tool call");
            JsonNode value = call.value();
            calls.add(FormatText.call(output, value.path("name"), value.path("arguments"), "", ctx));
            i = FormatText.skipSpace(text, call.end());
            if (!text.startsWith(CLOSE, i)) {
                throw FormatText.malformed(output, "a tool call without " + CLOSE);
            }
            i += CLOSE.length();
        }
        return new ToolReply(text.substring(0, at), thought.reasoning(), calls);
    }

    @Override
    public ToolReply partial(String output) {
        FormatText.Thought thought = FormatText.partialThought(output, "<think>", "</think>");
        return ToolReply.text(FormatText.beforeMarkers(thought.rest(), List.of(OPEN)), thought.reasoning());
    }
}
