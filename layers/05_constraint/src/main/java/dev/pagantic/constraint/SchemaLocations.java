package dev.pagantic.constraint;

import dev.pagantic.core.Schema;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Collections;
import java.util.Deque;
import java.util.HashMap;
import java.util.IdentityHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.regex.Pattern;

/**
 * The schemas of a JSON Schema document that may apply at a location of an instance, for enum normalisation: from the
 * root down through properties (declared, pattern-matched, additional) and items ({@code prefixItems}, {@code items}),
 * following {@code $ref}, {@code allOf}, {@code anyOf} and {@code oneOf}. It over-approximates (every branch of an
 * {@code anyOf} is followed) and says which string values are listed there, and whether some branch accepts strings
 * without listing them, in which case a string may be valid as it is. One instance serves one walk; not thread-safe.
 */
final class SchemaLocations {

    /** Bound on the schemas gathered at one location, so a hostile document cannot make a walk expensive. */
    private static final int MAX_SCHEMAS = 1000;

    /** The schemas that may apply at one location. */
    record At(List<Map<String, Object>> schemas) {
        static final At NOTHING = new At(List.of());
    }

    private final Schema schema;
    private final Map<String, Pattern> patterns = new HashMap<>();

    SchemaLocations(Schema schema) {
        this.schema = schema;
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
                pending.addAll(map.values());
            } else if (node instanceof List<?> list) {
                pending.addAll(list);
            }
        }
        return false;
    }

    At root() {
        return expand(List.of(schema.toJsonSchema()));
    }

    At property(At here, String name) {
        List<Object> children = new ArrayList<>();
        for (Map<String, Object> map : here.schemas()) {
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

    At item(At here, int index) {
        List<Object> children = new ArrayList<>();
        for (Map<String, Object> map : here.schemas()) {
            if (map.get("prefixItems") instanceof List<?> prefix && index < prefix.size()) {
                children.add(prefix.get(index));
            } else if (map.containsKey("items")) {
                children.add(map.get("items"));
            }
        }
        return expand(children);
    }

    /**
     * The string values listed for a string at this location, or none when there is nothing to normalise to: no
     * values are listed, or a branch accepts strings without listing any.
     */
    List<String> stringValues(At here) {
        Set<String> values = new LinkedHashSet<>();
        for (Map<String, Object> map : here.schemas()) {
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
        for (Map<String, Object> map : conjuncts(branch)) {
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

    /** The schemas reached from these through $ref, allOf, anyOf and oneOf, each once. */
    private At expand(List<Object> nodes) {
        return new At(reach(nodes, true));
    }

    /** The schemas reached from a node through $ref and allOf only. */
    private List<Map<String, Object>> conjuncts(Object node) {
        return reach(List.of(node), false);
    }

    @SuppressWarnings("unchecked")
    private List<Map<String, Object>> reach(List<Object> nodes, boolean branches) {
        List<Map<String, Object>> out = new ArrayList<>();
        Set<Object> seen = Collections.newSetFromMap(new IdentityHashMap<>());
        Deque<Object> pending = new ArrayDeque<>(nodes);
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
                    pending.addAll(list);
                }
            }
        }
        return out;
    }

    private Pattern pattern(String regex) {
        return patterns.computeIfAbsent(regex, Pattern::compile);
    }
}
