package dev.pagantic.tool;

import dev.pagantic.core.Schema;
import java.math.BigDecimal;
import java.math.BigInteger;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/**
 * Checks a call's arguments against a tool's parameter schema, so that a missing argument or a type mismatch is
 * reported to the model ({@code TOOL_INVALID_ARGUMENTS}) instead of reaching the tool. Objects are closed, as the
 * schema's JSON Schema document and grammar are. A {@code null} value of an optional property counts as absent.
 */
final class ArgumentValidator {

    private ArgumentValidator() {
    }

    /** The problems found, in argument order; empty when the arguments conform. */
    static List<String> problems(Schema schema, Map<String, Object> arguments) {
        List<String> problems = new ArrayList<>();
        checkObject(schema, arguments, "", problems);
        return List.copyOf(problems);
    }

    private static void check(Schema schema, Object value, String path, List<String> problems) {
        switch (schema.type()) {
            case "" -> {
                // any value
            }
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
            default -> problems.add("'" + path + "' has an unsupported schema type '" + schema.type() + "'");
        }
    }

    private static void checkObject(Schema schema, Map<?, ?> map, String path, List<String> problems) {
        for (String name : schema.required()) {
            if (map.get(name) == null) {
                problems.add((map.containsKey(name) ? "required argument '" + join(path, name) + "' is null"
                        : "missing required argument '" + join(path, name) + "'"));
            }
        }
        map.forEach((key, item) -> {
            String name = String.valueOf(key);
            Schema property = schema.properties().get(name);
            if (property == null) {
                problems.add("unexpected argument '" + join(path, name) + "' (expected: "
                        + (schema.properties().isEmpty() ? "none" : String.join(", ", schema.properties().keySet()))
                        + ")");
            } else if (item != null) {
                check(property, item, join(path, name), problems);
            }
        });
    }

    private static void checkArray(Schema schema, Object value, String path, List<String> problems) {
        if (!(value instanceof List<?> list)) {
            problems.add(mismatch(path, "an array", value));
            return;
        }
        schema.minItems().ifPresent(min -> {
            if (list.size() < min) {
                problems.add("'" + path + "' must have at least " + min + " items, got " + list.size());
            }
        });
        schema.maxItems().ifPresent(max -> {
            if (list.size() > max) {
                problems.add("'" + path + "' must have at most " + max + " items, got " + list.size());
            }
        });
        schema.items().ifPresent(items -> {
            for (int i = 0; i < list.size(); i++) {
                check(items, list.get(i), path + "[" + i + "]", problems);
            }
        });
    }

    private static void checkString(Schema schema, Object value, String path, List<String> problems) {
        if (!(value instanceof String text)) {
            problems.add(mismatch(path, schema.enumValues().isEmpty() ? "a string"
                    : "one of " + schema.enumValues(), value));
            return;
        }
        if (!schema.enumValues().isEmpty() && !schema.enumValues().contains(text)) {
            problems.add("'" + path + "' must be one of " + schema.enumValues() + ", got \"" + text + "\"");
        }
        schema.maxLength().ifPresent(max -> {
            if (text.codePointCount(0, text.length()) > max) {
                problems.add("'" + path + "' must have at most " + max + " characters");
            }
        });
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

    private static String describe(Object value) {
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
}
