package dev.pagantic.inference.grammar;

import dev.pagantic.core.Schema;
import java.math.BigDecimal;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.OptionalInt;
import net.jqwik.api.Arbitraries;
import net.jqwik.api.Arbitrary;
import net.jqwik.api.Combinators;
import net.jqwik.api.Tuple;

/**
 * Test support: jqwik generators of {@link Schema}s and of the JSON values that conform to them.
 *
 * <p>Schemas nest up to three levels of objects and arrays over leaves of every type: strings with and without a
 * maximum length, string enums (sometimes also length-bounded, sometimes untyped), numbers, integers, booleans, null
 * and "any". Property names and string values draw on quotes, backslashes, control characters, DEL, non-ASCII and
 * supplementary characters, and names that collide once reduced to GBNF rule names.
 *
 * <p>Instances are maps (in declaration order), lists, strings, {@link Long}s, {@link BigDecimal}s, booleans and
 * {@code null}. Numbers stay inside the generated grammar's limits: integers have at most 16 digits, and decimals have
 * an unscaled value of at most 16 digits and a scale in [-20, 16], so {@link BigDecimal#toString()} writes at most 16
 * integer digits, 16 fraction digits and a two-digit exponent. Strings are at most their maximum length in code
 * points (8 when unbounded).
 */
final class SchemaArbitraries {

    /** Stands for an optional property left out of a generated object. */
    private static final Object ABSENT = new Object();

    private static final long MAX_16_DIGITS = 9_999_999_999_999_999L;

    /** Code points of generated strings: letters are likelier, JSON's special characters all appear. */
    private static final List<Integer> CODE_POINTS = codePoints();

    private static final List<String> TRICKY_NAMES = List.of("a", "b", "name", "a b", "a-b", "a_b", "say \"hi\"",
            "back\\slash", "tab\there", "new\nline", "ünïcødé", "名前", "\uD83D\uDE00", "m0", "m1-more", "kv",
            "root", "value", "string", "char", "ws", "p", "-", "1", "A");

    private SchemaArbitraries() {
    }

    /** Schemas of any type, nesting up to three levels. */
    static Arbitrary<Schema> schemas() {
        return schemas(3);
    }

    static Arbitrary<Schema> schemas(int depth) {
        if (depth <= 0) {
            return leaves();
        }
        return Arbitraries.frequencyOf(List.of(
                Tuple.of(3, leaves()),
                Tuple.of(3, Arbitraries.lazy(() -> objects(depth - 1))),
                Tuple.of(2, Arbitraries.lazy(() -> arrays(depth - 1)))));
    }

    /** Object schemas whose properties nest up to {@code depth} further levels. */
    static Arbitrary<Schema> objects(int depth) {
        Arbitrary<Property> property = Combinators.combine(propertyNames(), schemas(depth), Arbitraries.of(true, false))
                .as(Property::new);
        return property.list().ofMaxSize(4).uniqueElements(Property::name).map(properties -> {
            Schema.ObjectBuilder builder = Schema.object();
            for (Property p : properties) {
                if (p.required()) {
                    builder.required(p.name(), p.schema());
                } else {
                    builder.optional(p.name(), p.schema());
                }
            }
            return builder.build();
        });
    }

    /** Array schemas, with or without item schemas and bounds. */
    static Arbitrary<Schema> arrays(int depth) {
        Arbitrary<Optional<Schema>> items = Arbitraries.frequencyOf(List.of(
                Tuple.of(1, Arbitraries.just(Optional.<Schema>empty())),
                Tuple.of(6, schemas(depth).map(Optional::of))));
        Arbitrary<OptionalInt> min = Arbitraries.integers().between(0, 3).injectNull(0.5)
                .map(n -> n == null ? OptionalInt.empty() : OptionalInt.of(n));
        Arbitrary<Integer> extra = Arbitraries.integers().between(0, 3).injectNull(0.5);
        return Combinators.combine(items, min, extra).as((itemSchema, minItems, more) -> {
            OptionalInt maxItems = more == null ? OptionalInt.empty() : OptionalInt.of(minItems.orElse(0) + more);
            return new Schema("array", "", Map.of(), List.of(), List.of(), itemSchema, minItems, maxItems,
                    OptionalInt.empty(), Optional.empty());
        });
    }

    static Arbitrary<Schema> leaves() {
        Arbitrary<Schema> strings = Arbitraries.integers().between(0, 6).injectNull(0.5)
                .map(max -> max == null ? Schema.string() : Schema.string().withMaxLength(max));
        return Arbitraries.frequencyOf(List.of(
                Tuple.of(3, strings),
                Tuple.of(3, enums()),
                Tuple.of(2, Arbitraries.just(Schema.number())),
                Tuple.of(2, Arbitraries.just(Schema.integer())),
                Tuple.of(1, Arbitraries.just(Schema.bool())),
                Tuple.of(1, Arbitraries.just(Schema.nullValue())),
                Tuple.of(1, Arbitraries.just(new Schema("", "", Map.of(), List.of(), List.of(), Optional.empty(),
                        OptionalInt.empty(), OptionalInt.empty(), OptionalInt.empty(), Optional.empty())))));
    }

    /** String enums; a fifth also bound their length (so that some values are too long), a fifth are untyped. */
    static Arbitrary<Schema> enums() {
        Arbitrary<List<String>> values = strings(0, 5).list().ofMinSize(1).ofMaxSize(4).uniqueElements();
        return Combinators.combine(values, Arbitraries.integers().between(0, 4), Arbitraries.integers().between(0, 99))
                .as((enumValues, variant, pick) -> {
                    if (variant == 0) {
                        int[] lengths = enumValues.stream().mapToInt(v -> v.codePointCount(0, v.length())).sorted()
                                .toArray();
                        int maxLength = lengths[pick % lengths.length]; // at least one value fits
                        return Schema.enumOf(enumValues.toArray(String[]::new)).withMaxLength(maxLength);
                    }
                    String type = variant == 1 ? "" : "string";
                    return new Schema(type, "", Map.of(), List.of(), enumValues, Optional.empty(), OptionalInt.empty(),
                            OptionalInt.empty(), OptionalInt.empty(), Optional.empty());
                });
    }

    static Arbitrary<String> propertyNames() {
        return Arbitraries.oneOf(List.of(Arbitraries.of(TRICKY_NAMES), strings(1, 6)));
    }

    /** Strings of {@code min} to {@code max} code points. */
    static Arbitrary<String> strings(int min, int max) {
        return Arbitraries.of(CODE_POINTS).list().ofMinSize(min).ofMaxSize(max).map(codePoints -> {
            StringBuilder text = new StringBuilder();
            codePoints.forEach(text::appendCodePoint);
            return text.toString();
        });
    }

    /** The JSON values the schema accepts (within the limits described above). */
    static Arbitrary<Object> instances(Schema schema) {
        if (!schema.enumValues().isEmpty()) {
            return Arbitraries.of(fittingEnumValues(schema)).map(v -> v);
        }
        switch (schema.type()) {
            case "object": {
                List<Arbitrary<Object>> members = new ArrayList<>();
                List<String> names = new ArrayList<>(schema.properties().keySet());
                for (String name : names) {
                    Arbitrary<Object> value = instances(schema.properties().get(name));
                    members.add(schema.required().contains(name) ? value : Arbitraries.frequencyOf(List.of(
                            Tuple.of(1, Arbitraries.just(ABSENT)), Tuple.of(2, value))));
                }
                if (members.isEmpty()) {
                    return Arbitraries.just(Map.of()).map(m -> new LinkedHashMap<>(m));
                }
                return Combinators.combine(members).as(values -> {
                    Map<String, Object> object = new LinkedHashMap<>();
                    for (int i = 0; i < names.size(); i++) {
                        if (values.get(i) != ABSENT) {
                            object.put(names.get(i), values.get(i));
                        }
                    }
                    return object;
                });
            }
            case "array": {
                int min = schema.minItems().orElse(0);
                int max = schema.maxItems().orElse(min + 3);
                Arbitrary<Object> item = schema.items().map(SchemaArbitraries::instances).orElseGet(() -> any(2));
                return item.list().ofMinSize(min).ofMaxSize(max).map(list -> list);
            }
            case "string":
                return strings(0, schema.maxLength().orElse(8)).map(s -> s);
            case "number":
                return Arbitraries.oneOf(List.of(decimals(), integers()));
            case "integer":
                return integers();
            case "boolean":
                return Arbitraries.of(true, false).map(b -> b);
            case "null":
                return Arbitraries.just(null);
            default:
                return any(2);
        }
    }

    /** The enum values the schema accepts: all of them, unless a maximum length excludes some. */
    static List<String> fittingEnumValues(Schema schema) {
        int maxLength = schema.maxLength().orElse(Integer.MAX_VALUE);
        return schema.enumValues().stream().filter(v -> v.codePointCount(0, v.length()) <= maxLength).toList();
    }

    /** A small conforming value: required properties only, the fewest items, the first fitting enum value. */
    static Object minimal(Schema schema) {
        if (!schema.enumValues().isEmpty()) {
            return fittingEnumValues(schema).get(0);
        }
        switch (schema.type()) {
            case "object": {
                Map<String, Object> object = new LinkedHashMap<>();
                schema.properties().forEach((name, property) -> {
                    if (schema.required().contains(name)) {
                        object.put(name, minimal(property));
                    }
                });
                return object;
            }
            case "array": {
                List<Object> list = new ArrayList<>();
                for (int i = 0; i < schema.minItems().orElse(0); i++) {
                    list.add(schema.items().map(SchemaArbitraries::minimal).orElse(null));
                }
                return list;
            }
            case "string":
                return "";
            case "number":
            case "integer":
                return 0L;
            case "boolean":
                return false;
            default:
                return null;
        }
    }

    /** Any JSON value, containers nesting up to {@code depth} levels. */
    static Arbitrary<Object> any(int depth) {
        List<Arbitrary<Object>> choices = new ArrayList<>(List.of(
                Arbitraries.just(null), Arbitraries.of(true, false).map(b -> b), integers(), decimals(),
                strings(0, 6).map(s -> s)));
        if (depth > 0) {
            choices.add(Arbitraries.lazy(() -> any(depth - 1)).list().ofMaxSize(3).map(list -> list));
            choices.add(Arbitraries.maps(strings(0, 4), Arbitraries.lazy(() -> any(depth - 1))).ofMaxSize(3)
                    .map(map -> new LinkedHashMap<>(map)));
        }
        return Arbitraries.oneOf(choices);
    }

    static Arbitrary<Object> integers() {
        return Arbitraries.longs().between(-MAX_16_DIGITS, MAX_16_DIGITS).map(n -> n);
    }

    static Arbitrary<Object> decimals() {
        return Combinators.combine(Arbitraries.longs().between(-MAX_16_DIGITS, MAX_16_DIGITS),
                Arbitraries.integers().between(-20, 16)).as((unscaled, scale) -> BigDecimal.valueOf(unscaled, scale));
    }

    private static List<Integer> codePoints() {
        List<Integer> codePoints = new ArrayList<>();
        "abcxyzABZ0189 ".codePoints().forEach(c -> {
            codePoints.add(c);
            codePoints.add(c); // twice: likelier than the special ones
        });
        for (int c : new int[] {'"', '\\', '/', '\b', '\f', '\n', '\r', '\t', 0x00, 0x01, 0x1f, 0x7f, 0x80, 0xa0,
                0xe9, 0x4e2d, 0x2028, 0xfeff, 0x1f600, '-', '_', '\'', '{', '}', '[', ']', ':', ','}) {
            codePoints.add(c);
        }
        return List.copyOf(codePoints);
    }

    /** A generated object property. */
    record Property(String name, Schema schema, boolean required) {
    }
}
