package dev.pagantic.engine.llamacpp;

import static dev.pagantic.engine.llamacpp.FormatGrammar.text;

import dev.pagantic.core.CallContext;
import dev.pagantic.core.Schema;
import dev.pagantic.core.ToolCall;
import dev.pagantic.core.ToolDefinition;
import dev.pagantic.inference.grammar.GbnfGrammar;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import tools.jackson.databind.node.StringNode;

/**
 * Functionary v3.1 (Llama 3.1), recognised by {@code <|start_header_id|>} and {@code <function=} in the template:
 * after any text, {@code <function=NAME>{...}</function>} per call. A tool named {@code python} (or
 * {@code ipython}) may also be called the Llama 3.1 way, {@code <|python_tag|>} followed by the code itself, which
 * becomes the tool's one string argument.
 */
final class FunctionaryV31Format implements ToolFormat {

    static final String OPEN = "<function=";
    static final String CLOSE = "</function>";
    static final String PYTHON = "<|python_tag|>";

    @Override
    public String name() {
        return "Functionary v3.1 Llama 3.1";
    }

    @Override
    public GbnfGrammar grammar(ToolSpec spec) {
        FormatGrammar g = new FormatGrammar();
        String ws = g.ws();
        List<String> arguments = g.arguments(spec.callable());
        String tail = g.anyCall("tail", spec.callable(), arguments,
                (tool, args) -> text(tool.name() + ">") + " " + args + " " + text(CLOSE));
        String call = g.rule("call", text(OPEN) + " " + tail);
        Map<String, String> continuations = new LinkedHashMap<>();
        String more = spec.maxCalls() == 1 ? "" : " (" + ws + " " + call + "){0," + (spec.maxCalls() - 1) + "}";
        String rest = g.rule("rest", tail + more + " " + ws);
        continuations.put(OPEN, rest);
        List<String> forced = new ArrayList<>(List.of(call + more + " " + ws));
        if (python(spec.callable()).isPresent()) {
            continuations.put(PYTHON, ".*");
            forced.add(text(PYTHON) + " .*");
        }
        return g.answer(spec.forced(), String.join(" | ", forced), continuations);
    }

    @Override
    public ToolReply parse(String output, ToolSpec spec, CallContext ctx) {
        int at = FormatText.indexOfAny(output, List.of(OPEN, PYTHON), 0);
        if (at < 0) {
            return ToolReply.text(output, "");
        }
        List<ToolCall> calls = new ArrayList<>();
        int i = at;
        while ((i = FormatText.skipSpace(output, i)) < output.length()) {
            if (output.startsWith(PYTHON, i)) {
                String code = output.substring(i + PYTHON.length());
                Optional<ToolDefinition> python = python(spec.callable());
                String name = python.map(ToolDefinition::name).orElse("python");
                String argument = python.flatMap(tool -> codeArgument(tool.parameters())).orElse("code");
                calls.add(ToolCall.of("call_" + ctx.newId(), name, Map.of(argument, code)));
                break;
            }
            int nameEnd = output.indexOf('>', i);
            if (!output.startsWith(OPEN, i) || nameEnd < 0) {
                throw FormatText.malformed(output, "text after a tool call");
            }
            String name = output.substring(i + OPEN.length(), nameEnd);
            FormatText.JsonAt arguments = FormatText.json(output, output, nameEnd + 1, "arguments");
            calls.add(FormatText.call(output, StringNode.valueOf(name), arguments.value(), "", ctx));
            i = FormatText.skipSpace(output, arguments.end());
            if (!output.startsWith(CLOSE, i)) {
                throw FormatText.malformed(output, "a tool call without " + CLOSE);
            }
            i += CLOSE.length();
        }
        return new ToolReply(output.substring(0, at), "", calls);
    }

    @Override
    public ToolReply partial(String output) {
        return ToolReply.text(FormatText.beforeMarkers(output, List.of(OPEN, PYTHON)), "");
    }

    /** The python tool, when one is offered: called with its code after {@code <|python_tag|>}. */
    static Optional<ToolDefinition> python(List<ToolDefinition> tools) {
        return tools.stream().filter(tool -> tool.name().equals("python") || tool.name().equals("ipython"))
                .filter(tool -> codeArgument(tool.parameters()).isPresent()).findFirst();
    }

    /** The one string property of the python tool's parameters, which holds the code. */
    static Optional<String> codeArgument(Schema parameters) {
        List<String> strings = Parameters.properties(parameters).entrySet().stream()
                .filter(property -> property.getValue().types().equals(Set.of("string"))).map(Map.Entry::getKey)
                .toList();
        return strings.size() == 1 ? Optional.of(strings.get(0)) : Optional.empty();
    }
}
