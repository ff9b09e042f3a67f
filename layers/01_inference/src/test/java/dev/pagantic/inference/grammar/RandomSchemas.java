package dev.pagantic.inference.grammar;

import java.math.BigDecimal;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Random;

/**
 * Test support: random JSON Schema documents over the grammar-enforced vocabulary, each with a generator of the
 * instances that conform to it (in declared key order, as a constrained model writes them) and of instances that
 * break one of its keywords. Deterministic for a given {@link Random}.
 *
 * <p>Schemas nest up to three levels of objects (closed, open or with an additionalProperties schema; required and
 * optional properties, names with quotes, backslashes, controls and non-ASCII), arrays ({@code items},
 * {@code prefixItems}, item counts), unions with null, {@code anyOf}, {@code $ref} into {@code $defs}, and leaves:
 * strings (lengths, a format, a pattern), integers (ranges), numbers, booleans, null, enums and consts of mixed
 * values, and {@code {}}. Numbers stay within the grammar's digits: integers below 10<sup>15</sup>, decimals with at
 * most 15 digits.
 */
final class RandomSchemas {

    /** A schema document with its instance generators. */
    interface Node {
        Object document();

        /** A conforming instance. */
        Object instance(Random random);

        /** An instance that breaks the schema, with what was broken; empty when this node has no simple break. */
        Optional<Broken> broken(Random random);
    }

    /** An invalid instance and what makes it invalid. */
    record Broken(Object instance, String why) {
    }

    private static final List<String> NAMES = List.of("a", "b", "name", "a b", "say \"hi\"", "back\\slash",
            "tab\there", "ünïcødé", "名前", "\uD83D\uDE00", "root", "value", "string", "ws", "kv", "-", "1");

    private static final List<Object> SCALARS = List.of("red", "Green", "quote\"d", 1L, -2L, new BigDecimal("2.5"),
            true, false, "", "名");

    private final Random random;
    private final Map<String, Object> definitions = new LinkedHashMap<>();

    private RandomSchemas(Random random) {
        this.random = random;
    }

    /** A root schema node: its document carries the $defs its references need. */
    static Node schema(Random random) {
        RandomSchemas schemas = new RandomSchemas(random);
        Node node = schemas.node(3);
        if (schemas.definitions.isEmpty() || !(node.document() instanceof Map<?, ?>)) {
            return node;
        }
        Map<String, Object> document = new LinkedHashMap<>(asMap(node.document()));
        document.put("$defs", schemas.definitions);
        return new Fixed(document, node);
    }

    private Node node(int depth) {
        int kind = random.nextInt(depth > 0 ? 12 : 7);
        return switch (kind) {
            case 0 -> string();
            case 1 -> integer();
            case 2 -> new Leaf(Map.of("type", "number"), r -> new BigDecimal(r.nextInt(200_000) - 100_000)
                    .movePointLeft(r.nextInt(4)), r -> Optional.of(new Broken("12", "a string for a number")));
            case 3 -> new Leaf(Map.of("type", "boolean"), Random::nextBoolean,
                    r -> Optional.of(new Broken(0L, "a number for a boolean")));
            case 4 -> values();
            case 5 -> new Leaf(Map.of(), r -> SCALARS.get(r.nextInt(SCALARS.size())), r -> Optional.empty());
            case 6 -> nullable(string());
            case 7, 8 -> object(depth - 1);
            case 9 -> array(depth - 1);
            case 10 -> anyOf(depth - 1);
            default -> reference(depth - 1);
        };
    }

    private Node string() {
        switch (random.nextInt(4)) {
            case 0:
                return new Leaf(Map.of("type", "string", "format", "date"),
                        r -> String.format("20%02d-%02d-%02d", r.nextInt(100), 1 + r.nextInt(12), 1 + r.nextInt(28)),
                        r -> Optional.of(new Broken("2024-13-01", "a month 13")));
            case 1:
                return new Leaf(Map.of("type", "string", "pattern", "^[A-Z]{2}-[0-9]{1,3}$"),
                        r -> "" + (char) ('A' + r.nextInt(26)) + (char) ('A' + r.nextInt(26)) + "-" + r.nextInt(999),
                        r -> Optional.of(new Broken("AB-1234", "four digits where the pattern has three")));
            default:
                int min = random.nextInt(3);
                int max = min + random.nextInt(6);
                return new Leaf(Map.of("type", "string", "minLength", min, "maxLength", max),
                        r -> text(r, min + r.nextInt(max - min + 1)),
                        r -> Optional.of(new Broken(text(r, max + 1), "a string longer than maxLength " + max)));
        }
    }

    private Node integer() {
        long low = random.nextInt(2001) - 1000;
        long high = low + random.nextInt(5000);
        Map<String, Object> document = new LinkedHashMap<>();
        document.put("type", "integer");
        boolean exclusive = random.nextBoolean();
        document.put(exclusive ? "exclusiveMinimum" : "minimum", exclusive ? low - 1 : low);
        document.put("maximum", high);
        return new Leaf(document, r -> low + (long) r.nextInt((int) (high - low + 1)),
                r -> Optional.of(r.nextBoolean() ? new Broken(high + 1, "above the maximum")
                        : new Broken(low - 1, "below the minimum")));
    }

    private Node values() {
        List<Object> values = new ArrayList<>();
        for (int i = 0, n = 1 + random.nextInt(4); i < n; i++) {
            Object value = SCALARS.get(random.nextInt(SCALARS.size()));
            if (values.stream().noneMatch(value::equals)) {
                values.add(value);
            }
        }
        if (random.nextInt(5) == 0) {
            values.add(Map.of("k", List.of(1L, "x")));
        }
        Map<String, Object> document = values.size() == 1 && random.nextBoolean() ? Map.of("const", values.get(0))
                : Map.of("enum", values);
        return new Leaf(document, r -> values.get(r.nextInt(values.size())),
                r -> Optional.of(new Broken("not-listed", "a value not listed")));
    }

    private Node nullable(Node inner) {
        Map<String, Object> document = new LinkedHashMap<>(asMap(inner.document()));
        document.put("type", List.of(document.get("type"), "null"));
        return new Leaf(document, r -> r.nextInt(3) == 0 ? null : inner.instance(r), inner::broken);
    }

    private Node anyOf(int depth) {
        Node first = node(depth);
        Node second = node(depth);
        return new Leaf(Map.of("anyOf", List.of(first.document(), second.document())),
                r -> (r.nextBoolean() ? first : second).instance(r), r -> Optional.empty());
    }

    private Node reference(int depth) {
        Node target = node(depth);
        String name = "d" + definitions.size();
        definitions.put(name, target.document());
        return new Leaf(Map.of("$ref", "#/$defs/" + name), target::instance, target::broken);
    }

    private Node array(int depth) {
        Node items = node(depth);
        int min = random.nextInt(3);
        int max = min + random.nextInt(4);
        Optional<Node> prefix = max > 0 && random.nextInt(3) == 0 ? Optional.of(node(depth)) : Optional.empty();
        Map<String, Object> document = new LinkedHashMap<>();
        document.put("type", "array");
        prefix.ifPresent(p -> document.put("prefixItems", List.of(p.document())));
        document.put("items", items.document());
        document.put("minItems", min);
        document.put("maxItems", max);
        int first = prefix.isPresent() ? 1 : 0;
        return new Leaf(document, r -> {
            List<Object> list = new ArrayList<>();
            int size = Math.max(min, first) + r.nextInt(max - Math.max(min, first) + 1);
            for (int i = 0; i < size && i <= max; i++) {
                list.add(i < first ? prefix.get().instance(r) : items.instance(r));
            }
            return list.size() > max ? list.subList(0, max) : list;
        }, r -> {
            List<Object> list = new ArrayList<>();
            for (int i = 0; i <= max; i++) {
                list.add(i < first ? prefix.get().instance(r) : items.instance(r));
            }
            return Optional.of(new Broken(list, (max + 1) + " items, over maxItems " + max));
        });
    }

    private Node object(int depth) {
        Map<String, Node> properties = new LinkedHashMap<>();
        List<String> required = new ArrayList<>();
        for (int i = 0, n = random.nextInt(4); i < n; i++) {
            String name = NAMES.get(random.nextInt(NAMES.size()));
            if (!properties.containsKey(name)) {
                properties.put(name, node(depth));
                if (random.nextBoolean()) {
                    required.add(name);
                }
            }
        }
        int additional = random.nextInt(3); // 0 closed, 1 absent (open), 2 a schema
        Node extra = additional == 2 ? integer() : null;
        Map<String, Object> document = new LinkedHashMap<>();
        document.put("type", "object");
        Map<String, Object> declared = new LinkedHashMap<>();
        properties.forEach((name, node) -> declared.put(name, node.document()));
        document.put("properties", declared);
        document.put("required", required);
        if (additional != 1) {
            document.put("additionalProperties", additional == 0 ? false : extra.document());
        }
        return new Leaf(document, r -> {
            Map<String, Object> object = new LinkedHashMap<>();
            properties.forEach((name, node) -> {
                if (required.contains(name) || r.nextBoolean()) {
                    object.put(name, node.instance(r));
                }
            });
            if (additional != 0 && r.nextBoolean()) {
                object.put("other key", extra != null ? extra.instance(r) : r.nextBoolean());
            }
            return object;
        }, r -> {
            Map<String, Object> object = new LinkedHashMap<>();
            properties.forEach((name, node) -> object.put(name, node.instance(r)));
            if (!required.isEmpty()) {
                object.remove(required.get(0));
                return Optional.of(new Broken(object, "the required property '" + required.get(0) + "' left out"));
            }
            if (additional == 0) {
                object.put("undeclared", true);
                return Optional.of(new Broken(object, "an undeclared property in a closed object"));
            }
            return Optional.empty();
        });
    }

    private static String text(Random random, int length) {
        String pool = "ab \"\\\n\u007fé名\uD83D\uDE00";
        StringBuilder text = new StringBuilder();
        while (text.codePointCount(0, text.length()) < length) {
            int at = random.nextInt(pool.codePointCount(0, pool.length()));
            text.appendCodePoint(pool.codePointAt(pool.offsetByCodePoints(0, at)));
        }
        return text.toString();
    }

    @SuppressWarnings("unchecked")
    private static Map<String, Object> asMap(Object document) {
        return (Map<String, Object>) document;
    }

    /** A node from its document and generators. */
    private record Leaf(Object document, java.util.function.Function<Random, Object> valid,
                        java.util.function.Function<Random, Optional<Broken>> invalid) implements Node {
        @Override
        public Object instance(Random random) {
            return valid.apply(random);
        }

        @Override
        public Optional<Broken> broken(Random random) {
            return invalid.apply(random);
        }
    }

    /** The root: another document (with $defs), the same instances. */
    private record Fixed(Object document, Node node) implements Node {
        @Override
        public Object instance(Random random) {
            return node.instance(random);
        }

        @Override
        public Optional<Broken> broken(Random random) {
            return node.broken(random);
        }
    }
}
