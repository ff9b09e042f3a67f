package dev.pagantic.core;

import dev.pagantic.core.internal.JsonValues;
import java.math.BigDecimal;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.regex.PatternSyntaxException;

/**
 * Reads a JSON Schema document into a {@link Schema}; see {@link Schema#fromJsonSchema(Map)}. Every keyword is looked
 * up in the vocabulary below and its value checked; an unknown keyword, a keyword pagantic does not support, a
 * malformed value and a reference that does not resolve are refused with {@code CONFIG_INVALID}, naming the JSON
 * pointer of the keyword. The document is then frozen as it was given.
 */
final class JsonSchemaReader {

    /** How a keyword's value must look. */
    private enum Kind {
        SCHEMA, SCHEMA_LIST, SCHEMA_MAP, REGEX_SCHEMA_MAP, COUNT, NUMBER, POSITIVE_NUMBER, STRING, REGEX, FORMAT,
        BOOLEAN, ANY, LIST, TYPE, NAMES, NAMES_MAP, REFERENCE, ROOT_ID, DIALECT
    }

    /** Draft 2020-12's keywords that pagantic accepts, and the shape of their values. */
    private static final Map<String, Kind> VOCABULARY = Map.ofEntries(
            Map.entry("$schema", Kind.DIALECT), Map.entry("$id", Kind.ROOT_ID), Map.entry("$ref", Kind.REFERENCE),
            Map.entry("$defs", Kind.SCHEMA_MAP), Map.entry("definitions", Kind.SCHEMA_MAP),
            Map.entry("$comment", Kind.STRING),
            // applicators
            Map.entry("allOf", Kind.SCHEMA_LIST), Map.entry("anyOf", Kind.SCHEMA_LIST),
            Map.entry("oneOf", Kind.SCHEMA_LIST), Map.entry("not", Kind.SCHEMA), Map.entry("if", Kind.SCHEMA),
            Map.entry("then", Kind.SCHEMA), Map.entry("else", Kind.SCHEMA),
            Map.entry("dependentSchemas", Kind.SCHEMA_MAP), Map.entry("prefixItems", Kind.SCHEMA_LIST),
            Map.entry("items", Kind.SCHEMA), Map.entry("contains", Kind.SCHEMA),
            Map.entry("properties", Kind.SCHEMA_MAP), Map.entry("patternProperties", Kind.REGEX_SCHEMA_MAP),
            Map.entry("additionalProperties", Kind.SCHEMA), Map.entry("propertyNames", Kind.SCHEMA),
            Map.entry("unevaluatedItems", Kind.SCHEMA), Map.entry("unevaluatedProperties", Kind.SCHEMA),
            // validation
            Map.entry("type", Kind.TYPE), Map.entry("enum", Kind.LIST), Map.entry("const", Kind.ANY),
            Map.entry("multipleOf", Kind.POSITIVE_NUMBER), Map.entry("maximum", Kind.NUMBER),
            Map.entry("exclusiveMaximum", Kind.NUMBER), Map.entry("minimum", Kind.NUMBER),
            Map.entry("exclusiveMinimum", Kind.NUMBER), Map.entry("maxLength", Kind.COUNT),
            Map.entry("minLength", Kind.COUNT), Map.entry("pattern", Kind.REGEX), Map.entry("maxItems", Kind.COUNT),
            Map.entry("minItems", Kind.COUNT), Map.entry("uniqueItems", Kind.BOOLEAN),
            Map.entry("maxContains", Kind.COUNT), Map.entry("minContains", Kind.COUNT),
            Map.entry("maxProperties", Kind.COUNT), Map.entry("minProperties", Kind.COUNT),
            Map.entry("required", Kind.NAMES), Map.entry("dependentRequired", Kind.NAMES_MAP),
            Map.entry("format", Kind.FORMAT),
            // annotations: content, meta-data
            Map.entry("contentEncoding", Kind.STRING), Map.entry("contentMediaType", Kind.STRING),
            Map.entry("contentSchema", Kind.SCHEMA), Map.entry("title", Kind.STRING),
            Map.entry("description", Kind.STRING), Map.entry("default", Kind.ANY),
            Map.entry("deprecated", Kind.BOOLEAN), Map.entry("readOnly", Kind.BOOLEAN),
            Map.entry("writeOnly", Kind.BOOLEAN), Map.entry("examples", Kind.LIST));

    /** The formats pagantic checks: each is validated after generation, some also enforced in the grammar. */
    static final Set<String> FORMATS = Set.of("date-time", "date", "time", "duration", "email", "ipv4", "ipv6", "uri",
            "uri-reference", "iri", "iri-reference", "uuid", "json-pointer", "relative-json-pointer");

    /** Draft 2020-12's other formats: their checks disagree with the JSON Schema Test Suite, so they are refused. */
    private static final Set<String> INEXACT_FORMATS = Set.of("hostname", "idn-hostname", "idn-email",
            "uri-template", "regex");

    /**
     * The dialect URIs accepted in {@code $schema}, with or without an empty fragment: draft 2020-12's, and draft-07's,
     * which the openai SDK's zod helpers and most MCP servers declare. A draft-07 document means what it means in
     * 2020-12 as far as the reader goes: the keywords whose meaning changed (array-form {@code items},
     * {@code additionalItems}, {@code dependencies}) are not read and so refused by name, never read the 2020-12 way.
     */
    private static final Set<String> DIALECTS = Set.of(Schema.DIALECT, Schema.DIALECT + "#",
            "http://json-schema.org/draft-07/schema#", "http://json-schema.org/draft-07/schema");

    /**
     * Schemas nested deeper than this are refused: reading, grammar generation and validation recurse once per
     * level. Jackson's default read limit (500 JSON levels, about 250 schema levels) does not bound a document built
     * in code.
     */
    static final int MAX_DEPTH = 128;

    private final List<String[]> references = new ArrayList<>(); // {pointer, reference}
    private boolean selfContained = true;
    private int depth;

    private JsonSchemaReader() {
    }

    static Schema read(Map<String, ?> document) {
        JsonSchemaReader reader = new JsonSchemaReader();
        reader.schema(document, "", 0);
        for (String[] reference : reader.references) {
            if (JsonPointer.resolve(document, reference[1]).filter(JsonSchemaReader::isSchema).isEmpty()) {
                throw invalid(reference[0], "$ref", "'" + reference[1] + "' does not point at a schema in this "
                        + "document");
            }
        }
        Map<String, Object> frozen;
        try {
            frozen = JsonValues.copyObject(document);
        } catch (IllegalArgumentException notJson) {
            throw invalid("", null, notJson.getMessage());
        }
        return Schema.checked(frozen, reader.selfContained, reader.depth);
    }

    private void schema(Object value, String pointer, int depth) {
        if (value instanceof Boolean) {
            return;
        }
        if (depth > MAX_DEPTH) {
            throw invalid(pointer, null, "schemas are nested deeper than " + MAX_DEPTH + " levels");
        }
        this.depth = Math.max(this.depth, depth);
        Map<?, ?> document = object(value, pointer, null);
        for (Map.Entry<?, ?> entry : document.entrySet()) {
            if (!(entry.getKey() instanceof String keyword)) {
                throw invalid(pointer, null, "keys must be strings, not " + entry.getKey());
            }
            Kind kind = VOCABULARY.get(keyword);
            if (kind == null) {
                throw invalid(JsonPointer.child(pointer, keyword), keyword, "keyword '" + keyword
                        + "' is not supported (pagantic reads JSON Schema draft 2020-12 and refuses what it cannot "
                        + "enforce; see docs/json-schema.md)");
            }
            keyword(kind, keyword, entry.getValue(), JsonPointer.child(pointer, keyword), depth);
        }
    }

    private void keyword(Kind kind, String keyword, Object value, String pointer, int depth) {
        switch (kind) {
            case SCHEMA -> schema(requireSchema(value, pointer, keyword), pointer, depth + 1);
            case SCHEMA_LIST -> {
                List<?> list = list(value, pointer, keyword);
                check(!list.isEmpty(), pointer, keyword, "'" + keyword + "' needs at least one schema");
                for (int i = 0; i < list.size(); i++) {
                    schema(requireSchema(list.get(i), pointer + "/" + i, keyword), pointer + "/" + i, depth + 1);
                }
            }
            case SCHEMA_MAP, REGEX_SCHEMA_MAP -> {
                if (keyword.equals("$defs") || keyword.equals("definitions")) {
                    selfContained = false;
                }
                for (Map.Entry<?, ?> entry : object(value, pointer, keyword).entrySet()) {
                    String name = String.valueOf(entry.getKey());
                    String at = JsonPointer.child(pointer, name);
                    if (kind == Kind.REGEX_SCHEMA_MAP) {
                        regex(name, at, keyword);
                    }
                    schema(requireSchema(entry.getValue(), at, keyword), at, depth + 1);
                }
            }
            case COUNT -> check(value instanceof Number n && isInteger(n) && decimal(n).signum() >= 0, pointer,
                    keyword, "'" + keyword + "' must be a non-negative integer, not " + value);
            case NUMBER -> check(value instanceof Number n && decimal(n) != null, pointer, keyword,
                    "'" + keyword + "' must be a number, not " + value);
            case POSITIVE_NUMBER -> check(value instanceof Number n && decimal(n) != null && decimal(n).signum() > 0,
                    pointer, keyword, "'" + keyword + "' must be a number above 0, not " + value);
            case STRING -> text(value, pointer, keyword);
            case REGEX -> regex(text(value, pointer, keyword), pointer, keyword);
            case FORMAT -> {
                String format = text(value, pointer, keyword);
                check(!INEXACT_FORMATS.contains(format), pointer, keyword, "format '" + format + "' is not "
                        + "supported: it cannot be checked exactly (use a pattern instead)");
                check(FORMATS.contains(format), pointer, keyword, "format '" + format + "' is not supported: it is "
                        + "not one of the formats pagantic checks, " + new java.util.TreeSet<>(FORMATS));
            }
            case BOOLEAN -> check(value instanceof Boolean, pointer, keyword,
                    "'" + keyword + "' must be true or false, not " + value);
            case ANY -> {
                // any JSON value: checked when the document is frozen
            }
            case LIST -> list(value, pointer, keyword);
            case TYPE -> type(value, pointer);
            case NAMES -> names(value, pointer, keyword);
            case NAMES_MAP -> object(value, pointer, keyword).forEach((name, names) ->
                    names(names, JsonPointer.child(pointer, String.valueOf(name)), keyword));
            case REFERENCE -> {
                String reference = text(value, pointer, keyword);
                check(JsonPointer.isLocal(reference), pointer, keyword, "only local references ('#' or '#/...') "
                        + "are supported, not '" + reference + "'");
                references.add(new String[] {parent(pointer), reference});
                selfContained = false;
            }
            case ROOT_ID -> {
                text(value, pointer, keyword);
                check(pointer.equals("/$id"), pointer, keyword, "'$id' is only supported on the root: embedded "
                        + "schema resources are not");
            }
            case DIALECT -> {
                check(pointer.equals("/$schema"), pointer, keyword, "'$schema' belongs on the root only");
                check(DIALECTS.contains(text(value, pointer, keyword)), pointer, keyword, "pagantic reads JSON Schema "
                        + "draft 2020-12 ('" + Schema.DIALECT + "') and draft-07 documents, not '" + value + "'");
            }
        }
    }

    private static void type(Object value, String pointer) {
        if (value instanceof String name) {
            check(Schema.TYPES.contains(name), pointer, "type", "unknown type '" + name + "'; types are "
                    + new java.util.TreeSet<>(Schema.TYPES));
            return;
        }
        List<?> names = list(value, pointer, "type");
        check(!names.isEmpty(), pointer, "type", "'type' needs at least one type name");
        Set<Object> seen = new HashSet<>();
        for (Object name : names) {
            check(name instanceof String text && Schema.TYPES.contains(text), pointer, "type",
                    "unknown type " + name + "; types are " + new java.util.TreeSet<>(Schema.TYPES));
            check(seen.add(name), pointer, "type", "type names must be distinct: " + names);
        }
    }

    private static void names(Object value, String pointer, String keyword) {
        List<?> names = list(value, pointer, keyword);
        for (Object name : names) {
            check(name instanceof String, pointer, keyword, "'" + keyword + "' must list property names, not "
                    + name);
        }
        check(new LinkedHashSet<>(names).size() == names.size(), pointer, keyword,
                "'" + keyword + "' names must be distinct: " + names);
    }

    private static void regex(String regex, String pointer, String keyword) {
        try {
            java.util.regex.Pattern.compile(regex);
        } catch (PatternSyntaxException malformed) {
            throw invalid(pointer, keyword, "not a valid regular expression: " + malformed.getDescription()
                    + " in '" + regex + "'");
        }
    }

    private static Object requireSchema(Object value, String pointer, String keyword) {
        check(isSchema(value), pointer, keyword, "expected a schema (an object or a boolean), not " + value);
        return value;
    }

    private static boolean isSchema(Object value) {
        return value instanceof Boolean || value instanceof Map;
    }

    private static Map<?, ?> object(Object value, String pointer, String keyword) {
        if (value instanceof Map<?, ?> map) {
            return map;
        }
        throw invalid(pointer, keyword, "expected a JSON object, not " + value);
    }

    private static List<?> list(Object value, String pointer, String keyword) {
        if (value instanceof List<?> list) {
            return list;
        }
        throw invalid(pointer, keyword, "expected an array, not " + value);
    }

    private static String text(Object value, String pointer, String keyword) {
        if (value instanceof String text) {
            return text;
        }
        throw invalid(pointer, keyword, "expected a string, not " + value);
    }

    /** The number as a BigDecimal, or null for a non-finite double. */
    static BigDecimal decimal(Number number) {
        if (number instanceof BigDecimal decimal) {
            return decimal;
        }
        if (number instanceof Double || number instanceof Float) {
            double d = number.doubleValue();
            return Double.isFinite(d) ? BigDecimal.valueOf(d) : null;
        }
        return new BigDecimal(number.toString());
    }

    private static boolean isInteger(Number number) {
        BigDecimal decimal = decimal(number);
        return decimal != null && decimal.stripTrailingZeros().scale() <= 0;
    }

    private static String parent(String pointer) {
        return pointer.substring(0, pointer.lastIndexOf('/'));
    }

    private static void check(boolean condition, String pointer, String keyword, String why) {
        if (!condition) {
            throw invalid(pointer, keyword, why);
        }
    }

    private static PaganticException invalid(String pointer, String keyword, String why) {
        PaganticException.Builder builder = PaganticException.builder(ErrorCode.CONFIG_INVALID, "invalid JSON Schema "
                + "at '" + (pointer.isEmpty() ? "/" : pointer) + "': " + why).detail("pointer", pointer);
        if (keyword != null) {
            builder.detail("keyword", keyword);
        }
        return builder.build();
    }
}
