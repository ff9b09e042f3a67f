package dev.pagantic.engine.llamacpp;

import static dev.pagantic.engine.llamacpp.FormatGrammar.text;

import dev.pagantic.core.CallContext;
import dev.pagantic.core.ToolCall;
import dev.pagantic.inference.grammar.GbnfGrammar;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import tools.jackson.databind.node.StringNode;

/**
 * DeepSeek R1 (and its distills), recognised by {@code <｜tool▁calls▁begin｜>} in the template. Reasoning opens the
 * answer, ending with {@code </think>}; calls are
 * {@code <｜tool▁calls▁begin｜><｜tool▁call▁begin｜>function<｜tool▁sep｜>NAME\n```json\n{...}\n```<｜tool▁call▁end｜>
 * <｜tool▁calls▁end｜>}. As llama.cpp does, the three spellings of the opening that the distilled models also write are
 * accepted (and constrained from there on).
 */
final class DeepSeekR1Format implements ToolFormat {

    static final String OPEN = "<｜tool▁calls▁begin｜>";
    static final List<String> OPENINGS = List.of(OPEN, "<｜tool_calls_begin｜>", "<｜tool calls begin｜>",
            "<｜tool\\_calls\\_begin｜>");
    static final String CLOSE = "<｜tool▁calls▁end｜>";
    private static final String CALL = "<｜tool▁call▁begin｜>function<｜tool▁sep｜>";
    private static final String CODE = "\n```json\n";
    private static final String CALL_END = "```<｜tool▁call▁end｜>";

    @Override
    public String name() {
        return "DeepSeek R1";
    }

    @Override
    public GbnfGrammar grammar(ToolSpec spec) {
        FormatGrammar g = new FormatGrammar();
        String ws = g.ws();
        String call = g.anyCall("call", spec.callable(), g.arguments(spec.callable()),
                (tool, args) -> text(CALL + tool.name() + CODE) + " " + args + " " + ws + " " + text(CALL_END));
        String rest = g.rule("rest", ws + " " + FormatGrammar.repeated(call, ws, spec.maxCalls()) + " " + ws + " "
                + text(CLOSE) + " " + ws);
        Map<String, String> continuations = new LinkedHashMap<>();
        OPENINGS.forEach(opening -> continuations.put(opening, rest));
        List<String> openings = OPENINGS.stream().map(FormatGrammar::text).toList();
        return g.answer(spec.forced(), "(" + String.join(" | ", openings) + ") " + rest, continuations);
    }

    @Override
    public ToolReply parse(String output, ToolSpec spec, CallContext ctx) {
        FormatText.Thought thought = FormatText.thought(output, "<think>", "</think>");
        String text = thought.rest();
        int at = FormatText.indexOfAny(text, OPENINGS, 0);
        if (at < 0) {
            return ToolReply.text(text, thought.reasoning());
        }
        int i = at + OPENINGS.stream().filter(opening -> text.startsWith(opening, at)).findFirst().orElseThrow()
                .length();
        List<ToolCall> calls = new ArrayList<>();
        while (!text.startsWith(CLOSE, i = FormatText.skipSpace(text, i))) {
            if (i >= text.length()) {
                throw FormatText.malformed(output, "tool calls not closed by " + CLOSE);
            }
            if (!text.startsWith(CALL, i)) {
                throw FormatText.malformed(output, "a tool call without " + CALL);
            }
            int nameEnd = text.indexOf('\n', i + CALL.length());
            if (nameEnd < 0 || !text.startsWith(CODE, nameEnd)) {
                throw FormatText.malformed(output, "a tool call without its json block");
            }
            String name = text.substring(i + CALL.length(), nameEnd).strip();
            FormatText.JsonAt arguments = FormatText.json(output, text, nameEnd + CODE.length(), "arguments");
            calls.add(FormatText.call(output, StringNode.valueOf(name), arguments.value(), "", ctx));
            i = FormatText.skipSpace(text, arguments.end());
            if (!text.startsWith(CALL_END, i)) {
                throw FormatText.malformed(output, "a tool call without " + CALL_END);
            }
            i += CALL_END.length();
        }
        if (FormatText.skipSpace(text, i + CLOSE.length()) < text.length()) {
            throw FormatText.malformed(output, "text after the tool calls");
        }
        return new ToolReply(text.substring(0, at), thought.reasoning(), calls);
    }

    @Override
    public ToolReply partial(String output) {
        FormatText.Thought thought = FormatText.partialThought(output, "<think>", "</think>");
        return ToolReply.text(FormatText.beforeMarkers(thought.rest(), OPENINGS), thought.reasoning());
    }
}
