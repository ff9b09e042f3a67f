package dev.pagantic.tool;

import com.networknt.schema.Error;
import com.networknt.schema.SchemaRegistry;
import com.networknt.schema.SchemaRegistryConfig;
import com.networknt.schema.SpecificationVersion;
import dev.pagantic.core.Schema;
import java.math.BigDecimal;
import java.math.BigInteger;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Deque;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.jspecify.annotations.Nullable;
import tools.jackson.databind.json.JsonMapper;
import tools.jackson.databind.node.ObjectNode;

/**
 * Checks a call's arguments against a tool's parameter schema, so that a missing argument or a type mismatch is
 * reported to the model ({@code TOOL_INVALID_ARGUMENTS}) instead of reaching the tool.
 *
 * <p>Two paths, chosen once per schema. The schemas tools are usually declared with (types, properties, required,
 * additionalProperties, items, string enums, item counts, maximum length: what {@link TypeSchemas} and the
 * {@link Schema} builder write) are checked by a walk that explains each problem in words the model can act on
 * ({@code missing required argument 'city'}), where a {@code null} value of an optional property counts as absent.
 * Every other schema (read from JSON with {@code anyOf}, {@code $ref}, numeric bounds...) is checked in full by
 * networknt's json-schema-validator (draft 2020-12, formats asserted), compiled once here, so that no keyword goes
 * unchecked. Immutable and thread-safe.
 */
final class ArgumentValidator {

    /** The keywords the walk checks exactly; a schema using any other goes to the full validator. */
    private static final Set<String> WALKED = Set.of("type", "properties", "required", "additionalProperties",
            "items", "enum", "minItems", "maxItems", "maxLength", "title", "description", "default", "examples",
            "$comment", "deprecated", "readOnly", "writeOnly");

    private static final JsonMapper JSON = JsonMapper.builder().build();

    private final Map<String, Object> document;
    private final com.networknt.schema.@Nullable Schema full; // null when the walk is exact

    private ArgumentValidator(Schema schema) {
        this.document = schema.toJsonSchema();
        if (walkable(document)) {
            this.full = null;
        } else {
            SchemaRegistry registry = SchemaRegistry.withDefaultDialect(SpecificationVersion.DRAFT_2020_12,
                    builder -> builder.schemaRegistryConfig(SchemaRegistryConfig.builder()
                            .formatAssertionsEnabled(true).build()));
            ObjectNode node = JSON.valueToTree(document);
            node.remove("$id"); // references are local; the registry must not remember the schema under its $id
            this.full = registry.getSchema(node);
        }
    }

    /** The validator of a parameter schema (compiled once: keep it with the tool). */
    static ArgumentValidator of(Schema schema) {
        return new ArgumentValidator(schema);
    }

    /** The problems found, in argument order; empty when the arguments conform. */
    List<String> problems(Map<String, Object> arguments) {
        if (full != null) {
            List<String> problems = new ArrayList<>();
            for (Error error : full.validate(JSON.valueToTree(arguments))) {
                problems.add(error.toString());
            }
            return List.copyOf(problems);
        }
        List<String> problems = new ArrayList<>();
        checkObject(document, arguments, "", problems);
        return List.copyOf(problems);
    }

    /** Whether every schema of the document uses only the walked keywords, with string enums and one type each. */
    private static boolean walkable(Map<String, Object> root) {
        Deque<Object> pending = new ArrayDeque<>(List.of(root));
        while (!pending.isEmpty()) {
            if (!(pending.pop() instanceof Map<?, ?> schema) || !WALKED.containsAll(schema.keySet())
                    || schema.containsKey("type") && !(schema.get("type") instanceof String)
                    || schema.get("enum") instanceof List<?> values && !values.stream().allMatch(String.class::isInstance)
                    || schema.containsKey("additionalProperties") && !(schema.get("additionalProperties") instanceof Boolean)) {
                return false;
            }
            if (schema.get("properties") instanceof Map<?, ?> properties) {
                pending.addAll(properties.values());
            }
            if (schema.containsKey("items")) {
                pending.add(schema.get("items"));
            }
        }
        return true;
    }

    private static void check(Map<?, ?> schema, Object value, String path, List<String> problems) {
        if (schema.get("enum") instanceof List<?> values && !values.contains(value)) {
            problems.add(value instanceof String text ? "'" + path + "' must be one of " + values + ", got \"" + text
                    + "\"" : mismatch(path, "one of " + values, value));
            return;
        }
        String type = schema.get("type") instanceof String name ? name : "";
        switch (type) {
            case "object" -> {
                if (value instanceof Map<?, ?> map) {
                    checkObject(schema, map, path, problems);
                } else {
                    problems.add(mismatch(path, "an object", value));
                }
            }
            case "array" -> checkArray(schema, value, path, problems);
            case "string" -> checkString(schema, value, path, problems);
            case "integer" -> {
                if (!isInteger(value)) {
                    problems.add(mismatch(path, "an integer", value));
                }
            }
            case "number" -> {
                if (!(value instanceof Number)) {
                    problems.add(mismatch(path, "a number", value));
                }
            }
            case "boolean" -> {
                if (!(value instanceof Boolean)) {
                    problems.add(mismatch(path, "a boolean", value));
                }
            }
            case "null" -> {
                if (value != null) {
                    problems.add(mismatch(path, "null", value));
                }
            }
            default -> {
                // no type: any value (its object or array keywords then apply to objects and arrays only)
                if (value instanceof Map<?, ?> map) {
                    checkObject(schema, map, path, problems);
                } else if (value instanceof List<?>) {
                    checkArray(schema, value, path, problems);
                }
            }
        }
    }

    private static void checkObject(Map<?, ?> schema, Map<?, ?> map, String path, List<String> problems) {
        Map<?, ?> properties = schema.get("properties") instanceof Map<?, ?> declared ? declared : Map.of();
        if (schema.get("required") instanceof List<?> required) {
            for (Object name : required) {
                if (map.get(name) == null) {
                    problems.add(map.containsKey(name) ? "required argument '" + join(path, (String) name)
                            + "' is null" : "missing required argument '" + join(path, (String) name) + "'");
                }
            }
        }
        boolean closed = Boolean.FALSE.equals(schema.get("additionalProperties"));
        map.forEach((key, item) -> {
            String name = String.valueOf(key);
            Object property = properties.get(name);
            if (property == null && closed) {
                problems.add("unexpected argument '" + join(path, name) + "' (expected: "
                        + (properties.isEmpty() ? "none" : String.join(", ", keys(properties))) + ")");
            } else if (property instanceof Map<?, ?> propertySchema && item != null) {
                check(propertySchema, item, join(path, name), problems);
            }
        });
    }

    private static void checkArray(Map<?, ?> schema, Object value, String path, List<String> problems) {
        if (!(value instanceof List<?> list)) {
            problems.add(mismatch(path, "an array", value));
            return;
        }
        if (schema.get("minItems") instanceof Number min && list.size() < min.longValue()) {
            problems.add("'" + path + "' must have at least " + min + " items, got " + list.size());
        }
        if (schema.get("maxItems") instanceof Number max && list.size() > max.longValue()) {
            problems.add("'" + path + "' must have at most " + max + " items, got " + list.size());
        }
        if (schema.get("items") instanceof Map<?, ?> items) {
            for (int i = 0; i < list.size(); i++) {
                check(items, list.get(i), path + "[" + i + "]", problems);
            }
        }
    }

    private static void checkString(Map<?, ?> schema, Object value, String path, List<String> problems) {
        if (!(value instanceof String text)) {
            problems.add(mismatch(path, "a string", value));
            return;
        }
        if (schema.get("maxLength") instanceof Number max && text.codePointCount(0, text.length()) > max.longValue()) {
            problems.add("'" + path + "' must have at most " + max + " characters");
        }
    }

    private static List<String> keys(Map<?, ?> properties) {
        List<String> keys = new ArrayList<>();
        properties.keySet().forEach(key -> keys.add(String.valueOf(key)));
        return keys;
    }

    private static boolean isInteger(Object value) {
        if (value instanceof Integer || value instanceof Long || value instanceof Short || value instanceof Byte
                || value instanceof BigInteger) {
            return true;
        }
        if (value instanceof Double || value instanceof Float) {
            double d = ((Number) value).doubleValue();
            return Double.isFinite(d) && d == Math.rint(d);
        }
        if (value instanceof BigDecimal decimal) {
            return decimal.stripTrailingZeros().scale() <= 0;
        }
        return false;
    }

    private static String mismatch(String path, String expected, Object value) {
        return "'" + path + "' must be " + expected + ", got " + describe(value);
    }

    private static String describe(@Nullable Object value) {
        if (value == null) {
            return "null";
        }
        if (value instanceof String text) {
            return "string \"" + (text.length() > 40 ? text.substring(0, 40) + "..." : text) + "\"";
        }
        if (value instanceof Boolean) {
            return "boolean " + value;
        }
        if (value instanceof Number) {
            return "number " + value;
        }
        if (value instanceof Map) {
            return "an object";
        }
        if (value instanceof List) {
            return "an array";
        }
        return value.getClass().getSimpleName();
    }

    private static String join(String path, String name) {
        return path.isEmpty() ? name : path + "." + name;
    }

    /** A bounded cache of validators by schema, for an executor that meets tools it did not register. */
    static final class Cache {
        private final Map<Schema, ArgumentValidator> validators;

        Cache(int size) {
            this.validators = new LinkedHashMap<>(16, 0.75f, true) {
                private static final long serialVersionUID = 1L;

                @Override
                protected boolean removeEldestEntry(Map.Entry<Schema, ArgumentValidator> eldest) {
                    return size() > size;
                }
            };
        }

        /** The validator of the schema, compiled on first use. */
        ArgumentValidator of(Schema schema) {
            synchronized (validators) {
                return validators.computeIfAbsent(schema, ArgumentValidator::of);
            }
        }
    }
}
