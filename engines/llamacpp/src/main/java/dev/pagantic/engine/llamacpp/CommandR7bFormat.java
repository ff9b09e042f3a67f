package dev.pagantic.engine.llamacpp;

import static dev.pagantic.engine.llamacpp.FormatGrammar.jsonString;
import static dev.pagantic.engine.llamacpp.FormatGrammar.text;

import dev.pagantic.core.CallContext;
import dev.pagantic.inference.grammar.GbnfGrammar;
import java.util.List;
import java.util.Map;

/**
 * Command R7B, recognised by {@code <|END_THINKING|><|START_ACTION|>} in the template. The model thinks between
 * {@code <|START_THINKING|>} and {@code <|END_THINKING|>} (reasoning), answers between {@code <|START_RESPONSE|>} and
 * {@code <|END_RESPONSE|>}, and calls tools with {@code <|START_ACTION|>[{"tool_call_id": "0", "tool_name": ...,
 * "parameters": {...}}]<|END_ACTION|>}; the template refers back to the (numeric) ids, so they are kept.
 */
final class CommandR7bFormat implements ToolFormat {

    static final String OPEN = "<|START_ACTION|>";
    static final String CLOSE = "<|END_ACTION|>";
    private static final String THINKING = "<|START_THINKING|>";
    private static final String THOUGHT = "<|END_THINKING|>";
    private static final String RESPONSE = "<|START_RESPONSE|>";
    private static final String RESPONDED = "<|END_RESPONSE|>";

    @Override
    public String name() {
        return "Command R7B";
    }

    @Override
    public GbnfGrammar grammar(ToolSpec spec) {
        FormatGrammar g = new FormatGrammar();
        String ws = g.ws();
        String call = g.anyCall("call", spec.callable(), g.arguments(spec.callable()), (tool, args) -> g.object(
                g.member("tool_call_id", FormatGrammar.jsonString("[0-9]", 1, 10)),
                g.member("tool_name", jsonString(tool.name())), g.member("parameters", args)));
        String rest = g.rule("rest", ws + " \"[\" " + ws + " "
                + FormatGrammar.repeated(call, "\",\" " + ws, spec.maxCalls()) + " " + ws + " \"]\" " + ws + " "
                + text(CLOSE) + " " + ws);
        return g.answer(spec.forced(), text(OPEN) + " " + rest, Map.of(OPEN, rest));
    }

    @Override
    public ToolReply parse(String output, ToolSpec spec, CallContext ctx) {
        FormatText.Thought thought = FormatText.thought(output, THINKING, THOUGHT);
        String text = thought.rest();
        int at = text.indexOf(OPEN);
        if (at < 0) {
            return ToolReply.text(response(text), thought.reasoning());
        }
        FormatText.JsonAt calls = FormatText.json(output, text, at + OPEN.length(), "list of tool calls");
        int end = FormatText.skipSpace(text, calls.end());
        if (!text.startsWith(CLOSE, end) || FormatText.skipSpace(text, end + CLOSE.length()) < text.length()) {
            throw FormatText.malformed(output, "tool calls not closed by " + CLOSE);
        }
        return new ToolReply(response(text.substring(0, at)), thought.reasoning(),
                FormatText.calls(output, calls.value(), "tool_name", "parameters", "tool_call_id", ctx));
    }

    @Override
    public ToolReply partial(String output) {
        FormatText.Thought thought = FormatText.partialThought(output, THINKING, THOUGHT);
        String text = thought.rest();
        if (RESPONSE.startsWith(text)) {
            return ToolReply.text("", thought.reasoning());
        }
        String body = text.startsWith(RESPONSE) ? text.substring(RESPONSE.length()) : text;
        return ToolReply.text(FormatText.beforeMarkers(body, List.of(RESPONDED, OPEN)), thought.reasoning());
    }

    /** The answer in the text: between the response markers, either of which may be missing. */
    private static String response(String text) {
        String body = text.startsWith(RESPONSE) ? text.substring(RESPONSE.length()) : text;
        int end = body.indexOf(RESPONDED);
        return end < 0 ? body : body.substring(0, end);
    }
}
