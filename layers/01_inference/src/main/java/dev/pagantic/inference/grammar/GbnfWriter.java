package dev.pagantic.inference.grammar;

import java.util.Collections;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * The rules of a grammar being written: unique rule names, the shared rules (JSON values, strings, numbers, dates,
 * whitespace) emitted once each when used, and GBNF literals of JSON text. One writer per generated grammar; not
 * thread-safe.
 */
final class GbnfWriter {

    /** Shared rules, emitted once each when used, in this order. */
    private static final Map<String, String> PRIMITIVES = primitives();

    /** The primitives each primitive refers to (transitively closed). */
    private static final Map<String, List<String>> PRIMITIVE_DEPENDENCIES = Map.of(
            "string", List.of("char", "escape"),
            "char", List.of("escape"),
            "value", List.of("object", "array", "string", "char", "escape", "number", "boolean", "null"),
            "date-time", List.of("date", "time"));

    private final Map<String, String> rules = new LinkedHashMap<>();
    private final Set<String> usedPrimitives = new LinkedHashSet<>(List.of("ws"));
    private final Map<String, Integer> nextSuffix = new HashMap<>();

    /** Sets a rule's expression (a reserved name's, or root's). */
    void put(String name, String expression) {
        rules.put(name, expression);
    }

    /** A GBNF repetition suffix for {min,max} (max -1: unbounded), dropping bounds llama.cpp would refuse. */
    static String repetition(int min, int max) {
        boolean unbounded = max < 0 || max > SchemaGbnfGenerator.MAX_GRAMMAR_REPETITION;
        if (min > SchemaGbnfGenerator.MAX_GRAMMAR_REPETITION || (unbounded && min == 0)) {
            return "*";
        }
        if (min == 0 && max == 1) {
            return "?";
        }
        return unbounded ? "{" + min + ",}" : "{" + min + "," + max + "}";
    }

    /** A rule name not yet used: the name, or the name with the next free number for it. */
    String reserve(String name) {
        String unique = name;
        int n = nextSuffix.getOrDefault(name, 2);
        while (rules.containsKey(unique) || PRIMITIVES.containsKey(unique)) {
            unique = name + "-" + n++;
        }
        nextSuffix.put(name, n);
        rules.put(unique, null);
        return unique;
    }

    /** Defines a rule under a name not yet used, derived from {@code name}; returns the name used. */
    String define(String name, String expression) {
        String unique = reserve(name);
        rules.put(unique, expression);
        return unique;
    }

    /** Marks a shared rule as used (with the rules it refers to) and returns its name. */
    String primitive(String name) {
        usedPrimitives.add(name);
        usedPrimitives.addAll(PRIMITIVE_DEPENDENCIES.getOrDefault(name, List.of()));
        return name;
    }

    /** The grammar text: root first, then the rules in order of definition, then the shared rules used. */
    String render() {
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
        primitives.put("char", "[^\"\\\\\\x7F\\x00-\\x1F] | escape");
        // A backslash-u escape names a code point outside the surrogates, or a high and a low surrogate as one pair:
        // a lone surrogate is no character (Jackson refuses one in a property name), and JSON Schema's maxLength
        // counts a pair as one character, as a char{0,n} repetition then does.
        primitives.put("escape", "\"\\\\\" ([\"\\\\/bfnrt] | \"u\" ("
                + "[0-9a-cA-Ce-fE-F] [0-9a-fA-F]{3} | [dD] [0-7] [0-9a-fA-F]{2}"
                + " | [dD] [89abAB] [0-9a-fA-F]{2} \"\\\\u\" [dD] [c-fC-F] [0-9a-fA-F]{2}))");
        primitives.put("integer", "\"-\"? (\"0\" | [1-9] [0-9]{0,15})");
        primitives.put("number", "\"-\"? (\"0\" | [1-9] [0-9]{0,15}) (\".\" [0-9]{1,16})? ([eE] [-+]? [0-9]{1,4})?");
        primitives.put("boolean", "\"true\" | \"false\"");
        primitives.put("null", "\"null\"");
        // RFC 3339 full-date, full-time and date-time (the formats JSON Schema names date, time and date-time), and
        // RFC 4122 UUIDs; days per month and leap seconds are checked by the validator. Fractions of a second have at
        // most 16 digits, as numbers do: a small model otherwise writes zeros until the token limit.
        primitives.put("date-time", "date [tT] time");
        primitives.put("date", "[0-9]{4} \"-\" (\"0\" [1-9] | \"1\" [0-2]) \"-\" (\"0\" [1-9] | [12] [0-9] | \"3\" [01])");
        primitives.put("time", "([01] [0-9] | \"2\" [0-3]) \":\" [0-5] [0-9] \":\" ([0-5] [0-9] | \"60\")"
                + " (\".\" [0-9]{1,16})? ([zZ] | [-+] ([01] [0-9] | \"2\" [0-3]) \":\" [0-5] [0-9])");
        primitives.put("uuid", "[0-9a-fA-F]{8} \"-\" [0-9a-fA-F]{4} \"-\" [0-9a-fA-F]{4} \"-\" [0-9a-fA-F]{4} \"-\""
                + " [0-9a-fA-F]{12}");
        // RFC 3339 appendix A durations (JSON Schema's duration): date, then time elements, in order, or weeks alone.
        String time = "\"T\" [0-9]+ (\"H\" ([0-9]+ \"M\" ([0-9]+ \"S\")?)? | \"M\" ([0-9]+ \"S\")? | \"S\")";
        primitives.put("duration", "\"P\" ([0-9]+ (\"D\" | \"M\" ([0-9]+ \"D\")? | \"Y\" ([0-9]+ \"M\" ([0-9]+ \"D\")?)?)"
                + " (" + time + ")? | " + time + " | [0-9]+ \"W\")");
        primitives.put("ws", "| \" \" | \"\\n\" [ \\t]{0,20}");
        return Collections.unmodifiableMap(primitives);
    }

    static String join(String first, String second) {
        return second.isEmpty() ? first : first + " " + second;
    }

    /** {@code ("," ws item){min,max}}, or "" for at most none. */
    static String commaRepetition(String item, int min, int max) {
        return max == 0 ? "" : "(\",\" ws " + item + ")" + repetition(min, max);
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
    }}
