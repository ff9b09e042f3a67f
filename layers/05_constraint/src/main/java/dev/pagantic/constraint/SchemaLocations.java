package dev.pagantic.constraint;

import dev.pagantic.core.Schema;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Collections;
import java.util.Deque;
import java.util.IdentityHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.regex.Pattern;
import org.jspecify.annotations.Nullable;

/**
 * The schemas of a JSON Schema document that may apply at a location of an instance, for enum normalisation: from the
 * root down through properties (declared, pattern-matched, additional) and items ({@code prefixItems}, {@code items}),
 * following {@code $ref}, {@code allOf}, {@code anyOf} and {@code oneOf}. It over-approximates (every branch of an
 * {@code anyOf} is followed) and says which string values are listed there, unless some branch accepts strings
 * without listing them, in which case a string may be valid as it is.
 *
 * <p>One instance per schema, built once (a pipeline keeps it): every location is worked out the first time an
 * output reaches it and remembered, so the hundredth item of an array costs a map lookup. Only what the schema
 * declares is remembered (declared property names, prefix positions), never names or positions an output makes up.
 * Thread-safe.
 */
final class SchemaLocations {

    /** Bound on the schemas gathered at one location, so a hostile document cannot make a walk expensive. */
    private static final int MAX_SCHEMAS = 1000;

    /** The key under which a location remembers the child every undeclared property name leads to. */
    private static final String UNDECLARED = "\u0000undeclared";

    private final Schema schema;
    private final At root;
    private final Map<String, Pattern> patterns = new ConcurrentHashMap<>();

    /** The schemas that may apply at one location, and what it has worked out about itself and its children. */
    static final class At {
        private final List<Map<String, Object>> schemas;
        private final Set<String> declared = new LinkedHashSet<>();
        private final boolean patterned;
        private final int prefix;
        private final Map<String, At> properties = new ConcurrentHashMap<>();
        private final Map<Integer, At> items = new ConcurrentHashMap<>();
        private volatile @Nullable List<String> stringValues;

        private At(List<Map<String, Object>> schemas) {
            this.schemas = schemas;
            boolean anyPattern = false;
            int longestPrefix = 0;
            for (Map<String, Object> map : schemas) {
                if (map.get("properties") instanceof Map<?, ?> named) {
                    named.keySet().forEach(name -> declared.add((String) name));
                }
                anyPattern |= map.containsKey("patternProperties");
                if (map.get("prefixItems") instanceof List<?> list) {
                    longestPrefix = Math.max(longestPrefix, list.size());
                }
            }
            this.patterned = anyPattern;
            this.prefix = longestPrefix;
        }
    }

    SchemaLocations(Schema schema) {
        this.schema = schema;
        this.root = expand(List.of(schema.toJsonSchema()));
    }

    /** Whether any schema of the document lists string values (enum or const). */
    static boolean declaresStringValues(Schema schema) {
        Deque<Object> pending = new ArrayDeque<>(List.of(schema.toJsonSchema()));
        while (!pending.isEmpty()) {
            Object node = pending.pop();
            if (node instanceof Map<?, ?> map) {
                if (map.get("const") instanceof String || map.get("enum") instanceof List<?> list
                        && list.stream().anyMatch(String.class::isInstance)) {
                    return true;
                }
                map.values().stream().filter(Objects::nonNull).forEach(pending::push); // "default": null is JSON
            } else if (node instanceof List<?> list) {
                list.stream().filter(Objects::nonNull).forEach(pending::push);
            }
        }
        return false;
    }

    At root() {
        return root;
    }

    At property(At here, String name) {
        if (here.declared.contains(name)) {
            return here.properties.computeIfAbsent(name, n -> propertyOf(here, n));
        }
        return here.patterned ? propertyOf(here, name) // the name decides which patterns apply
                : here.properties.computeIfAbsent(UNDECLARED, n -> propertyOf(here, name));
    }

    At item(At here, int index) {
        return here.items.computeIfAbsent(Math.min(index, here.prefix), i -> itemOf(here, i));
    }

    /**
     * The string values listed for a string at this location, or none when there is nothing to normalise to: no
     * values are listed, or a branch accepts strings without listing any.
     */
    List<String> stringValues(At here) {
        List<String> values = here.stringValues;
        if (values == null) {
            values = listedValues(here);
            here.stringValues = values;
        }
        return values;
    }

    private At propertyOf(At here, String name) {
        List<Object> children = new ArrayList<>();
        for (Map<String, Object> map : here.schemas) {
            boolean matched = false;
            if (map.get("properties") instanceof Map<?, ?> properties && properties.containsKey(name)) {
                children.add(properties.get(name));
                matched = true;
            }
            if (map.get("patternProperties") instanceof Map<?, ?> byPattern) {
                for (Map.Entry<?, ?> entry : byPattern.entrySet()) {
                    if (pattern((String) entry.getKey()).matcher(name).find()) {
                        children.add(entry.getValue());
                        matched = true;
                    }
                }
            }
            if (!matched && map.containsKey("additionalProperties")) {
                children.add(map.get("additionalProperties"));
            }
        }
        return expand(children);
    }

    private At itemOf(At here, int index) {
        List<Object> children = new ArrayList<>();
        for (Map<String, Object> map : here.schemas) {
            if (map.get("prefixItems") instanceof List<?> prefix && index < prefix.size()) {
                children.add(prefix.get(index));
            } else if (map.containsKey("items")) {
                children.add(map.get("items"));
            }
        }
        return expand(children);
    }

    private List<String> listedValues(At here) {
        Set<String> values = new LinkedHashSet<>();
        for (Map<String, Object> map : here.schemas) {
            values.addAll(listed(map));
            for (String keyword : List.of("anyOf", "oneOf")) {
                if (map.get(keyword) instanceof List<?> branches
                        && branches.stream().anyMatch(this::acceptsUnlistedStrings)) {
                    return List.of();
                }
            }
        }
        return List.copyOf(values);
    }

    /** Whether a branch (with its $ref and allOf targets) admits strings but lists no string values. */
    private boolean acceptsUnlistedStrings(Object branch) {
        boolean listsValues = false;
        boolean admitsStrings = true;
        for (Map<String, Object> map : reach(List.of(branch), false)) {
            listsValues |= map.containsKey("enum") || map.containsKey("const");
            Object type = map.get("type");
            if (type != null && !(type.equals("string") || type instanceof List<?> types && types.contains("string"))) {
                admitsStrings = false;
            }
        }
        return admitsStrings && !listsValues && !Boolean.FALSE.equals(branch);
    }

    private static List<String> listed(Map<String, Object> map) {
        List<String> values = new ArrayList<>();
        if (map.get("const") instanceof String value) {
            values.add(value);
        }
        if (map.get("enum") instanceof List<?> list) {
            list.stream().filter(String.class::isInstance).map(String.class::cast).forEach(values::add);
        }
        return values;
    }

    /** The location of the schemas reached from these through $ref, allOf, anyOf and oneOf, each once. */
    private At expand(List<Object> nodes) {
        return new At(reach(nodes, true));
    }

    @SuppressWarnings("unchecked")
    private List<Map<String, Object>> reach(List<Object> nodes, boolean branches) {
        List<Map<String, Object>> out = new ArrayList<>();
        Set<Object> seen = Collections.newSetFromMap(new IdentityHashMap<>());
        Deque<Object> pending = new ArrayDeque<>();
        nodes.stream().filter(Objects::nonNull).forEach(pending::add);
        while (!pending.isEmpty() && out.size() < MAX_SCHEMAS) {
            if (!(pending.pop() instanceof Map<?, ?> node) || !seen.add(node)) {
                continue;
            }
            Map<String, Object> map = (Map<String, Object>) node;
            out.add(map);
            if (map.get("$ref") instanceof String reference) {
                schema.resolve(reference).ifPresent(pending::add);
            }
            for (String keyword : branches ? List.of("allOf", "anyOf", "oneOf") : List.of("allOf")) {
                if (map.get(keyword) instanceof List<?> list) {
                    list.stream().filter(Objects::nonNull).forEach(pending::add);
                }
            }
        }
        return out;
    }

    private Pattern pattern(String regex) {
        return patterns.computeIfAbsent(regex, Pattern::compile);
    }
}
