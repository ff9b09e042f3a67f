package dev.pagantic.core;

import dev.pagantic.core.internal.JsonValues;
import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.OptionalInt;
import java.util.Set;

/**
 * The JSON Schema subset pagantic speaks: objects with typed properties, arrays, string enums and primitive types.
 * It describes both structured output and tool parameters.
 *
 * <p>Property order is kept as declared: grammars derived from a schema emit keys in this order. The constructor
 * checks what a typo would otherwise turn into a confusing failure later: a known type, {@code required} naming only
 * declared properties, {@code items} only on arrays, properties only on objects.
 *
 * <pre>{@code
 * Schema sentiment = Schema.object()
 *         .required("sentiment", Schema.enumOf("positive", "negative", "neutral"))
 *         .required("confidence", Schema.number())
 *         .build();
 * }</pre>
 *
 * @param type         one of {@code object, array, string, number, integer, boolean, null}, or empty for "any"
 * @param description  a description for the model; may be empty
 * @param properties   an object's properties, in declaration order
 * @param required     the names of the properties that must be present
 * @param enumValues   the allowed values of a string enum; empty when unrestricted
 * @param items        the schema of an array's items
 * @param minItems     the fewest items an array may have
 * @param maxItems     the most items an array may have
 * @param maxLength    the most characters a string may have
 * @param defaultValue a default value (informational: generation and validation ignore it)
 */
public record Schema(String type, String description, Map<String, Schema> properties, List<String> required,
                     List<String> enumValues, Optional<Schema> items, OptionalInt minItems, OptionalInt maxItems,
                     OptionalInt maxLength, Optional<Object> defaultValue) {

    /** The JSON Schema types this subset supports; the empty string means any type. */
    public static final Set<String> TYPES = Set.of("object", "array", "string", "number", "integer", "boolean",
            "null", "");

    private static final OptionalInt NONE = OptionalInt.empty();

    public Schema {
        Objects.requireNonNull(type, "type");
        Objects.requireNonNull(description, "description");
        properties = Collections.unmodifiableMap(new LinkedHashMap<>(Objects.requireNonNull(properties, "properties")));
        required = List.copyOf(required);
        enumValues = List.copyOf(enumValues);
        Objects.requireNonNull(items, "items");
        Objects.requireNonNull(minItems, "minItems");
        Objects.requireNonNull(maxItems, "maxItems");
        Objects.requireNonNull(maxLength, "maxLength");
        Objects.requireNonNull(defaultValue, "defaultValue");
        try {
            defaultValue = defaultValue.map(JsonValues::copyValue);
        } catch (IllegalArgumentException notJson) {
            throw PaganticException.of(ErrorCode.CONFIG_INVALID,
                    "invalid schema: the default must be a JSON value: " + notJson.getMessage(), notJson);
        }
        check(TYPES.contains(type), "unknown schema type '" + type + "'");
        check(properties.isEmpty() || type.equals("object"), "only object schemas have properties");
        check(items.isEmpty() || type.equals("array"), "only array schemas have items");
        check(enumValues.isEmpty() || type.equals("string") || type.isEmpty(), "only string schemas have enum values");
        check(new LinkedHashSet<>(enumValues).size() == enumValues.size(), "enum values must be distinct");
        for (String name : required) {
            check(properties.containsKey(name), "required property '" + name + "' is not declared");
        }
        check(new LinkedHashSet<>(required).size() == required.size(), "required names must be distinct");
        check(minItems.isEmpty() && maxItems.isEmpty() || type.equals("array"), "only array schemas have item bounds");
        check(maxLength.isEmpty() || type.equals("string"), "only string schemas have a maximum length");
        check(minItems.orElse(0) >= 0 && maxItems.orElse(0) >= 0 && maxLength.orElse(0) >= 0,
                "bounds must not be negative");
        check(maxItems.orElse(Integer.MAX_VALUE) >= minItems.orElse(0), "maxItems must not be below minItems");
    }

    /** A string schema. */
    public static Schema string() {
        return ofType("string");
    }

    /** A number schema (any JSON number). */
    public static Schema number() {
        return ofType("number");
    }

    /** An integer schema. */
    public static Schema integer() {
        return ofType("integer");
    }

    /** A boolean schema. */
    public static Schema bool() {
        return ofType("boolean");
    }

    /** The schema whose only value is JSON {@code null}. */
    public static Schema nullValue() {
        return ofType("null");
    }

    /** A string schema restricted to the given values. */
    public static Schema enumOf(String... values) {
        return new Schema("string", "", Map.of(), List.of(), List.of(values), Optional.empty(), NONE, NONE, NONE,
                Optional.empty());
    }

    /** An array whose items all follow the given schema. */
    public static Schema arrayOf(Schema items) {
        return new Schema("array", "", Map.of(), List.of(), List.of(), Optional.of(items), NONE, NONE, NONE,
                Optional.empty());
    }

    /** Starts an object schema. */
    public static ObjectBuilder object() {
        return new ObjectBuilder();
    }

    /** This schema with the given description. */
    public Schema withDescription(String newDescription) {
        return new Schema(type, newDescription, properties, required, enumValues, items, minItems, maxItems,
                maxLength, defaultValue);
    }

    /** This schema with the given default value (a JSON value). */
    public Schema withDefault(Object value) {
        return new Schema(type, description, properties, required, enumValues, items, minItems, maxItems, maxLength,
                Optional.of(value));
    }

    /** This array schema with bounds on its number of items. */
    public Schema withItemCount(int min, int max) {
        return new Schema(type, description, properties, required, enumValues, items, OptionalInt.of(min),
                OptionalInt.of(max), maxLength, defaultValue);
    }

    /** This array schema with a minimum number of items and no maximum. */
    public Schema withMinItems(int min) {
        return new Schema(type, description, properties, required, enumValues, items, OptionalInt.of(min), maxItems,
                maxLength, defaultValue);
    }

    /** This string schema with a maximum length in characters. */
    public Schema withMaxLength(int max) {
        return new Schema(type, description, properties, required, enumValues, items, minItems, maxItems,
                OptionalInt.of(max), defaultValue);
    }

    /**
     * This schema as a JSON Schema document: nested maps and lists in declaration order, ready for any JSON
     * serialiser. Empty fields are left out; objects are closed ({@code "additionalProperties": false}), so that the
     * document and the grammar derived from the schema accept the same instances.
     */
    public Map<String, Object> toJsonSchema() {
        Map<String, Object> json = new LinkedHashMap<>();
        if (!type.isEmpty()) {
            json.put("type", type);
        }
        if (!description.isEmpty()) {
            json.put("description", description);
        }
        if (!properties.isEmpty()) {
            Map<String, Object> props = new LinkedHashMap<>();
            properties.forEach((name, schema) -> props.put(name, schema.toJsonSchema()));
            json.put("properties", props);
        }
        if (!required.isEmpty()) {
            json.put("required", required);
        }
        if (type.equals("object")) {
            json.put("additionalProperties", false); // closed, as the grammar derived from the schema is
        }
        if (!enumValues.isEmpty()) {
            json.put("enum", enumValues);
        }
        items.ifPresent(schema -> json.put("items", schema.toJsonSchema()));
        minItems.ifPresent(min -> json.put("minItems", min));
        maxItems.ifPresent(max -> json.put("maxItems", max));
        maxLength.ifPresent(max -> json.put("maxLength", max));
        defaultValue.ifPresent(value -> json.put("default", value));
        return JsonValues.copyObject(json);
    }

    /**
     * The schema of a JSON Schema document in the subset this type models (the inverse of {@link #toJsonSchema()}), for
     * schemas that arrive as JSON: an OpenAI {@code response_format}, a tool's {@code parameters}. Understood keywords:
     * {@code type} (one type), {@code description}, {@code properties}, {@code required}, {@code items}, {@code enum}
     * (strings), {@code minItems}, {@code maxItems}, {@code maxLength}, {@code default}, and
     * {@code additionalProperties: false} (objects are closed anyway). Annotations ({@code title}, {@code $schema},
     * {@code $id}, {@code examples}, {@code format}, {@code $comment}) are ignored. Any other keyword is refused rather
     * than dropped, since its constraint would silently go unchecked.
     *
     * @throws PaganticException {@code CONFIG_INVALID} naming the JSON pointer and the keyword or value refused
     */
    public static Schema fromJsonSchema(Map<String, ?> document) {
        Objects.requireNonNull(document, "document");
        return JsonSchemaReader.read(document, "");
    }

    private static Schema ofType(String type) {
        return new Schema(type, "", Map.of(), List.of(), List.of(), Optional.empty(), NONE, NONE, NONE,
                Optional.empty());
    }

    private static void check(boolean condition, String message) {
        if (!condition) {
            throw PaganticException.of(ErrorCode.CONFIG_INVALID, "invalid schema: " + message);
        }
    }

    /** Builds an object schema property by property; obtained from {@link Schema#object()}. */
    public static final class ObjectBuilder {
        private final Map<String, Schema> properties = new LinkedHashMap<>();
        private final List<String> required = new ArrayList<>();
        private String description = "";

        private ObjectBuilder() {
        }

        /** Adds a property that must be present. */
        public ObjectBuilder required(String name, Schema schema) {
            property(name, schema);
            required.add(name);
            return this;
        }

        /** Adds a property that may be absent. */
        public ObjectBuilder optional(String name, Schema schema) {
            property(name, schema);
            return this;
        }

        /** Describes the object for the model. */
        public ObjectBuilder description(String text) {
            this.description = Objects.requireNonNull(text, "description");
            return this;
        }

        public Schema build() {
            return new Schema("object", description, properties, required, List.of(), Optional.empty(), NONE, NONE,
                    NONE, Optional.empty());
        }

        private void property(String name, Schema schema) {
            Objects.requireNonNull(schema, "schema");
            if (name == null || name.isEmpty() || properties.containsKey(name)) {
                throw PaganticException.of(ErrorCode.CONFIG_INVALID,
                        "invalid schema: property names must be non-empty and distinct: " + name);
            }
            properties.put(name, schema);
        }
    }
}
