package dev.pagantic.engine.llamacpp;

import static dev.pagantic.engine.llamacpp.FormatGrammar.text;

import dev.pagantic.core.CallContext;
import dev.pagantic.core.ToolCall;
import dev.pagantic.inference.grammar.GbnfGrammar;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import tools.jackson.databind.node.StringNode;

/**
 * Functionary v3.2, recognised by {@code >>>all} in the template, whose prompt ends with {@code >>>}: the model
 * writes a recipient, a newline and the content. Recipient {@code all} is the answer's text, any other is a tool
 * with its JSON arguments; more messages follow, each after {@code >>>}. So an answer is {@code all\nText} (perhaps
 * followed by calls) or {@code NAME\n{...}>>>NAME\n{...}}.
 */
final class FunctionaryV32Format implements ToolFormat {

    static final String TEXT = "all\n";
    static final String NEXT = ">>>";
    private static final Pattern RECIPIENT = Pattern.compile("([A-Za-z0-9_-]+)\n");

    @Override
    public String name() {
        return "Functionary v3.2";
    }

    @Override
    public GbnfGrammar grammar(ToolSpec spec) {
        FormatGrammar g = new FormatGrammar();
        String ws = g.ws();
        String call = g.anyCall("call", spec.callable(), g.arguments(spec.callable()),
                (tool, args) -> text(tool.name() + "\n") + " " + args);
        String calls = g.rule("calls", FormatGrammar.repeated(call, ws + " " + text(NEXT), spec.maxCalls()) + " "
                + ws);
        if (spec.forced()) {
            return g.root(calls);
        }
        return g.root(text(TEXT) + " " + g.textUntil("text", Map.of(NEXT, calls)) + " | " + calls);
    }

    @Override
    public ToolReply parse(String output, ToolSpec spec, CallContext ctx) {
        String content = "";
        int from = 0;
        if (output.startsWith(TEXT)) {
            int next = output.indexOf(NEXT, TEXT.length());
            if (next < 0) {
                return ToolReply.text(output.substring(TEXT.length()), "");
            }
            content = output.substring(TEXT.length(), next);
            from = next + NEXT.length();
        } else if (!RECIPIENT.matcher(output).lookingAt()) {
            return ToolReply.text(output, ""); // no recipient: what the model wrote is its answer
        }
        List<ToolCall> calls = new ArrayList<>();
        int i = from;
        while (true) {
            Matcher recipient = RECIPIENT.matcher(output).region(i, output.length());
            if (!recipient.lookingAt()) {
                throw FormatText.malformed(output, "a message without a recipient");
            }
            FormatText.JsonAt arguments = FormatText.json(output, output, recipient.end(), "arguments");
            calls.add(FormatText.call(output, StringNode.valueOf(recipient.group(1)), arguments.value(), "", ctx));
            i = FormatText.skipSpace(output, arguments.end());
            if (i >= output.length()) {
                return new ToolReply(content, "", calls);
            }
            if (!output.startsWith(NEXT, i)) {
                throw FormatText.malformed(output, "text after a tool call");
            }
            i += NEXT.length();
        }
    }

    @Override
    public ToolReply partial(String output) {
        if (output.startsWith(TEXT)) {
            return ToolReply.text(FormatText.beforeMarkers(output.substring(TEXT.length()), List.of(NEXT)), "");
        }
        return ToolReply.text("", ""); // a call, or the recipient not yet complete
    }
}
