package dev.pagantic.inference.grammar;

import dev.pagantic.core.Schema;
import java.math.BigDecimal;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.function.Consumer;

/**
 * Test support: mutations of a conforming instance that are certain to violate its schema, whether judged by JSON
 * Schema or by the grammar derived from the schema. The schema subset has no alternatives ({@code anyOf} and the
 * like), so a violation anywhere in the document is a violation of the document; values under an "any" schema carry
 * no constraint and are never mutated.
 */
final class SchemaMutations {

    /** The kinds of violation. */
    enum Kind {
        DROP_REQUIRED, ADD_UNDECLARED, WRONG_TYPE, ENUM_MISS, TOO_MANY_ITEMS, TOO_FEW_ITEMS, TOO_LONG, BROKEN_SYNTAX
    }

    /** A violating document and what was done to make it. */
    record Mutant(Kind kind, String description, String json) {
    }

    private SchemaMutations() {
    }

    /** Every applicable violation of the instance, each a separate document; never empty (syntax always breaks). */
    static List<Mutant> all(Schema schema, Object instance) {
        List<Mutant> mutants = new ArrayList<>();
        int sites = sites(schema, copy(instance), null, new ArrayList<>()).size();
        for (int site = 0; site < sites; site++) {
            for (Kind kind : Kind.values()) {
                if (kind == Kind.BROKEN_SYNTAX) {
                    continue;
                }
                Object[] root = {copy(instance)};
                List<Site> found = sites(schema, root[0], null, new ArrayList<>());
                Site target = found.get(site);
                Consumer<Object> replace = target.replace != null ? target.replace : v -> root[0] = v;
                String description = apply(kind, target, replace);
                if (description != null) {
                    mutants.add(new Mutant(kind, description + " at " + target.path, CanonicalJson.write(root[0])));
                }
            }
        }
        String json = CanonicalJson.write(instance);
        mutants.add(new Mutant(Kind.BROKEN_SYNTAX, "unclosed '[' prepended", "[" + json));
        mutants.add(new Mutant(Kind.BROKEN_SYNTAX, "stray ']' appended", json + "]"));
        mutants.add(new Mutant(Kind.BROKEN_SYNTAX, "stray ',' appended", json + ","));
        if (json.length() > 1 && "}]\"el".indexOf(json.charAt(json.length() - 1)) >= 0) {
            mutants.add(new Mutant(Kind.BROKEN_SYNTAX, "last character cut", json.substring(0, json.length() - 1)));
        }
        return mutants;
    }

    /** One applicable violation, chosen at random. */
    static Mutant any(Schema schema, Object instance, Random random) {
        List<Mutant> mutants = all(schema, instance);
        return mutants.get(random.nextInt(mutants.size()));
    }

    /** Applies the mutation at the site; returns what it did, or null when it does not apply there. */
    private static String apply(Kind kind, Site site, Consumer<Object> replace) {
        Schema schema = site.schema;
        Object value = site.value;
        boolean hasEnum = !schema.enumValues().isEmpty();
        switch (kind) {
            case DROP_REQUIRED: {
                if (hasEnum || !schema.type().equals("object") || schema.required().isEmpty()) {
                    return null;
                }
                String name = schema.required().get(0);
                ((Map<?, ?>) value).remove(name);
                return "required " + CanonicalJson.string(name) + " dropped";
            }
            case ADD_UNDECLARED: {
                if (hasEnum || !schema.type().equals("object")) {
                    return null;
                }
                String name = "undeclared";
                for (int n = 2; schema.properties().containsKey(name); n++) {
                    name = "undeclared" + n;
                }
                @SuppressWarnings("unchecked")
                Map<String, Object> object = (Map<String, Object>) value;
                object.put(name, 1L);
                return "undeclared " + name + " added";
            }
            case WRONG_TYPE: {
                if (schema.type().isEmpty() && !hasEnum) {
                    return null;
                }
                for (Object replacement : List.of(new LinkedHashMap<>(), new ArrayList<>(), "text", 1L,
                        new BigDecimal("0.5"), true)) {
                    if (!sameKind(schema, replacement)) {
                        replace.accept(replacement);
                        return "replaced by " + CanonicalJson.write(replacement);
                    }
                }
                throw new IllegalStateException("no value of another type for " + schema);
            }
            case ENUM_MISS: {
                if (!hasEnum) {
                    return null;
                }
                String miss = schema.enumValues().get(0) + "?";
                while (schema.enumValues().contains(miss)) {
                    miss = miss + "?";
                }
                replace.accept(miss);
                return "enum value " + CanonicalJson.string(miss);
            }
            case TOO_MANY_ITEMS: {
                if (!schema.type().equals("array") || schema.maxItems().isEmpty()) {
                    return null;
                }
                @SuppressWarnings("unchecked")
                List<Object> list = (List<Object>) value;
                while (list.size() <= schema.maxItems().getAsInt()) {
                    list.add(schema.items().map(SchemaArbitraries::minimal).orElse(null));
                }
                return "grown to " + list.size() + " items";
            }
            case TOO_FEW_ITEMS: {
                if (!schema.type().equals("array") || schema.minItems().orElse(0) == 0) {
                    return null;
                }
                List<?> list = (List<?>) value;
                list.subList(schema.minItems().getAsInt() - 1, list.size()).clear();
                return "shrunk to " + list.size() + " items";
            }
            case TOO_LONG: {
                if (hasEnum || !schema.type().equals("string") || schema.maxLength().isEmpty()) {
                    return null;
                }
                replace.accept("x".repeat(schema.maxLength().getAsInt() + 1));
                return "string of " + (schema.maxLength().getAsInt() + 1) + " characters";
            }
            default:
                return null;
        }
    }

    /** Whether a value of the replacement's JSON type could satisfy the schema's type. */
    private static boolean sameKind(Schema schema, Object replacement) {
        if (!schema.enumValues().isEmpty()) {
            return replacement instanceof String;
        }
        return switch (schema.type()) {
            case "object" -> replacement instanceof Map;
            case "array" -> replacement instanceof List;
            case "string" -> replacement instanceof String;
            case "number" -> replacement instanceof Long || replacement instanceof BigDecimal;
            case "integer" -> replacement instanceof Long; // 0.5 is a number but not an integer
            case "boolean" -> replacement instanceof Boolean;
            default -> false;
        };
    }

    /** A value in the instance, the schema it must satisfy, and how to replace it (null for the root). */
    private record Site(Schema schema, Object value, Consumer<Object> replace, String path) {
    }

    /** The constrained values of the instance in document order: the root first, then depth first. */
    private static List<Site> sites(Schema schema, Object value, Consumer<Object> replace, List<Site> out) {
        return sites(schema, value, replace, "$", out);
    }

    private static List<Site> sites(Schema schema, Object value, Consumer<Object> replace, String path,
                                    List<Site> out) {
        out.add(new Site(schema, value, replace, path));
        if (!schema.enumValues().isEmpty()) {
            return out;
        }
        if (schema.type().equals("object") && value instanceof Map<?, ?> map) {
            @SuppressWarnings("unchecked")
            Map<String, Object> object = (Map<String, Object>) map;
            for (String name : new ArrayList<>(object.keySet())) {
                sites(schema.properties().get(name), object.get(name), v -> object.put(name, v),
                        path + "[" + CanonicalJson.string(name) + "]", out);
            }
        } else if (schema.type().equals("array") && value instanceof List<?> items && schema.items().isPresent()) {
            @SuppressWarnings("unchecked")
            List<Object> list = (List<Object>) items;
            for (int i = 0; i < list.size(); i++) {
                int index = i;
                sites(schema.items().get(), list.get(i), v -> list.set(index, v), path + "[" + i + "]", out);
            }
        }
        return out;
    }

    /** A deep, mutable copy of an instance. */
    static Object copy(Object value) {
        if (value instanceof Map<?, ?> map) {
            Map<String, Object> copy = new LinkedHashMap<>();
            map.forEach((k, v) -> copy.put((String) k, copy(v)));
            return copy;
        }
        if (value instanceof List<?> list) {
            List<Object> copy = new ArrayList<>();
            list.forEach(v -> copy.add(copy(v)));
            return copy;
        }
        return value;
    }
}
