package dev.pagantic.inference.grammar;

import java.math.BigDecimal;
import java.math.BigInteger;
import java.util.Iterator;
import java.util.List;
import java.util.Map;

/**
 * JSON values as a constrained model writes them, for {@code const} and {@code enum} literals: compact, keys in the
 * order given, numbers in their shortest exact form ({@code 1.0} is written {@code 1}, {@code 1.50} is {@code 1.5}),
 * and JSON Schema's equality of values (numbers by value, objects regardless of key order).
 */
final class JsonLiterals {

    /** Integral numbers with more digits than this are written in exponent form, as the number rule allows. */
    private static final int MAX_INTEGER_DIGITS = 20;

    private JsonLiterals() {
    }

    /** The compact JSON text of a JSON value (maps, lists, strings, numbers, booleans, null). */
    static String write(Object value) {
        StringBuilder out = new StringBuilder();
        write(value, out);
        return out.toString();
    }

    private static void write(Object value, StringBuilder out) {
        if (value == null) {
            out.append("null");
        } else if (value instanceof String text) {
            out.append(GbnfWriter.jsonString(text));
        } else if (value instanceof Boolean) {
            out.append(value);
        } else if (value instanceof Number number) {
            out.append(number(number));
        } else if (value instanceof Map<?, ?> map) {
            out.append('{');
            Iterator<? extends Map.Entry<?, ?>> entries = map.entrySet().iterator();
            while (entries.hasNext()) {
                Map.Entry<?, ?> entry = entries.next();
                out.append(GbnfWriter.jsonString(String.valueOf(entry.getKey()))).append(':');
                write(entry.getValue(), out);
                out.append(entries.hasNext() ? "," : "");
            }
            out.append('}');
        } else if (value instanceof Keyed keyed) {
            out.append(keyed.text());
        } else if (value instanceof List<?> list) {
            out.append('[');
            for (int i = 0; i < list.size(); i++) {
                out.append(i == 0 ? "" : ",");
                write(list.get(i), out);
            }
            out.append(']');
        } else {
            throw new IllegalArgumentException("not a JSON value: " + value.getClass().getName());
        }
    }

    /**
     * A key equal for values JSON Schema calls equal: the compact text with numbers in their shortest form and object
     * members sorted by name.
     */
    static String key(Object value) {
        if (value instanceof Map<?, ?> map) {
            Map<String, Object> sorted = new java.util.TreeMap<>();
            map.forEach((name, member) -> sorted.put(String.valueOf(name), new Keyed(key(member))));
            return write(sorted);
        }
        if (value instanceof List<?> list) {
            return write(list.stream().map(item -> (Object) new Keyed(key(item))).toList());
        }
        return write(value);
    }

    /** A value whose key is already written (for {@link #key}). */
    private record Keyed(String text) {
    }

    /** A GBNF sequence matching the value, with whitespace ({@code ws}) allowed between the tokens of containers. */
    static String gbnf(Object value) {
        if (value instanceof Map<?, ?> map) {
            List<String> members = new java.util.ArrayList<>();
            map.forEach((name, member) -> members.add(GbnfWriter.literal(
                    GbnfWriter.jsonString(String.valueOf(name))) + " ws \":\" ws " + gbnf(member)));
            return members.isEmpty() ? "\"{\" ws \"}\"" : "\"{\" ws " + String.join(" ws \",\" ws ", members)
                    + " ws \"}\"";
        }
        if (value instanceof List<?> list) {
            List<String> items = list.stream().map(JsonLiterals::gbnf).toList();
            return items.isEmpty() ? "\"[\" ws \"]\"" : "\"[\" ws " + String.join(" ws \",\" ws ", items)
                    + " ws \"]\"";
        }
        return GbnfWriter.literal(write(value));
    }

    /** The shortest exact JSON text of a number: an integer when it is integral, else without trailing zeros. */
    static String number(Number number) {
        BigDecimal decimal = decimal(number);
        if (decimal == null) {
            return "null";
        }
        BigDecimal stripped = decimal.signum() == 0 ? BigDecimal.ZERO : decimal.stripTrailingZeros();
        if (stripped.scale() <= 0 && stripped.precision() - stripped.scale() <= MAX_INTEGER_DIGITS) {
            return stripped.toBigIntegerExact().toString();
        }
        return stripped.toString().replace("E+", "E");
    }

    /** The number as a BigDecimal; null for a non-finite double. */
    static BigDecimal decimal(Number number) {
        if (number instanceof BigDecimal decimal) {
            return decimal;
        }
        if (number instanceof BigInteger integer) {
            return new BigDecimal(integer);
        }
        if (number instanceof Double || number instanceof Float) {
            double d = number.doubleValue();
            return Double.isFinite(d) ? new BigDecimal(Double.toString(d)) : null;
        }
        return BigDecimal.valueOf(number.longValue());
    }

    /** JSON Schema's equality: numbers by value, arrays item by item, objects by their members in any order. */
    static boolean equal(Object a, Object b) {
        if (a instanceof Number x && b instanceof Number y) {
            BigDecimal dx = decimal(x);
            BigDecimal dy = decimal(y);
            return dx != null && dy != null && dx.compareTo(dy) == 0;
        }
        if (a instanceof List<?> x && b instanceof List<?> y) {
            if (x.size() != y.size()) {
                return false;
            }
            for (int i = 0; i < x.size(); i++) {
                if (!equal(x.get(i), y.get(i))) {
                    return false;
                }
            }
            return true;
        }
        if (a instanceof Map<?, ?> x && b instanceof Map<?, ?> y) {
            if (x.size() != y.size()) {
                return false;
            }
            for (Map.Entry<?, ?> entry : x.entrySet()) {
                if (!y.containsKey(entry.getKey()) || !equal(entry.getValue(), y.get(entry.getKey()))) {
                    return false;
                }
            }
            return true;
        }
        return a == null ? b == null : a.equals(b);
    }

    /** The JSON type name of a value, with integral numbers as {@code integer}. */
    static String type(Object value) {
        if (value == null) {
            return "null";
        }
        if (value instanceof String) {
            return "string";
        }
        if (value instanceof Boolean) {
            return "boolean";
        }
        if (value instanceof Number number) {
            BigDecimal decimal = decimal(number);
            return decimal != null && decimal.stripTrailingZeros().scale() <= 0 ? "integer" : "number";
        }
        return value instanceof Map ? "object" : "array";
    }
}
