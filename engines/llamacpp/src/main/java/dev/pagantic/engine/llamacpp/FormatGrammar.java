package dev.pagantic.engine.llamacpp;

import dev.pagantic.core.Schema;
import dev.pagantic.core.ToolDefinition;
import dev.pagantic.inference.grammar.GbnfGrammar;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.function.BiFunction;

/**
 * Builds the grammar of a tool-call format on the inference layer's {@link GbnfGrammar.Builder}: JSON objects with
 * fixed keys, each tool's arguments constrained by the grammar of its parameter schema, repeated calls, and the two
 * shapes of a whole answer: calls only (a forced call), or free text that turns into calls where the model writes the
 * format's opening (the equivalent of llama.cpp's lazy grammar, see {@link ToolFormat}).
 */
final class FormatGrammar {

    private final GbnfGrammar.Builder builder = GbnfGrammar.builder();
    private final String ws = builder.whitespace();

    /** Bounded whitespace between tokens. */
    String ws() {
        return ws;
    }

    /** Defines a rule and returns its name. */
    String rule(String name, String expression) {
        builder.rule(name, expression);
        return name;
    }

    /** A literal. */
    static String text(String text) {
        return GbnfGrammar.literal(text);
    }

    /** The JSON string of a value, as a literal. */
    static String jsonString(String value) {
        return GbnfGrammar.jsonStringLiteral(value);
    }

    /** A JSON string of 1 to {@code max} characters of the class, such as an id the template expects. */
    static String jsonString(String charClass, int min, int max) {
        return "\"\\\"\" " + charClass + "{" + min + "," + max + "} \"\\\"\"";
    }

    /** A JSON object of these members ({@link #member}), in order. */
    String object(String... members) {
        return "\"{\" " + ws + " " + String.join(" " + ws + " \",\" " + ws + " ", members) + " " + ws + " \"}\"";
    }

    /** One member of a JSON object: the key and the expression of its value. */
    String member(String key, String value) {
        return jsonString(key) + " " + ws + " \":\" " + ws + " " + value;
    }

    /**
     * The rule of each tool's arguments ({@code args0}, {@code args1}, ...), from its parameter schema. Arguments are
     * always a JSON object: parameters that do not say so ({@code {}} included) are read as an object of them. Where
     * the parameters declare properties and say nothing about others, the grammar admits the declared ones only: a
     * schema read from JSON is open by default, and a small model given an open object writes keys until its token
     * limit, while no tool has a use for parameters it never described.
     */
    List<String> arguments(List<ToolDefinition> tools) {
        List<String> rules = new ArrayList<>();
        for (int i = 0; i < tools.size(); i++) {
            rules.add(builder.schema("args" + i, asObject(tools.get(i).parameters())));
        }
        return rules;
    }

    private static Schema asObject(Schema parameters) {
        Map<String, Object> document = new LinkedHashMap<>(parameters.toJsonSchema());
        boolean typed = document.containsKey("type");
        boolean silentOnOthers = document.containsKey("properties") && !document.containsKey("additionalProperties")
                && !document.containsKey("patternProperties") && !document.containsKey("unevaluatedProperties");
        if (typed && !silentOnOthers) {
            return parameters;
        }
        document.putIfAbsent("type", "object");
        if (silentOnOthers) {
            document.put("additionalProperties", false);
        }
        return Schema.fromJsonSchema(document);
    }

    /** The rule of one JSON value of the schema, embedded under {@code name}. */
    String schema(String name, Schema schema) {
        return builder.schema(name, schema);
    }

    /**
     * A rule matching one call of any of the tools.
     *
     * @param call the expression of a call of tool {@code i}, given the tool and the rule of its arguments
     */
    String anyCall(String name, List<ToolDefinition> tools, List<String> arguments,
                   BiFunction<ToolDefinition, String, String> call) {
        List<String> alternatives = new ArrayList<>();
        for (int i = 0; i < tools.size(); i++) {
            alternatives.add(call.apply(tools.get(i), arguments.get(i)));
        }
        return rule(name, String.join(" | ", alternatives));
    }

    /** Free text until the first trigger, then the trigger's continuation. */
    String textUntil(String name, Map<String, String> continuations) {
        return builder.textUntil(name, continuations);
    }

    /** One to {@code max} items with the separator between them. */
    static String repeated(String item, String separator, int max) {
        return max == 1 ? item : item + " (" + separator + " " + item + "){0," + (max - 1) + "}";
    }

    /**
     * The grammar of an answer: with {@code forced}, just {@code calls}; otherwise free text until the first trigger,
     * each trigger followed by its continuation (the rest of the call it opened).
     */
    GbnfGrammar answer(boolean forced, String calls, Map<String, String> continuations) {
        return root(forced ? calls : textUntil("text", continuations));
    }

    /** Free text that does not open with any of the prefixes. */
    String textNotStartingWith(String name, List<String> prefixes) {
        return builder.textNotStartingWith(name, prefixes);
    }

    /** The grammar with this root. */
    GbnfGrammar root(String expression) {
        builder.rule("root", expression);
        return builder.build();
    }
}
