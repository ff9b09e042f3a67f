package dev.pagantic.engine.llamacpp;

import dev.pagantic.core.Schema;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * What a tool format reads from a tool's parameter schema: its declared properties and required names, straight from
 * the schema document (a property that is a boolean schema or refers elsewhere is not a plain one and is left out).
 */
final class Parameters {

    private Parameters() {
    }

    /** The properties declared at the root whose schemas are plain objects without {@code $ref}, in order. */
    static Map<String, Schema> properties(Schema parameters) {
        Map<String, Schema> plain = new LinkedHashMap<>();
        if (parameters.toJsonSchema().get("properties") instanceof Map<?, ?> properties) {
            properties.forEach((name, schema) -> {
                if (schema instanceof Map<?, ?> document && !document.containsKey("$ref")) {
                    plain.put(String.valueOf(name), Schema.fromJsonSchema(stringKeys(document)));
                }
            });
        }
        return plain;
    }

    /** The names the root's {@code required} keyword lists. */
    static List<String> required(Schema parameters) {
        if (parameters.toJsonSchema().get("required") instanceof List<?> names) {
            return names.stream().map(String::valueOf).toList();
        }
        return List.of();
    }

    /** How many properties the root declares, plain or not. */
    static int declaredCount(Schema parameters) {
        return parameters.toJsonSchema().get("properties") instanceof Map<?, ?> properties ? properties.size() : 0;
    }

    private static Map<String, Object> stringKeys(Map<?, ?> document) {
        Map<String, Object> copy = new LinkedHashMap<>();
        document.forEach((key, value) -> copy.put(String.valueOf(key), value));
        return copy;
    }
}
