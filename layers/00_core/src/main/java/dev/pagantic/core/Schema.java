package dev.pagantic.core;

import dev.pagantic.core.internal.JsonValues;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.Set;

/**
 * A JSON Schema (draft 2020-12) that pagantic can honour: it describes both structured output and tool parameters.
 *
 * <p>A schema <em>is</em> its JSON Schema document: {@link #toJsonSchema()} returns it, deeply immutable, with every
 * keyword and annotation it was given and in its declared order, and that document is what the validator checks
 * outputs against. Every keyword of the document is one pagantic either compiles into the decoder's grammar or
 * validates after generation ({@code docs/json-schema.md} lists which); a document using any other keyword is refused
 * when read, never silently weakened. Because the document is the single source of truth, equal documents are equal
 * schemas, and the hash is computed once, so a schema can key a cache of compiled validators at no cost per request.
 *
 * <p>Schemas are built in code with the factories and the {@link #object()} builder, or read from JSON with
 * {@link #fromJsonSchema(Map)}:
 *
 * <pre>{@code
 * Schema sentiment = Schema.object()
 *         .required("sentiment", Schema.enumOf("positive", "negative", "neutral"))
 *         .required("confidence", Schema.number())
 *         .build();
 * Schema person = Schema.fromJsonSchema(Map.of("type", "object",
 *         "properties", Map.of("age", Map.of("type", List.of("integer", "null"), "minimum", 0))));
 * }</pre>
 *
 * Objects built in code are closed ({@code "additionalProperties": false}) and keep their properties in declaration
 * order, which is the order grammars derived from a schema write keys in. Immutable and thread-safe.
 */
public final class Schema {

    /** The JSON Schema dialect pagantic reads and validates by: draft 2020-12. */
    public static final String DIALECT = "https://json-schema.org/draft/2020-12/schema";

    /** The type names of JSON Schema's {@code type} keyword. */
    public static final Set<String> TYPES = Set.of("object", "array", "string", "number", "integer", "boolean",
            "null");

    private static final Schema ANY = new Schema(Map.of(), true, 0);

    private final Map<String, Object> document;
    private final boolean selfContained; // no $ref, $defs or definitions anywhere: it can be embedded in another
    private final int depth; // levels of schemas nested below the root, at most JsonSchemaReader.MAX_DEPTH
    private final int hash;

    private Schema(Map<String, Object> document, boolean selfContained, int depth) {
        check(depth <= JsonSchemaReader.MAX_DEPTH, "schemas are nested deeper than " + JsonSchemaReader.MAX_DEPTH
                + " levels");
        this.document = document;
        this.selfContained = selfContained;
        this.depth = depth;
        this.hash = document.hashCode();
    }

    /** A schema of a document that the reader has checked (nesting included) and frozen. */
    static Schema checked(Map<String, Object> document, boolean selfContained, int depth) {
        return new Schema(document, selfContained, depth);
    }

    /** The schema every JSON value satisfies: {@code {}}. */
    public static Schema any() {
        return ANY;
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

    /**
     * A string schema restricted to the given values.
     *
     * @throws PaganticException {@code CONFIG_INVALID} when there are no values or two are equal
     */
    public static Schema enumOf(String... values) {
        List<String> list = List.of(values);
        check(!list.isEmpty(), "an enum needs at least one value");
        check(new LinkedHashSet<>(list).size() == list.size(), "enum values must be distinct: " + list);
        Map<String, Object> json = new LinkedHashMap<>();
        json.put("type", "string");
        json.put("enum", list);
        return build(json, 0);
    }

    /** An array whose items all follow the given schema. */
    public static Schema arrayOf(Schema items) {
        Map<String, Object> json = new LinkedHashMap<>();
        json.put("type", "array");
        json.put("items", embeddable(items).document);
        return build(json, items.depth + 1);
    }

    /** Starts a closed object schema. */
    public static ObjectBuilder object() {
        return new ObjectBuilder();
    }

    /**
     * The schema of a JSON Schema document, for schemas that arrive as JSON: an OpenAI {@code response_format}, a
     * tool's {@code parameters}, a CLI's {@code --schema}. Every draft 2020-12 keyword pagantic honours is accepted
     * (types and unions, {@code enum} and {@code const}, the applicators {@code allOf}/{@code anyOf}/{@code oneOf}/
     * {@code not}/{@code if}, local {@code $ref} into {@code $defs} or {@code definitions}, recursive ones included,
     * the numeric, string, array and object assertions, {@code format}), and so are annotations ({@code title},
     * {@code description}, {@code examples}, {@code default}, {@code $comment}, {@code deprecated}, {@code readOnly},
     * ...), which are kept. The value of every keyword is checked. A draft-07 document (the openai SDK's) is read
     * where it means the same under draft 2020-12; OpenAPI's number formats and {@code discriminator} are read too
     * ({@code docs/json-schema.md} says which are checked and which are annotations).
     *
     * @throws PaganticException {@code CONFIG_INVALID} naming the JSON pointer ({@code pointer} detail) and the
     *                           keyword ({@code keyword} detail) that is unknown, unsupported or malformed
     */
    public static Schema fromJsonSchema(Map<String, ?> document) {
        Objects.requireNonNull(document, "document");
        return JsonSchemaReader.read(document);
    }

    /**
     * This schema's JSON Schema document: nested maps and lists in declared order, deeply immutable, ready for any
     * JSON serialiser. The same instance on every call.
     */
    public Map<String, Object> toJsonSchema() {
        return document;
    }

    /** The root's {@code description}, or empty. */
    public String description() {
        return document.get("description") instanceof String text ? text : "";
    }

    /**
     * The type names the root's {@code type} keyword allows, in declared order; empty when the root has no
     * {@code type} keyword (which does not restrict the type).
     */
    public Set<String> types() {
        Object type = document.get("type");
        if (type instanceof String name) {
            return Set.of(name);
        }
        if (type instanceof List<?> names) {
            Set<String> types = new LinkedHashSet<>();
            names.forEach(name -> types.add((String) name));
            return java.util.Collections.unmodifiableSet(types);
        }
        return Set.of();
    }

    /**
     * The target of a local reference, as {@code $ref} writes it ({@code #}, or {@code #} followed by a JSON pointer
     * such as {@code #/$defs/node}): a schema document (a map) or a boolean schema. Every {@code $ref} of a schema
     * resolves; the reader refuses one that does not.
     */
    public Optional<Object> resolve(String reference) {
        Objects.requireNonNull(reference, "reference");
        return JsonPointer.resolve(document, reference);
    }

    /** This schema with the given root description. */
    public Schema withDescription(String description) {
        Objects.requireNonNull(description, "description");
        return with("description", description.isEmpty() ? null : description);
    }

    /** This schema with the given default value (a JSON value; an annotation that generation ignores). */
    public Schema withDefault(Object value) {
        try {
            return with("default", JsonValues.copyValue(value));
        } catch (IllegalArgumentException notJson) {
            throw PaganticException.of(ErrorCode.CONFIG_INVALID,
                    "invalid schema: the default must be a JSON value: " + notJson.getMessage(), notJson);
        }
    }

    /** This array schema with bounds on its number of items. */
    public Schema withItemCount(int min, int max) {
        requireType("array", "item bounds");
        check(min >= 0 && max >= 0, "bounds must not be negative");
        check(max >= min, "maxItems must not be below minItems");
        return with("minItems", min).with("maxItems", max);
    }

    /** This array schema with a minimum number of items and no maximum. */
    public Schema withMinItems(int min) {
        requireType("array", "item bounds");
        check(min >= 0, "bounds must not be negative");
        return with("minItems", min);
    }

    /** This string schema with a maximum length in characters. */
    public Schema withMaxLength(int max) {
        requireType("string", "a maximum length");
        check(max >= 0, "bounds must not be negative");
        return with("maxLength", max);
    }

    @Override
    public boolean equals(Object other) {
        return other == this || other instanceof Schema that && hash == that.hash && document.equals(that.document);
    }

    @Override
    public int hashCode() {
        return hash;
    }

    @Override
    public String toString() {
        return "Schema" + document;
    }

    private void requireType(String type, String what) {
        check(types().equals(Set.of(type)), "only " + type + " schemas have " + what);
    }

    /** This document with one keyword set (or removed, for null), its position kept when it was already there. */
    private Schema with(String keyword, Object value) {
        Map<String, Object> json = new LinkedHashMap<>(document);
        if (value == null) {
            json.remove(keyword);
        } else {
            json.put(keyword, value);
        }
        return new Schema(JsonValues.copyObject(json), selfContained, depth);
    }

    private static Schema ofType(String type) {
        return build(Map.of("type", type), 0);
    }

    private static Schema build(Map<String, Object> json, int depth) {
        return new Schema(JsonValues.copyObject(json), true, depth);
    }

    /** A schema that can become part of another: one whose references would otherwise point into the wrong root. */
    private static Schema embeddable(Schema schema) {
        Objects.requireNonNull(schema, "schema");
        check(schema.selfContained, "a schema with $ref, $defs or definitions can only be a root: read the whole "
                + "document with fromJsonSchema instead of nesting it");
        return schema;
    }

    private static void check(boolean condition, String message) {
        if (!condition) {
            throw PaganticException.of(ErrorCode.CONFIG_INVALID, "invalid schema: " + message);
        }
    }

    /** Builds a closed object schema property by property; obtained from {@link Schema#object()}. */
    public static final class ObjectBuilder {
        private final Map<String, Object> properties = new LinkedHashMap<>();
        private final List<String> required = new ArrayList<>();
        private String description = "";
        private int depth;

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

        /** The object schema: its properties in declaration order, and no others allowed. */
        public Schema build() {
            Map<String, Object> json = new LinkedHashMap<>();
            json.put("type", "object");
            if (!description.isEmpty()) {
                json.put("description", description);
            }
            if (!properties.isEmpty()) {
                json.put("properties", properties);
            }
            if (!required.isEmpty()) {
                json.put("required", required);
            }
            json.put("additionalProperties", false);
            return Schema.build(json, depth);
        }

        private void property(String name, Schema schema) {
            embeddable(schema);
            if (name == null || name.isEmpty() || properties.containsKey(name)) {
                throw PaganticException.of(ErrorCode.CONFIG_INVALID,
                        "invalid schema: property names must be non-empty and distinct: " + name);
            }
            properties.put(name, schema.document);
            depth = Math.max(depth, schema.depth + 1);
        }
    }
}
