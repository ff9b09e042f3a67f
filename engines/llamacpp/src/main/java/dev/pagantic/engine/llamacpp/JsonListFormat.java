package dev.pagantic.engine.llamacpp;

import static dev.pagantic.engine.llamacpp.FormatGrammar.jsonString;
import static dev.pagantic.engine.llamacpp.FormatGrammar.text;

import dev.pagantic.core.CallContext;
import dev.pagantic.inference.grammar.GbnfGrammar;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/**
 * The formats whose calls are one JSON array after an opening, which any text may precede: Mistral Nemo
 * ({@code [TOOL_CALLS][...]}) and FireFunction v2 ({@code  functools[...]}, the opening ending with the array's
 * {@code [}). Each call is {@code {"name": ..., "arguments": {...}}}, with an {@code "id"} where the template needs one.
 */
abstract class JsonListFormat implements ToolFormat {

    private final String opening;
    private final String idPattern;

    /**
     * @param opening   the marker before the array ({@code [} included when the model writes it as part of it)
     * @param idPattern a character class and count for an {@code id} member ({@code [a-zA-Z0-9]{9}}), or empty
     */
    JsonListFormat(String opening, String idPattern) {
        this.opening = opening;
        this.idPattern = idPattern;
    }

    @Override
    public GbnfGrammar grammar(ToolSpec spec) {
        FormatGrammar g = new FormatGrammar();
        String ws = g.ws();
        String call = g.anyCall("call", spec.callable(), g.arguments(spec.callable()), (tool, args) -> {
            List<String> members = new ArrayList<>(List.of(g.member("name", jsonString(tool.name())),
                    g.member("arguments", args)));
            if (!idPattern.isEmpty()) {
                members.add(g.member("id", "\"\\\"\" " + idPattern + " \"\\\"\""));
            }
            return g.object(members.toArray(String[]::new));
        });
        String open = opening.endsWith("[") ? "" : "\"[\" " + ws + " ";
        String rest = g.rule("rest", ws + " " + open + FormatGrammar.repeated(call, "\",\" " + ws, spec.maxCalls())
                + " " + ws + " \"]\" " + ws);
        return g.answer(spec.forced(), text(opening) + " " + rest, Map.of(opening, rest));
    }

    @Override
    public ToolReply parse(String output, ToolSpec spec, CallContext ctx) {
        int at = output.indexOf(opening);
        if (at < 0) {
            return ToolReply.text(output, "");
        }
        int list = at + opening.length() - (opening.endsWith("[") ? 1 : 0);
        return FormatText.textThenCallArray(output, at, list, idPattern.isEmpty() ? "" : "id", ctx);
    }

    @Override
    public ToolReply partial(String output) {
        return ToolReply.text(FormatText.beforeMarkers(output, List.of(opening)), "");
    }
}
