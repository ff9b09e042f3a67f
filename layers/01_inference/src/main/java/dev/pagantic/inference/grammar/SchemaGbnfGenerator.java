package dev.pagantic.inference.grammar;

import dev.pagantic.core.ErrorCode;
import dev.pagantic.core.PaganticException;
import dev.pagantic.core.Schema;
import dev.pagantic.core.ToolDefinition;
import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * Derives a GBNF grammar from a {@link Schema}, so that structured output is constrained at the decoder without a
 * hand-written grammar. The grammar accepts exactly the JSON documents the schema describes (objects closed to their
 * declared properties, keys in declaration order, optional properties omissible), with limited whitespace between
 * tokens: unbounded whitespace lets small models pad forever. Defaults and descriptions do not constrain output.
 *
 * <p>An object's members compile to a chain of rules, two per property: the members from property <i>i</i> on when
 * none has been written yet, and when one has (so a comma is needed). That keeps the grammar linear in the number of
 * properties however many are optional.
 */
final class SchemaGbnfGenerator {

    /** Arrays and strings longer than this are not bounded in the grammar (llama.cpp caps repetitions); validation is. */
    private static final int MAX_GRAMMAR_REPETITION = GbnfParser.MAX_REPETITIONS;

    /**
     * Schemas nested deeper than this (objects in objects, arrays of arrays) are refused with {@code CONFIG_INVALID}:
     * generation recurses once per level. A schema read from JSON is already bounded by Jackson's nesting limit (500
     * JSON levels, about 250 schema levels), but one built in code is not.
     */
    static final int MAX_SCHEMA_DEPTH = 128;

    /** Shared rules, emitted once each when used, in this order. */
    private static final Map<String, String> PRIMITIVES = primitives();

    /** The primitives each primitive refers to (transitively closed). */
    private static final Map<String, List<String>> PRIMITIVE_DEPENDENCIES = Map.of(
            "string", List.of("char"),
            "value", List.of("object", "array", "string", "char", "number", "boolean", "null"));

    private final Map<String, String> rules = new LinkedHashMap<>();
    private final Set<String> usedPrimitives = new LinkedHashSet<>(List.of("ws"));

    static String generate(Schema schema) {
        SchemaGbnfGenerator generator = new SchemaGbnfGenerator();
        String top = generator.valueRule(schema, "root", 0);
        if (!top.equals("root")) {
            generator.rules.put("root", top);
        }
        return generator.render();
    }

    /**
     * The grammar of a tool-call envelope ({@code {"tool_calls":[{"name":...,"arguments":{...}}, ...]}}, each call
     * naming one of the tools with arguments of its parameter schema), or, when answers are allowed, of either that
     * envelope or a plain-text answer that does not start with {@code {}.
     */
    static String generateToolCalls(List<ToolDefinition> tools, boolean allowAnswer, int maxCalls) {
        SchemaGbnfGenerator generator = new SchemaGbnfGenerator();
        List<String> calls = new ArrayList<>();
        for (int i = 0; i < tools.size(); i++) {
            ToolDefinition tool = tools.get(i);
            String name = "tool" + i;
            String arguments = generator.valueRule(tool.parameters(), name + "-args", 0);
            calls.add(generator.define(name + "-call", "\"{\" ws " + literal(jsonString("name")) + " ws \":\" ws "
                    + literal(jsonString(tool.name())) + " ws \",\" ws " + literal(jsonString("arguments"))
                    + " ws \":\" ws " + arguments + " ws \"}\""));
        }
        String call = generator.define("call", String.join(" | ", calls));
        String envelope = generator.define("envelope", "\"{\" ws " + literal(jsonString(TOOL_CALLS_KEY))
                + " ws \":\" ws \"[\" ws " + call + " ws" + (maxCalls > 1 ? " (\",\" ws " + call + " ws)"
                + repetition(0, maxCalls - 1) : "")
                + " \"]\" ws \"}\"");
        generator.rules.put("root", allowAnswer ? envelope + " | answer" : envelope);
        if (allowAnswer) {
            generator.rules.put("answer", "[^{] .*");
        }
        return generator.render();
    }

    /** The key of the tool-call envelope's list of calls. */
    static final String TOOL_CALLS_KEY = "tool_calls";
    /** The most calls one envelope holds. */
    static final int MAX_CALLS = 8;

    /** Defines what the schema needs and returns the name of the rule that matches one value of it. */
    private String valueRule(Schema schema, String name, int depth) {
        if (depth > MAX_SCHEMA_DEPTH) {
            throw PaganticException.of(ErrorCode.CONFIG_INVALID, "invalid schema: nested deeper than "
                    + MAX_SCHEMA_DEPTH + " levels at " + name);
        }
        if (!schema.enumValues().isEmpty()) {
            // JSON Schema applies maxLength to enum values too, so a value longer than it is no instance.
            int maxLength = schema.maxLength().orElse(Integer.MAX_VALUE);
            List<String> literals = new ArrayList<>();
            schema.enumValues().stream().filter(value -> value.codePointCount(0, value.length()) <= maxLength)
                    .forEach(value -> literals.add(literal(jsonString(value))));
            if (literals.isEmpty()) {
                throw PaganticException.of(ErrorCode.CONFIG_INVALID, "invalid schema: no enum value of " + name
                        + " is within its maxLength " + maxLength + ": " + schema.enumValues());
            }
            return define(name, String.join(" | ", literals));
        }
        return switch (schema.type()) {
            case "object" -> define(name, objectExpression(schema, name, depth));
            case "array" -> define(name, arrayExpression(schema, name, depth));
            case "string" -> schema.maxLength().isPresent()
                    ? define(name, "\"\\\"\" " + primitive("char")
                    + repetition(0, schema.maxLength().getAsInt()) + " \"\\\"\"")
                    : primitive("string");
            case "number", "integer", "boolean", "null" -> primitive(schema.type());
            default -> primitive("value");
        };
    }

    private String objectExpression(Schema schema, String name, int depth) {
        List<String> keys = new ArrayList<>(schema.properties().keySet());
        List<String> members = new ArrayList<>();
        for (String key : keys) {
            String value = valueRule(schema.properties().get(key), name + "-" + sanitize(key), depth + 1);
            members.add(define(name + "-" + sanitize(key) + "-kv", literal(jsonString(key)) + " ws \":\" ws " + value
                    + " ws"));
        }
        return keys.isEmpty() ? "\"{\" ws \"}\"" : "\"{\" ws " + membersChain(schema, name, keys, members) + " \"}\"";
    }

    /** Defines the member chain rules and returns the chain's start (no member written yet). */
    private String membersChain(Schema schema, String name, List<String> keys, List<String> members) {
        String nextFirst = "";
        String nextAfter = "";
        for (int i = keys.size() - 1; i >= 0; i--) {
            boolean required = schema.required().contains(keys.get(i));
            String takeFirst = join(members.get(i), nextAfter);
            String takeAfter = join("\",\" ws " + members.get(i), nextAfter);
            String first = define(name + "-m" + i, required ? takeFirst : takeFirst + " | " + orEmpty(nextFirst));
            if (i > 0) { // nothing precedes the first member, so it never needs a comma
                nextAfter = define(name + "-m" + i + "-more",
                        required ? takeAfter : takeAfter + " | " + orEmpty(nextAfter));
            }
            nextFirst = first;
        }
        return nextFirst;
    }

    private String arrayExpression(Schema schema, String name, int depth) {
        String item = schema.items().map(items -> valueRule(items, name + "-item", depth + 1))
                .orElseGet(() -> primitive("value"));
        int min = schema.minItems().orElse(0);
        int max = schema.maxItems().orElse(-1);
        if (max == 0) {
            return "\"[\" ws \"]\"";
        }
        String tail = "(\",\" ws " + item + " ws)" + repetition(Math.max(min - 1, 0), max < 0 ? -1 : max - 1);
        String elements = item + " ws " + tail;
        return "\"[\" ws " + (min == 0 ? "(" + elements + ")?" : elements) + " \"]\"";
    }

    /** A GBNF repetition suffix for {min,max} (max -1: unbounded), dropping bounds llama.cpp would refuse. */
    private static String repetition(int min, int max) {
        boolean unbounded = max < 0 || max > MAX_GRAMMAR_REPETITION;
        if (min > MAX_GRAMMAR_REPETITION || (unbounded && min == 0)) {
            return "*";
        }
        return unbounded ? "{" + min + ",}" : "{" + min + "," + max + "}";
    }

    private String define(String name, String expression) {
        String unique = name;
        for (int n = 2; rules.containsKey(unique) || PRIMITIVES.containsKey(unique); n++) {
            unique = name + "-" + n;
        }
        rules.put(unique, expression);
        return unique;
    }

    private String primitive(String name) {
        usedPrimitives.add(name);
        usedPrimitives.addAll(PRIMITIVE_DEPENDENCIES.getOrDefault(name, List.of()));
        return name;
    }

    private String render() {
        StringBuilder grammar = new StringBuilder();
        grammar.append("root ::= ").append(rules.get("root")).append('\n');
        rules.forEach((name, expression) -> {
            if (!name.equals("root")) {
                grammar.append(name).append(" ::= ").append(expression).append('\n');
            }
        });
        PRIMITIVES.forEach((name, expression) -> {
            if (usedPrimitives.contains(name)) {
                grammar.append(name).append(" ::= ").append(expression).append('\n');
            }
        });
        return grammar.toString();
    }

    private static Map<String, String> primitives() {
        Map<String, String> primitives = new LinkedHashMap<>();
        primitives.put("value", "object | array | string | number | boolean | null");
        primitives.put("object", "\"{\" ws ( string ws \":\" ws value ws (\",\" ws string ws \":\" ws value ws)* )? \"}\"");
        primitives.put("array", "\"[\" ws ( value ws (\",\" ws value ws)* )? \"]\"");
        primitives.put("string", "\"\\\"\" char* \"\\\"\"");
        // A backslash-u escape names a code point outside the surrogates, or a high and a low surrogate as one pair:
        // a lone surrogate is no character (Jackson refuses one in a property name), and JSON Schema's maxLength
        // counts a pair as one character, as a char{0,n} repetition then does.
        primitives.put("char", "[^\"\\\\\\x7F\\x00-\\x1F] | \"\\\\\" ([\"\\\\/bfnrt] | \"u\" ("
                + "[0-9a-cA-Ce-fE-F] [0-9a-fA-F]{3} | [dD] [0-7] [0-9a-fA-F]{2}"
                + " | [dD] [89abAB] [0-9a-fA-F]{2} \"\\\\u\" [dD] [c-fC-F] [0-9a-fA-F]{2}))");
        primitives.put("integer", "\"-\"? (\"0\" | [1-9] [0-9]{0,15})");
        primitives.put("number", "\"-\"? (\"0\" | [1-9] [0-9]{0,15}) (\".\" [0-9]{1,16})? ([eE] [-+]? [0-9]{1,4})?");
        primitives.put("boolean", "\"true\" | \"false\"");
        primitives.put("null", "\"null\"");
        primitives.put("ws", "| \" \" | \"\\n\" [ \\t]{0,20}");
        return Collections.unmodifiableMap(primitives);
    }

    private static String join(String first, String second) {
        return second.isEmpty() ? first : first + " " + second;
    }

    private static String orEmpty(String rule) {
        return rule.isEmpty() ? "\"\"" : rule;
    }

    /** A rule-name fragment from a property name: GBNF names allow letters, digits and '-'. */
    private static String sanitize(String key) {
        String cleaned = key.replaceAll("[^A-Za-z0-9]+", "-").replaceAll("^-+|-+$", "");
        return cleaned.isEmpty() ? "p" : cleaned;
    }

    /** The JSON text of a string value. */
    static String jsonString(String value) {
        StringBuilder json = new StringBuilder("\"");
        value.codePoints().forEach(c -> {
            switch (c) {
                case '"' -> json.append("\\\"");
                case '\\' -> json.append("\\\\");
                case '\n' -> json.append("\\n");
                case '\r' -> json.append("\\r");
                case '\t' -> json.append("\\t");
                case '\b' -> json.append("\\b");
                case '\f' -> json.append("\\f");
                default -> {
                    if (c < 0x20 || c == 0x7f) {
                        json.append(String.format("\\u%04x", c));
                    } else {
                        json.appendCodePoint(c);
                    }
                }
            }
        });
        return json.append('"').toString();
    }

    /** A GBNF literal matching exactly the given text. */
    static String literal(String text) {
        StringBuilder gbnf = new StringBuilder("\"");
        text.codePoints().forEach(c -> {
            switch (c) {
                case '"' -> gbnf.append("\\\"");
                case '\\' -> gbnf.append("\\\\");
                case '\n' -> gbnf.append("\\n");
                case '\r' -> gbnf.append("\\r");
                case '\t' -> gbnf.append("\\t");
                default -> {
                    if (c < 0x20 || c == 0x7f) {
                        gbnf.append(String.format("\\x%02X", c));
                    } else {
                        gbnf.appendCodePoint(c);
                    }
                }
            }
        });
        return gbnf.append('"').toString();
    }
}
