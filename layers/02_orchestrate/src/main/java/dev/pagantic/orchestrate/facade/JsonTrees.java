package dev.pagantic.orchestrate.facade;

import static dev.pagantic.core.Preconditions.requireNonNull;

import dev.pagantic.core.ErrorCode;
import dev.pagantic.core.PaganticException;
import dev.pagantic.core.Preconditions;
import java.math.BigDecimal;
import java.math.BigInteger;
import java.util.AbstractList;
import java.util.AbstractMap;
import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map.Entry;
import java.util.Map;
import java.util.Optional;
import java.util.RandomAccess;
import java.util.Set;
import tools.jackson.databind.JsonNode;

/**
 * Conversions to the facade's JSON value tree, the form of {@link SystemResponse#structuredOutput()}: immutable
 * {@link Map}s (string keys, insertion order kept), immutable {@link List}s, {@link String}, {@link Long} for
 * integers that fit, {@link BigDecimal} for every other number (scale kept, so {@code 1.10} stays {@code 1.10}),
 * {@link Boolean} and {@code null} (JSON null, inside containers only: a top-level JSON null is "no value", an empty
 * {@link Optional}).
 *
 * <p>The tree uses JDK types only, so adapters read and serialise it with any JSON library and need no Jackson types;
 * this class is the one place in the facade whose signature mentions Jackson, for the code that produces output.
 * Trees compare with {@link Object#equals}; note that {@link BigDecimal} equality respects scale.
 *
 * <p>The maps and lists this class builds are of its own two private types, canonical all the way down: a tree that is
 * already canonical is not copied again ({@link #canonical}), which a response would otherwise do with its whole
 * structured output each time it is built.
 */
public final class JsonTrees {

    private JsonTrees() {
    }

    /**
     * The value tree of a Jackson node.
     *
     * @return the tree; empty for a JSON null or a missing node
     * @throws PaganticException {@code CONFIG_INVALID} for binary or POJO nodes, or a non-finite number
     */
    public static Optional<Object> fromJsonNode(JsonNode node) {
        requireNonNull(node, "node");
        if (node.isNull() || node.isMissingNode()) {
            return Optional.empty();
        }
        return Optional.of(convert(node));
    }

    /**
     * The canonical immutable tree of a JSON-like value: maps with string keys, lists, strings, booleans, numbers of
     * any JDK type (integers become {@link Long} or, beyond its range, {@link BigDecimal}; floating-point numbers
     * become {@link BigDecimal}) and null.
     *
     * @return the tree; empty for {@code null}
     * @throws PaganticException {@code CONFIG_INVALID} for a value that is not JSON (another type, a non-string key,
     *                           a non-finite number)
     */
    public static Optional<Object> canonical(Object value) {
        return Optional.ofNullable(canonicalValue(value));
    }

    private static Object convert(JsonNode node) {
        switch (node.getNodeType()) {
            case OBJECT -> {
                Map<String, Object> copy = new LinkedHashMap<>();
                for (Entry<String, JsonNode> property : node.properties()) {
                    copy.put(property.getKey(), convertNullable(property.getValue()));
                }
                return new ObjectTree(copy);
            }
            case ARRAY -> {
                List<Object> copy = new ArrayList<>(node.size());
                for (JsonNode item : node.values()) {
                    copy.add(convertNullable(item));
                }
                return new ArrayTree(copy);
            }
            case STRING -> {
                return node.stringValue();
            }
            case BOOLEAN -> {
                return node.booleanValue();
            }
            case NUMBER -> {
                return canonicalValue(node.numberValue());
            }
            default -> throw notJson("a JSON node of type " + node.getNodeType());
        }
    }

    private static Object convertNullable(JsonNode node) {
        return node.isNull() ? null : convert(node);
    }

    private static Object canonicalValue(Object value) {
        if (value == null || value instanceof String || value instanceof Boolean || value instanceof Long
                || value instanceof BigDecimal || value instanceof ObjectTree || value instanceof ArrayTree) {
            return value;
        }
        if (value instanceof Integer || value instanceof Short || value instanceof Byte) {
            return ((Number) value).longValue();
        }
        if (value instanceof BigInteger integer) {
            return integer.bitLength() < Long.SIZE ? (Object) integer.longValue() : new BigDecimal(integer);
        }
        if (value instanceof Double || value instanceof Float) {
            double number = ((Number) value).doubleValue();
            if (!Double.isFinite(number)) {
                throw notJson("the non-finite number " + value);
            }
            return value instanceof Float ? new BigDecimal(value.toString()) : BigDecimal.valueOf(number);
        }
        if (value instanceof Map<?, ?> map) {
            Map<String, Object> copy = new LinkedHashMap<>();
            map.forEach((key, item) -> {
                if (!(key instanceof String name)) {
                    throw notJson("a map with the non-string key " + key);
                }
                copy.put(name, canonicalValue(item));
            });
            return new ObjectTree(copy);
        }
        if (value instanceof List<?> list) {
            List<Object> copy = new ArrayList<>(list.size());
            list.forEach(item -> copy.add(canonicalValue(item)));
            return new ArrayTree(copy);
        }
        throw notJson("a " + value.getClass().getName());
    }

    private static PaganticException notJson(String what) {
        return PaganticException.of(ErrorCode.CONFIG_INVALID, "not a JSON value: " + what);
    }

    /** An immutable JSON object of canonical values, built only by this class. */
    private static final class ObjectTree extends AbstractMap<String, Object> {
        private final Map<String, Object> properties;

        ObjectTree(Map<String, Object> canonicalProperties) {
            this.properties = Collections.unmodifiableMap(canonicalProperties);
        }

        @Override
        public Set<Entry<String, Object>> entrySet() {
            return properties.entrySet();
        }

        @Override
        public Object get(Object key) {
            return properties.get(key);
        }

        @Override
        public boolean containsKey(Object key) {
            return properties.containsKey(key);
        }

        @Override
        public int size() {
            return properties.size();
        }
    }

    /** An immutable JSON array of canonical values, built only by this class. */
    private static final class ArrayTree extends AbstractList<Object> implements RandomAccess {
        private final List<Object> items;

        ArrayTree(List<Object> canonicalItems) {
            this.items = canonicalItems;
        }

        @Override
        public Object get(int index) {
            return items.get(index);
        }

        @Override
        public int size() {
            return items.size();
        }
    }
}
