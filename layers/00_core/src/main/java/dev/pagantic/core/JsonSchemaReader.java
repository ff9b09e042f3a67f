package dev.pagantic.core;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.OptionalInt;
import java.util.Set;

/** Reads a JSON Schema document into a {@link Schema}; see {@link Schema#fromJsonSchema(Map)}. */
final class JsonSchemaReader {

    private static final Set<String> KEYWORDS = Set.of("type", "description", "properties", "required", "items",
            "enum", "minItems", "maxItems", "maxLength", "default", "additionalProperties");
    private static final Set<String> ANNOTATIONS = Set.of("title", "$schema", "$id", "examples", "format",
            "$comment");

    private JsonSchemaReader() {
    }

    static Schema read(Map<String, ?> document, String pointer) {
        for (String keyword : document.keySet()) {
            if (!KEYWORDS.contains(keyword) && !ANNOTATIONS.contains(keyword)) {
                throw invalid(pointer, "keyword '" + keyword + "' is not supported");
            }
        }
        Object additional = document.get("additionalProperties");
        if (additional != null && !Boolean.FALSE.equals(additional)) {
            throw invalid(pointer, "additionalProperties must be false (objects are closed)");
        }
        Map<String, Schema> properties = properties(document.get("properties"), pointer);
        List<String> enumValues = strings(document.get("enum"), pointer + "/enum");
        String type = type(document.get("type"), pointer, properties, enumValues);
        String description = text(document.get("description"), pointer + "/description");
        List<String> required = strings(document.get("required"), pointer + "/required");
        Optional<Schema> items = Optional.ofNullable(document.get("items"))
                .map(value -> read(object(value, pointer + "/items"), pointer + "/items"));
        OptionalInt minItems = count(document.get("minItems"), pointer + "/minItems");
        OptionalInt maxItems = count(document.get("maxItems"), pointer + "/maxItems");
        OptionalInt maxLength = count(document.get("maxLength"), pointer + "/maxLength");
        try {
            return new Schema(type, description, properties, required, enumValues, items, minItems, maxItems,
                    maxLength, Optional.ofNullable(document.get("default")));
        } catch (PaganticException refused) { // the schema's own checks: an unknown type, a misplaced keyword...
            throw invalid(pointer, refused.description());
        }
    }

    private static String type(Object value, String pointer, Map<String, Schema> properties, List<String> enums) {
        if (value == null) {
            return !properties.isEmpty() ? "object" : !enums.isEmpty() ? "string" : "";
        }
        if (!(value instanceof String type)) {
            throw invalid(pointer + "/type", "type must be one type name, not " + value);
        }
        return type;
    }

    private static Map<String, Schema> properties(Object value, String pointer) {
        Map<String, Schema> properties = new LinkedHashMap<>();
        if (value != null) {
            object(value, pointer + "/properties").forEach((name, schema) -> properties.put(name,
                    read(object(schema, pointer + "/properties/" + name), pointer + "/properties/" + name)));
        }
        return properties;
    }

    @SuppressWarnings("unchecked")
    private static Map<String, ?> object(Object value, String pointer) {
        if (value instanceof Map<?, ?> map && map.keySet().stream().allMatch(String.class::isInstance)) {
            return (Map<String, ?>) map;
        }
        throw invalid(pointer, "expected a JSON object, not " + value);
    }

    private static List<String> strings(Object value, String pointer) {
        if (value == null) {
            return List.of();
        }
        if (!(value instanceof List<?> list)) {
            throw invalid(pointer, "expected an array of strings, not " + value);
        }
        List<String> strings = new ArrayList<>();
        for (Object element : list) {
            strings.add(text(element, pointer));
        }
        return strings;
    }

    private static String text(Object value, String pointer) {
        if (value == null) {
            return "";
        }
        if (value instanceof String text) {
            return text;
        }
        throw invalid(pointer, "expected a string, not " + value);
    }

    private static OptionalInt count(Object value, String pointer) {
        if (value == null) {
            return OptionalInt.empty();
        }
        if (value instanceof Number n && n.doubleValue() == Math.rint(n.doubleValue()) && n.doubleValue() >= 0
                && n.doubleValue() <= Integer.MAX_VALUE) {
            return OptionalInt.of(n.intValue());
        }
        throw invalid(pointer, "expected a non-negative integer, not " + value);
    }

    private static PaganticException invalid(String pointer, String why) {
        return PaganticException.builder(ErrorCode.CONFIG_INVALID, "invalid JSON Schema at '"
                + (pointer.isEmpty() ? "/" : pointer) + "': " + why).detail("pointer", pointer).build();
    }
}
