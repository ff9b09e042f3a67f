package dev.pagantic.inference.grammar;

import dev.pagantic.core.ErrorCode;
import dev.pagantic.core.PaganticException;
import dev.pagantic.core.Schema;
import dev.pagantic.core.ToolDefinition;
import java.math.BigDecimal;
import java.math.BigInteger;
import java.math.RoundingMode;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Collections;
import java.util.Deque;
import java.util.EnumSet;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.regex.Pattern;

/**
 * Derives a GBNF grammar from a {@link Schema}, so that structured output is constrained at the decoder without a
 * hand-written grammar.
 *
 * <p>The generator reads the schema's JSON Schema document through a typed view built on the fly: the schemas that
 * apply to one instance location (the node itself, its {@code allOf} branches, the targets of its {@code $ref}s) are
 * merged into one <i>conjunction</i>; its {@code anyOf}/{@code oneOf} branches are distributed into alternatives.
 * A conjunction compiles to the union, over the JSON types it allows, of one rule per type carrying that type's
 * constraints. Conjunctions are memoised by the locations they merge, which is what makes recursive {@code $ref}s
 * recursive rules. Whatever a grammar cannot carry (see {@code docs/json-schema.md}) is left to the validator, and
 * the JSON pointer of each such keyword is recorded ({@link Derivation#validatedAfter()}): the grammar is then wider
 * than the schema, never narrower, apart from the documented limits (keys in declared order, limited whitespace and
 * number digits, raw characters rather than {@code \}{@code u} escapes).
 *
 * <p>An object's members compile to a chain of rules, two per property: the members from property <i>i</i> on when
 * none has been written yet, and when one has (so a comma is needed). That keeps the grammar linear in the number of
 * properties however many are optional. With {@code minProperties}/{@code maxProperties} the chain also counts the
 * members written.
 *
 * <p>Why this file is longer than 500 lines: it is one recursive walk. The rule of each JSON type (object, array,
 * string, number) recurses into the walk for the schemas nested in it, and all of them share the walk's state (the
 * memo of conjunctions, the rules written, the keywords left to the validator, the combination budget); what needs
 * none of that state is already beside it ({@link GbnfWriter}, {@link RegexGbnf}, {@link IntegerRanges},
 * {@link LiteralTrie}, {@link MemberChain}).
 */
final class SchemaGbnfGenerator {

    /**
     * Length, item and property counts above this are not carried by the grammar (each counted unit is a rule of its
     * own, and the cost budget would soon refuse a schema with a few long strings); validation checks them.
     */
    static final int MAX_GRAMMAR_REPETITION = 256;

    /**
     * Schemas nested deeper than this (objects in objects, arrays of arrays) are refused with {@code CONFIG_INVALID}:
     * generation recurses once per level.
     */
    static final int MAX_SCHEMA_DEPTH = 128;

    /** The most alternatives {@code anyOf}/{@code oneOf} combinations expand to; past it, later ones are validated after. */
    private static final int MAX_COMBINATIONS = 64;

    /** The most characters of declared keys that additional keys are kept apart from, character by character. */
    private static final int MAX_EXCLUDED_KEY_CHARACTERS = 4_096;

    /** The most member rules an object's property counting may take; past it, the counts are validated after. */
    private static final int MAX_COUNTING_RULES = 2048;

    /** The formats a grammar writes; {@code true}: exactly, {@code false}: the calendar is also checked afterwards. */
    private static final Map<String, Boolean> GRAMMAR_FORMATS = Map.of("date", false, "time", false,
            "date-time", false, "uuid", true, "duration", true);

    /** Keywords that never constrain an instance. */
    private static final Set<String> ANNOTATIONS = Set.of("title", "description", "default", "examples", "$comment",
            "deprecated", "readOnly", "writeOnly", "contentEncoding", "contentMediaType", "contentSchema", "$schema",
            "$id", "$defs", "definitions", "discriminator");

    /** Keywords that apply to any instance and that a grammar does not carry. */
    private static final List<String> ALWAYS_AFTER = List.of("not", "if", "then", "else");

    /** The rule of a conjunction that has no instance: never referenced from the root. */
    private static final String NEVER = "";

    /** The JSON types as a grammar tells them apart; integer is a number without fraction or exponent. */
    private enum Kind { NULL, BOOLEAN, OBJECT, ARRAY, STRING, NUMBER, INTEGER }

    /** One schema at one location of one root document: a map, or a boolean schema. */
    private record Part(int root, Object node, String pointer) {
        String key() {
            return root + ":" + pointer;
        }

        @SuppressWarnings("unchecked")
        Map<String, Object> map() {
            return node instanceof Map<?, ?> map ? (Map<String, Object>) map : Map.of();
        }

        Object get(String keyword) {
            return map().get(keyword);
        }

        Part child(Object value, String path) {
            return new Part(root, value, pointer + "/" + path);
        }
    }

    /** The schemas that all apply to one location, and the anyOf/oneOf groups still to distribute over them. */
    private record Conjunction(List<Part> leaves, List<List<Part>> groups, boolean never) {
        String key() {
            List<String> keys = new ArrayList<>();
            leaves.forEach(leaf -> keys.add(leaf.key()));
            Collections.sort(keys);
            StringBuilder key = new StringBuilder(String.join(",", keys));
            groups.forEach(group -> key.append("|").append(group.get(0).key()));
            return key.toString();
        }
    }

    /** A derived grammar and the JSON pointers of the keywords it leaves to the validator. */
    record Derivation(String grammar, Set<String> validatedAfter) {
    }

    private final List<Schema> roots = new ArrayList<>();
    private final GbnfWriter out = new GbnfWriter();
    private final Map<String, String> memo = new HashMap<>();
    private final Set<String> validatedAfter = new LinkedHashSet<>();
    private int combinations;

    static Derivation derive(Schema schema) {
        SchemaGbnfGenerator generator = new SchemaGbnfGenerator();
        String top = generator.valueRule(List.of(generator.root(schema)), "root", 0);
        if (top.equals(NEVER)) {
            throw PaganticException.builder(ErrorCode.CONFIG_INVALID, "invalid schema: no JSON value satisfies it, "
                    + "so no output could").detail("pointer", "").build();
        }
        if (!top.equals("root")) {
            generator.out.put("root", top);
        }
        return new Derivation(generator.out.render(), Collections.unmodifiableSet(generator.validatedAfter));
    }

    private Part root(Schema schema) {
        roots.add(schema);
        return new Part(roots.size() - 1, schema.toJsonSchema(), "");
    }

    // ------------------------------------------------------------------------------------------- conjunctions

    /** Defines what the schemas need and returns the rule matching one value of all of them ({@link #NEVER}: none). */
    private String valueRule(List<Part> parts, String name, int depth) {
        if (depth > MAX_SCHEMA_DEPTH) {
            throw PaganticException.builder(ErrorCode.CONFIG_INVALID, "invalid schema: nested deeper than "
                    + MAX_SCHEMA_DEPTH + " levels at " + parts.get(0).pointer()).detail("pointer",
                    parts.get(0).pointer()).build();
        }
        return conjunctionRule(flatten(List.of(), parts, List.of()), name, depth);
    }

    /**
     * The conjunction of flattened leaves and new parts: the parts' allOf branches and $ref targets merged in, their
     * anyOf/oneOf collected after the pending groups.
     */
    private Conjunction flatten(List<Part> flattened, List<Part> parts, List<List<Part>> pendingGroups) {
        List<Part> leaves = new ArrayList<>(flattened);
        List<List<Part>> groups = new ArrayList<>(pendingGroups);
        Set<String> seen = new HashSet<>();
        flattened.forEach(leaf -> seen.add(leaf.key()));
        Deque<Part> pending = new ArrayDeque<>(parts);
        while (!pending.isEmpty()) {
            Part part = pending.removeFirst();
            if (part.node() instanceof Boolean accepts) {
                if (!accepts) {
                    return new Conjunction(List.of(), List.of(), true);
                }
                continue;
            }
            if (!seen.add(part.key())) {
                continue; // a schema met twice at one location adds nothing the first did not
            }
            leaves.add(part);
            if (part.get("$ref") instanceof String reference) {
                Object target = roots.get(part.root()).resolve(reference).orElseThrow();
                pending.addLast(new Part(part.root(), target, reference.substring(1)));
            }
            branches(part, "allOf").forEach(pending::addLast);
            if (part.map().containsKey("anyOf")) {
                groups.add(branches(part, "anyOf"));
            }
            if (part.map().containsKey("oneOf")) {
                groups.add(branches(part, "oneOf"));
                defer(part, "oneOf"); // "exactly one" is checked after: the grammar writes at least one
            }
        }
        return new Conjunction(leaves, groups, false);
    }

    private static List<Part> branches(Part part, String keyword) {
        List<Part> branches = new ArrayList<>();
        if (part.get(keyword) instanceof List<?> list) {
            for (int i = 0; i < list.size(); i++) {
                branches.add(part.child(list.get(i), keyword + "/" + i));
            }
        }
        return branches;
    }

    private String conjunctionRule(Conjunction conjunction, String name, int depth) {
        if (conjunction.never()) {
            return NEVER;
        }
        String key = conjunction.key();
        String known = memo.get(key);
        if (known != null) {
            return known;
        }
        if (conjunction.groups().isEmpty() && conjunction.leaves().stream().allMatch(this::unconstrained)) {
            return out.primitive("value");
        }
        String rule = out.reserve(name);
        memo.put(key, rule);
        String expression = conjunction.groups().isEmpty() ? leafExpression(conjunction.leaves(), rule, depth)
                : distribute(conjunction, rule, depth);
        if (expression == null) {
            memo.put(key, NEVER);
            out.put(rule, "\"\\x01\""); // unreachable: only a branch that was dropped can refer to it
            return NEVER;
        }
        out.put(rule, expression);
        return rule;
    }

    /** Whether a schema constrains nothing itself (its $ref and allOf targets are leaves of their own). */
    private boolean unconstrained(Part leaf) {
        return leaf.map().keySet().stream().allMatch(k -> ANNOTATIONS.contains(k) || k.equals("$ref")
                || k.equals("allOf"));
    }

    /** The alternatives of the first anyOf/oneOf group, each merged with the rest of the conjunction. */
    private String distribute(Conjunction conjunction, String name, int depth) {
        List<Part> group = conjunction.groups().get(0);
        List<List<Part>> rest = conjunction.groups().subList(1, conjunction.groups().size());
        List<String> alternatives = new ArrayList<>();
        for (int i = 0; i < group.size(); i++) {
            if (++combinations > MAX_COMBINATIONS) {
                // Too many combinations to write out: the remaining groups are left to the validator (wider).
                rest.forEach(g -> defer(parentOf(g.get(0)), keywordOf(g.get(0))));
                rest = List.of();
            }
            Conjunction branch = flatten(conjunction.leaves(), List.of(group.get(i)), rest);
            String rule = conjunctionRule(branch, name + "-" + i, depth);
            if (!rule.equals(NEVER)) {
                alternatives.add(rule);
            }
        }
        return alternatives.isEmpty() ? null : String.join(" | ", alternatives);
    }

    /** The union, over the JSON types the leaves allow, of the rule of each type under the leaves' constraints. */
    private String leafExpression(List<Part> leaves, String name, int depth) {
        EnumSet<Kind> kinds = EnumSet.allOf(Kind.class);
        for (Part leaf : leaves) {
            Object type = leaf.get("type");
            if (type != null) {
                kinds.retainAll(kinds(type));
            }
            for (String keyword : ALWAYS_AFTER) {
                if (leaf.map().containsKey(keyword) && !(keyword.equals("not") && excludeKinds(leaf, kinds))) {
                    defer(leaf, keyword);
                }
            }
        }
        if (kinds.contains(Kind.NUMBER)) {
            kinds.remove(Kind.INTEGER); // the number rule writes integers too
        }
        List<Object> values = allowedValues(leaves, kinds);
        if (values != null) {
            return values.isEmpty() ? null : literals(values, name);
        }
        List<String> alternatives = new ArrayList<>();
        for (Kind kind : kinds) {
            String rule = switch (kind) {
                case NULL -> out.primitive("null");
                case BOOLEAN -> out.primitive("boolean");
                case NUMBER -> numberRule(leaves, name);
                case INTEGER -> integerRule(leaves, name);
                case STRING -> stringRule(leaves, name);
                case ARRAY -> arrayRule(leaves, name, depth);
                case OBJECT -> objectRule(leaves, name, depth);
            };
            if (rule != null) {
                alternatives.add(rule);
            }
        }
        return alternatives.isEmpty() ? null : String.join(" | ", alternatives);
    }

    /**
     * Applies a {@code not} that only names types ({@code "not": {"type": "null"}}, or {@code true} and {@code {}},
     * which exclude everything) by removing those types; false when the {@code not} says more and is left to the
     * validator.
     */
    private static boolean excludeKinds(Part leaf, EnumSet<Kind> kinds) {
        Object not = leaf.get("not");
        if (Boolean.TRUE.equals(not)) {
            kinds.clear();
            return true;
        }
        if (!(not instanceof Map<?, ?> map) || !map.keySet().stream().allMatch(k -> k.equals("type")
                || ANNOTATIONS.contains(k))) {
            return false;
        }
        if (map.containsKey("type")) {
            EnumSet<Kind> excluded = kinds(map.get("type"));
            if (excluded.contains(Kind.INTEGER) && !excluded.contains(Kind.NUMBER) && kinds.contains(Kind.NUMBER)) {
                return false; // "not an integer" leaves the numbers with a fraction: more than a grammar rule says
            }
            kinds.removeAll(excluded);
        } else {
            kinds.clear();
        }
        return true;
    }

    private static EnumSet<Kind> kinds(Object type) {
        EnumSet<Kind> kinds = EnumSet.noneOf(Kind.class);
        for (Object name : type instanceof List<?> list ? list : List.of(type)) {
            switch ((String) name) {
                case "null" -> kinds.add(Kind.NULL);
                case "boolean" -> kinds.add(Kind.BOOLEAN);
                case "object" -> kinds.add(Kind.OBJECT);
                case "array" -> kinds.add(Kind.ARRAY);
                case "string" -> kinds.add(Kind.STRING);
                case "number" -> kinds.addAll(List.of(Kind.NUMBER, Kind.INTEGER));
                default -> kinds.add(Kind.INTEGER);
            }
        }
        return kinds;
    }

    // ------------------------------------------------------------------------------------------- const and enum

    /**
     * The values const/enum allow (null when neither is present): those of every leaf's list, of an allowed type, and
     * satisfying the leaves' scalar constraints. Constraints on array and object values are left to the validator.
     */
    private List<Object> allowedValues(List<Part> leaves, EnumSet<Kind> kinds) {
        Map<String, Object> values = null; // by canonical text, in listed order
        for (Part leaf : leaves) {
            for (String keyword : List.of("const", "enum")) {
                if (!leaf.map().containsKey(keyword)) {
                    continue;
                }
                List<?> listed = keyword.equals("const") ? Collections.singletonList(leaf.get(keyword))
                        : (List<?>) leaf.get(keyword);
                GrammarCost.checkAlternatives(listed.size());
                Map<String, Object> previous = values;
                values = new LinkedHashMap<>();
                for (Object value : listed) {
                    String key = JsonLiterals.key(value);
                    if (previous == null || previous.containsKey(key)) {
                        values.putIfAbsent(key, value);
                    }
                }
            }
        }
        if (values == null) {
            return null;
        }
        List<Object> allowed = new ArrayList<>();
        Map<String, Pattern> patterns = new HashMap<>();
        for (Object value : values.values()) {
            String type = JsonLiterals.type(value);
            Kind kind = type.equals("integer") ? Kind.INTEGER : Kind.valueOf(type.toUpperCase(java.util.Locale.ROOT));
            boolean typed = kinds.contains(kind) || kind == Kind.INTEGER && kinds.contains(Kind.NUMBER);
            if (typed && satisfiesScalarKeywords(value, leaves, patterns)) {
                allowed.add(value);
            }
        }
        for (Part leaf : leaves) {
            for (String keyword : leaf.map().keySet()) {
                if (!isScalarKeyword(keyword) && !isStructural(keyword) && !ANNOTATIONS.contains(keyword)
                        && !ALWAYS_AFTER.contains(keyword)) {
                    defer(leaf, keyword); // array and object keywords on listed values, and format
                }
            }
        }
        return allowed;
    }

    private static boolean isStructural(String keyword) {
        return Set.of("type", "enum", "const", "$ref", "allOf", "anyOf", "oneOf").contains(keyword);
    }

    private static boolean isScalarKeyword(String keyword) {
        return Set.of("minLength", "maxLength", "pattern", "minimum", "maximum", "exclusiveMinimum",
                "exclusiveMaximum", "multipleOf").contains(keyword);
    }

    private static boolean satisfiesScalarKeywords(Object value, List<Part> leaves, Map<String, Pattern> patterns) {
        for (Part leaf : leaves) {
            if (value instanceof String text) {
                int length = text.codePointCount(0, text.length());
                if (leaf.get("minLength") instanceof Number min && length < min.longValue()
                        || leaf.get("maxLength") instanceof Number max && length > max.longValue()
                        || leaf.get("pattern") instanceof String regex
                        && !patterns.computeIfAbsent(regex, Pattern::compile).matcher(text).find()) {
                    return false;
                }
            } else if (value instanceof Number number) {
                BigDecimal x = JsonLiterals.decimal(number);
                if (below(x, leaf.get("minimum"), false) || below(x, leaf.get("exclusiveMinimum"), true)
                        || above(x, leaf.get("maximum"), false) || above(x, leaf.get("exclusiveMaximum"), true)
                        || leaf.get("multipleOf") instanceof Number step
                        && x.remainder(JsonLiterals.decimal(step)).signum() != 0) {
                    return false;
                }
            }
        }
        return true;
    }

    private static boolean below(BigDecimal x, Object bound, boolean exclusive) {
        if (!(bound instanceof Number n)) {
            return false;
        }
        int c = x.compareTo(JsonLiterals.decimal(n));
        return exclusive ? c <= 0 : c < 0;
    }

    private static boolean above(BigDecimal x, Object bound, boolean exclusive) {
        if (!(bound instanceof Number n)) {
            return false;
        }
        int c = x.compareTo(JsonLiterals.decimal(n));
        return exclusive ? c >= 0 : c > 0;
    }

    /**
     * Alternatives between literal JSON values: scalars prefix-shared, objects and arrays token by token with the
     * whitespace the rest of the grammar allows between tokens (their keys in the order given).
     */
    private String literals(List<Object> values, String name) {
        List<String> alternatives = new ArrayList<>();
        List<String> scalars = new ArrayList<>();
        for (Object value : values) {
            if (value instanceof Map<?, ?> || value instanceof List<?>) {
                alternatives.add(JsonLiterals.gbnf(value));
            } else {
                scalars.add(JsonLiterals.write(value));
            }
        }
        if (!scalars.isEmpty()) {
            alternatives.add(0, new LiteralTrie(scalars).expression(name, out::define));
        }
        return String.join(" | ", alternatives);
    }

    // ------------------------------------------------------------------------------------------- numbers

    /** Numbers; a whole {@code multipleOf} makes them integers (with their bounds), a fractional one limits fractions. */
    private String numberRule(List<Part> leaves, String name) {
        BigDecimal step = step(leaves);
        if (step != null && Multiples.whole(step)) {
            return integerRule(leaves, name);
        }
        String rule = null;
        for (Part leaf : leaves) {
            deferPresent(leaf, "minimum", "maximum", "exclusiveMinimum", "exclusiveMaximum", "format");
        }
        if (step != null && Multiples.dividesOne(step)) {
            rule = Multiples.fractions(step, name, out::define);
        }
        if (rule == null) {
            leaves.forEach(leaf -> deferPresent(leaf, "multipleOf"));
            return out.primitive("number");
        }
        return out.define(name + "-num", rule);
    }

    /**
     * The one step all the leaves' {@code multipleOf} amount to (the least common multiple of whole steps), or null
     * when there is none or the grammar cannot combine them (then they are left to the validator).
     */
    private BigDecimal step(List<Part> leaves) {
        BigInteger wholeStep = BigInteger.ONE;
        BigDecimal step = null;
        int count = 0;
        for (Part leaf : leaves) {
            if (leaf.get("multipleOf") instanceof Number n) {
                BigDecimal value = JsonLiterals.decimal(n);
                count++;
                step = value;
                if (wholeStep != null && Multiples.whole(value)) {
                    BigInteger v = value.toBigIntegerExact();
                    wholeStep = wholeStep.multiply(v).divide(wholeStep.gcd(v));
                } else {
                    wholeStep = null;
                }
            }
        }
        if (count <= 1) {
            return step;
        }
        if (wholeStep == null) {
            leaves.forEach(leaf -> deferPresent(leaf, "multipleOf"));
            return null;
        }
        return new BigDecimal(wholeStep);
    }

    /** Integers, with their bounds as digit-range rules. */
    private String integerRule(List<Part> leaves, String name) {
        BigInteger low = null;
        BigInteger high = null;
        for (Part leaf : leaves) {
            deferPresent(leaf, "format");
            if (leaf.get("minimum") instanceof Number n) {
                low = max(low, JsonLiterals.decimal(n).setScale(0, RoundingMode.CEILING).toBigIntegerExact());
            }
            if (leaf.get("exclusiveMinimum") instanceof Number n) {
                low = max(low, JsonLiterals.decimal(n).setScale(0, RoundingMode.FLOOR).toBigIntegerExact()
                        .add(BigInteger.ONE));
            }
            if (leaf.get("maximum") instanceof Number n) {
                high = min(high, JsonLiterals.decimal(n).setScale(0, RoundingMode.FLOOR).toBigIntegerExact());
            }
            if (leaf.get("exclusiveMaximum") instanceof Number n) {
                high = min(high, JsonLiterals.decimal(n).setScale(0, RoundingMode.CEILING).toBigIntegerExact()
                        .subtract(BigInteger.ONE));
            }
        }
        BigDecimal step = step(leaves);
        if (step != null && !Multiples.dividesOne(step)) {
            String multiples = Multiples.whole(step)
                    ? Multiples.integers(step.toBigIntegerExact(), low, high, name, out::define) : null;
            if (multiples != null) {
                return multiples.isEmpty() ? null : out.define(name + "-int", multiples);
            }
            leaves.forEach(leaf -> deferPresent(leaf, "multipleOf"));
        }
        if (low == null && high == null) {
            return out.primitive("integer");
        }
        List<String> alternatives = IntegerRanges.alternatives(low, high);
        return alternatives.isEmpty() ? null : out.define(name + "-int", String.join(" | ", alternatives));
    }

    private static BigInteger max(BigInteger a, BigInteger b) {
        return a == null ? b : a.max(b);
    }

    private static BigInteger min(BigInteger a, BigInteger b) {
        return a == null ? b : a.min(b);
    }

    // ------------------------------------------------------------------------------------------- strings

    /** A string: of a format, else of a pattern, else of bounded length; one of them in the grammar, the rest after. */
    private String stringRule(List<Part> leaves, String name) {
        int minLength = 0;
        long maxLength = -1;
        Part formatLeaf = null;
        Part patternLeaf = null;
        for (Part leaf : leaves) {
            if (leaf.get("minLength") instanceof Number n) {
                minLength = (int) Math.max(minLength, Math.min(n.longValue(), Integer.MAX_VALUE));
            }
            if (leaf.get("maxLength") instanceof Number n) {
                maxLength = maxLength < 0 ? n.longValue() : Math.min(maxLength, n.longValue());
            }
            if (leaf.get("format") instanceof String format) {
                if (formatLeaf == null && GRAMMAR_FORMATS.containsKey(format)) {
                    formatLeaf = leaf;
                } else {
                    defer(leaf, "format");
                }
            }
            if (leaf.map().containsKey("pattern") && patternLeaf == null) {
                patternLeaf = leaf;
            } else if (leaf.map().containsKey("pattern")) {
                defer(leaf, "pattern");
            }
        }
        if (maxLength >= 0 && minLength > maxLength) {
            return null;
        }
        if (formatLeaf != null || patternLeaf != null) {
            for (Part leaf : leaves) {
                deferPresent(leaf, "minLength", "maxLength");
            }
        }
        if (formatLeaf != null) {
            String format = (String) formatLeaf.get("format");
            if (!GRAMMAR_FORMATS.get(format)) {
                defer(formatLeaf, "format"); // the calendar (days in a month, leap seconds) is checked after
            }
            if (patternLeaf != null) {
                defer(patternLeaf, "pattern");
            }
            return out.define(name + "-" + format, "\"\\\"\" " + out.primitive(format) + " \"\\\"\"");
        }
        if (patternLeaf != null) {
            String pattern = (String) patternLeaf.get("pattern");
            RegexGbnf regex;
            try {
                regex = RegexGbnf.compile(pattern, out.primitive("char"));
            } catch (PaganticException refused) {
                throw PaganticException.builder(ErrorCode.CONFIG_INVALID, "invalid schema at '"
                        + patternLeaf.pointer() + "/pattern': " + refused.getMessage())
                        .details(refused.details()).detail("pointer", patternLeaf.pointer() + "/pattern")
                        .detail("keyword", "pattern").build();
            }
            if (!regex.exact()) {
                defer(patternLeaf, "pattern");
            }
            return out.define(name + "-pattern", "\"\\\"\" (" + regex.expression() + ") \"\\\"\"");
        }
        if (minLength == 0 && maxLength < 0) {
            return out.primitive("string");
        }
        if (minLength > MAX_GRAMMAR_REPETITION || maxLength > MAX_GRAMMAR_REPETITION) {
            for (Part leaf : leaves) {
                deferPresent(leaf, "minLength", "maxLength");
            }
        }
        int min = Math.min(minLength, MAX_GRAMMAR_REPETITION);
        int max = maxLength < 0 || maxLength > MAX_GRAMMAR_REPETITION ? -1 : (int) maxLength;
        return out.define(name + "-string", "\"\\\"\" " + out.primitive("char") + GbnfWriter.repetition(min, max) + " \"\\\"\"");
    }

    // ------------------------------------------------------------------------------------------- arrays

    /** An array: prefixItems position by position, then items, within minItems/maxItems. */
    private String arrayRule(List<Part> leaves, String name, int depth) {
        int prefix = 0;
        long minItems = 0;
        long maxItems = -1;
        for (Part leaf : leaves) {
            if (leaf.get("prefixItems") instanceof List<?> list) {
                prefix = Math.max(prefix, list.size());
            }
            if (leaf.get("minItems") instanceof Number n) {
                minItems = Math.max(minItems, n.longValue());
            }
            if (leaf.get("maxItems") instanceof Number n) {
                maxItems = maxItems < 0 ? n.longValue() : Math.min(maxItems, n.longValue());
            }
            deferPresent(leaf, "uniqueItems", "contains", "minContains", "maxContains", "unevaluatedItems");
        }
        if (maxItems >= 0 && minItems > maxItems) {
            return null;
        }
        if (minItems > MAX_GRAMMAR_REPETITION || maxItems > MAX_GRAMMAR_REPETITION) {
            for (Part leaf : leaves) {
                deferPresent(leaf, "minItems", "maxItems");
            }
            minItems = Math.min(minItems, MAX_GRAMMAR_REPETITION);
            maxItems = maxItems > MAX_GRAMMAR_REPETITION ? -1 : maxItems;
        }
        int positions = (int) (maxItems < 0 ? prefix : Math.min(prefix, maxItems));
        List<String> items = new ArrayList<>();
        for (int i = 0; i < positions; i++) {
            items.add(valueRule(itemParts(leaves, i), name + "-" + i, depth + 1));
        }
        String tail = valueRule(itemParts(leaves, -1), name + "-item", depth + 1);
        // rest(i): what may follow the element at i - 1 (commas included); null when the array cannot end well.
        String rest = tailRepetition(tail, (int) Math.max(minItems - positions, 0),
                maxItems < 0 ? -1 : (int) (maxItems - positions));
        for (int i = positions - 1; i >= 1; i--) {
            String element = items.get(i);
            String take = element.equals(NEVER) || rest == null ? null : join("\",\" ws " + element + " ws", rest);
            boolean mayEnd = i >= minItems;
            if (take == null) {
                rest = mayEnd ? "" : null;
            } else {
                rest = out.define(name + "-rest" + i, mayEnd ? take + " | \"\"" : take);
            }
        }
        List<String> alternatives = new ArrayList<>();
        if (minItems == 0) {
            alternatives.add("\"[\" ws \"]\"");
        }
        String first = positions > 0 ? items.get(0) : tail;
        String afterFirst = positions > 0 ? rest : tailRepetition(tail, (int) Math.max(minItems - 1, 0),
                maxItems < 0 ? -1 : (int) (maxItems - 1));
        if (!first.equals(NEVER) && afterFirst != null && maxItems != 0) {
            alternatives.add(join("\"[\" ws " + first + " ws", afterFirst) + " \"]\"");
        }
        return alternatives.isEmpty() ? null : String.join(" | ", alternatives);
    }

    /** The schemas of the item at index i (-1: an item past every prefixItems). */
    private static List<Part> itemParts(List<Part> leaves, int index) {
        List<Part> parts = new ArrayList<>();
        for (Part leaf : leaves) {
            if (index >= 0 && leaf.get("prefixItems") instanceof List<?> list && index < list.size()) {
                parts.add(leaf.child(list.get(index), "prefixItems/" + index));
            } else if (leaf.map().containsKey("items")) {
                parts.add(leaf.child(leaf.get("items"), "items"));
            }
        }
        return parts;
    }

    /** {@code ("," ws item ws){min,max}}: "" when no more may follow, null when more must but cannot. */
    private static String tailRepetition(String item, int min, int max) {
        if (max == 0 || item.equals(NEVER)) {
            return min == 0 ? "" : null;
        }
        return GbnfWriter.commaRepetition(item + " ws", min, max);
    }


    // ------------------------------------------------------------------------------------------- objects

    /** An object: the declared properties in order, then additional ones where allowed, counted when bounded. */
    private String objectRule(List<Part> leaves, String name, int depth) {
        Set<String> required = new LinkedHashSet<>();
        Map<String, Boolean> names = new LinkedHashMap<>();
        long minProperties = 0;
        long maxProperties = -1;
        boolean patterns = false;
        for (Part leaf : leaves) {
            if (leaf.get("properties") instanceof Map<?, ?> properties) {
                properties.keySet().forEach(key -> names.put((String) key, true));
            }
            if (leaf.get("required") instanceof List<?> list) {
                list.forEach(key -> required.add((String) key));
            }
            if (leaf.get("minProperties") instanceof Number n) {
                minProperties = Math.max(minProperties, n.longValue());
            }
            if (leaf.get("maxProperties") instanceof Number n) {
                maxProperties = maxProperties < 0 ? n.longValue() : Math.min(maxProperties, n.longValue());
            }
            patterns |= leaf.map().containsKey("patternProperties");
            deferPresent(leaf, "patternProperties", "propertyNames", "dependentRequired", "dependentSchemas",
                    "unevaluatedProperties");
        }
        required.forEach(key -> names.putIfAbsent(key, true));
        if (maxProperties >= 0 && minProperties > maxProperties) {
            return null;
        }
        List<String> keys = new ArrayList<>();
        List<String> members = new ArrayList<>();
        List<Boolean> mandatory = new ArrayList<>();
        for (String key : names.keySet()) {
            List<Part> parts = propertyParts(leaves, key);
            String value = parts == null ? NEVER : valueRule(parts, name + "-" + sanitize(key), depth + 1);
            if (value.equals(NEVER)) {
                if (required.contains(key)) {
                    return null;
                }
                continue;
            }
            keys.add(key);
            mandatory.add(required.contains(key));
            members.add(out.define(name + "-" + sanitize(key) + "-kv", GbnfWriter.literal(GbnfWriter.jsonString(key)) + " ws \":\" ws "
                    + value + " ws"));
        }
        String extra = null;
        if (patterns || leaves.stream().noneMatch(leaf -> Boolean.FALSE.equals(leaf.get("additionalProperties")))) {
            List<Part> parts = new ArrayList<>();
            for (Part leaf : leaves) {
                if (leaf.map().containsKey("additionalProperties") && !leaf.map().containsKey("patternProperties")) {
                    parts.add(leaf.child(leaf.get("additionalProperties"), "additionalProperties"));
                }
            }
            String value = valueRule(parts, name + "-additional", depth + 1);
            if (!value.equals(NEVER)) {
                String key = names.isEmpty() ? out.primitive("string") : otherKey(names.keySet(), name, leaves);
                extra = out.define(name + "-additional-kv", key + " ws \":\" ws " + value + " ws");
            }
        }
        if (patterns) {
            for (Part leaf : leaves) {
                deferPresent(leaf, "additionalProperties"); // pattern-matched keys are let through: checked after
            }
        }
        long cap = maxProperties >= 0 ? maxProperties : minProperties;
        if ((long) keys.size() * (cap + 1) * 2 > MAX_COUNTING_RULES || cap > MAX_GRAMMAR_REPETITION) {
            for (Part leaf : leaves) {
                deferPresent(leaf, "minProperties", "maxProperties"); // too many states to count: checked after
            }
            minProperties = 0;
            maxProperties = -1;
        }
        return new MemberChain(out, name, members, mandatory, extra, minProperties, maxProperties).expression();
    }

    /**
     * The schemas of a property's value, from each leaf: its properties entry, else its additionalProperties (absent:
     * anything); null when a leaf allows no such property. Keys matched by patternProperties are left to the validator.
     */
    private static List<Part> propertyParts(List<Part> leaves, String key) {
        List<Part> parts = new ArrayList<>();
        for (Part leaf : leaves) {
            if (leaf.get("properties") instanceof Map<?, ?> properties && properties.containsKey(key)) {
                parts.add(leaf.child(properties.get(key), "properties/" + escape(key)));
            } else if (leaf.map().containsKey("patternProperties")) {
                continue; // a pattern may match the key: its schema is checked after
            } else if (leaf.map().containsKey("additionalProperties")) {
                parts.add(leaf.child(leaf.get("additionalProperties"), "additionalProperties"));
            }
        }
        return parts.stream().anyMatch(part -> Boolean.FALSE.equals(part.node())) ? null : parts;
    }

    /**
     * A JSON string other than the given keys (as written raw: an escaped spelling is validated after). Keys too long
     * to exclude character by character within a reasonable grammar (over {@value #MAX_EXCLUDED_KEY_CHARACTERS}
     * characters in all) are not excluded: any string then, and the properties are checked after.
     */
    private String otherKey(Set<String> keys, String name, List<Part> leaves) {
        if (keys.stream().mapToInt(String::length).sum() > MAX_EXCLUDED_KEY_CHARACTERS) {
            for (Part leaf : leaves) {
                deferPresent(leaf, "properties");
            }
            return out.primitive("string");
        }
        out.primitive("char");
        return out.define(name + "-other-key", "\"\\\"\" (" + OtherStrings.expression(keys, name + "-other",
                out::define) + ") \"\\\"\"");
    }

    // ------------------------------------------------------------------------------------------- bookkeeping

    private void defer(Part leaf, String keyword) {
        validatedAfter.add(leaf.pointer() + "/" + keyword);
    }

    private void deferPresent(Part leaf, String... keywords) {
        for (String keyword : keywords) {
            if (leaf.map().containsKey(keyword)) {
                defer(leaf, keyword);
            }
        }
    }

    private static Part parentOf(Part branch) {
        String pointer = branch.pointer().substring(0, branch.pointer().lastIndexOf('/'));
        return new Part(branch.root(), Map.of(), pointer.substring(0, pointer.lastIndexOf('/')));
    }

    private static String keywordOf(Part branch) {
        String pointer = branch.pointer().substring(0, branch.pointer().lastIndexOf('/'));
        return pointer.substring(pointer.lastIndexOf('/') + 1);
    }

    private static String escape(String key) {
        return key.replace("~", "~0").replace("/", "~1");
    }


    private static String join(String first, String second) {
        return GbnfWriter.join(first, second);
    }

    private static String orEmpty(String rule) {
        return rule.isEmpty() ? "\"\"" : rule;
    }

    /** A rule-name fragment from a property name: GBNF names allow letters, digits and '-'. */
    private static String sanitize(String key) {
        String cleaned = key.replaceAll("[^A-Za-z0-9]+", "-").replaceAll("^-+|-+$", "");
        cleaned = cleaned.length() > 40 ? cleaned.substring(0, 40) : cleaned;
        return cleaned.isEmpty() ? "p" : cleaned;
    }
}
